// TasLeafCache: what each Node of a TAS flavor offers one PodSet shape (how many of its Pods fit,
// or why the Node is excluded), kept between nominations so that a topology search after one Node
// changed re-evaluates that Node, not the whole pool; and, per shape, the totals a one-level
// search reads (exclusion counts, Pods that fit, the Nodes ordered by room), kept as verdicts
// change, so that such a search costs what changed plus the domains it takes, not the pool's size.
//
// A Node's verdict for a shape depends on the Node (labels, allocatable), its TAS usage and the
// shape (per-Pod requests, nodeSelector, required affinity). The owner numbers every change to a
// Node or its usage with node_changed(flavor, position in the TasNodeIndex list), which also logs
// the position; a shape catches up on the logged positions since it last looked (all positions
// the first time, or when the log was trimmed past it). A change that moved only what decides the
// Pods that fit (NodeChange::kRoom: the Node's status or its usage, not its labels) is numbered
// apart as well, so that a stale verdict whose labels have not moved since it was computed keeps
// its exclusion and level values and has only its room counted again (StalePosition::labels_kept).
// So is a change of volatile labels only (NodeChange::kVolatileLabels): labels whose keys the owner
// names with set_volatile_labels(), which move often (the operator's fit labels, with every Pod
// started or finished); it keeps the labels of a shape that reads none of them (no nodeSelector,
// affinity or Topology level key among them).
// clear() drops everything (the index, a flavor or a Topology changed). With `verify` on,
// assign_topology also searches without the cache and records the first disagreement in
// mismatch() (the simulator's --verify).
//
// The totals order Nodes by room and then by their first level value, as Kueue's sort does. They
// hold no text: each position of a flavor has the rank of its Node's first level value among the
// flavor's values (FlavorValues, equal values equal ranks), so ordering and counting compare
// integers. The ranks follow the values the verdicts read: note_values() takes them after each
// batch of evaluations and ranks again when one moved (the first scan, a relabelled Node), and a
// shape keyed by older ranks is keyed again (Shape::rekey) before it counts anything.
//
// Kept by the simulator between cycles and passed to schedule_cycle (KeptCycleState), which uses it
// only against the kept usage snapshot. A plain value, deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/flat_string_index.h"

namespace chaintwin::model {

struct TasNodeVerdict {
  enum class Excluded : uint8_t { kNone, kNodeSelector, kAffinity };
  Excluded excluded = Excluded::kNone;
  int32_t pods = 0;       // Pods of the shape that fit (when not excluded)
  std::string short_of;   // the first resource short of one Pod, when none fits
  std::vector<std::string> values;  // the Node's value of each Topology level, when Pods fit
  // Not excluded and room for a Pod: counted in the totals' Pods and order, not in the exclusions.
  bool offers_room() const { return excluded == Excluded::kNone && pods != 0; }
  bool operator==(const TasNodeVerdict&) const = default;
};

// The Nodes a search looked at, and why those that offer no room are out (Kueue's "Total nodes:
// N; excluded: …" message).
struct TasExclusions {
  int32_t total = 0, node_selector = 0, affinity = 0;
  std::map<std::string, int32_t> resources;  // room for no Pod, by the first resource short of one
  // Counts `v` in (sign 1) or takes it out (sign -1); returns whether it offers room for a Pod.
  bool add(const TasNodeVerdict& v, int sign);
  bool operator==(const TasExclusions&) const = default;
};

// The first level value of each position of a flavor's Node list, as the verdicts last read it
// ("" before any did), and its rank among them: positions with equal values share a rank, and
// ranks follow the values' order. `epoch` moves whenever any rank does.
struct FlavorValues {
  std::vector<std::string> value;        // by position
  std::vector<uint32_t> rank;            // by position
  std::vector<uint32_t> first_with_rank;  // by rank: the lowest position holding that value
  uint64_t epoch = 0;
  const std::string& text(uint32_t r) const { return value[first_with_rank[r]]; }
  // Ranks every position again from `value`.
  void rerank();
};

// Sums over the counted verdicts of one shape.
struct TasShapeTotals {
  TasExclusions excluded;
  int64_t pods = 0;  // Pods that fit, over every Node
  // The Nodes with room for a Pod as (-pods, rank of the first level value): most room first,
  // ties by value. A multiset: two Nodes may share a value (then the one-level search does not
  // use it).
  std::multiset<std::pair<int32_t, uint32_t>> by_room;
  std::vector<int32_t> value_uses;  // Nodes per first level value, by rank
  int32_t shared_values = 0;        // values used by more than one Node
  bool operator==(const TasShapeTotals&) const = default;
};

// What moved on a Node: anything (its labels may have: the exclusions and level values are read
// again), only its room (allocatable or usage: the labels are as they were), or only labels the
// owner called volatile (and maybe its room).
enum class NodeChange : uint8_t { kAny, kRoom, kVolatileLabels };

// A position whose verdict is stale; `labels_kept`: the Node's labels have not moved since the
// verdict was computed (only room changes since), so its exclusion and level values still hold.
struct StalePosition {
  std::size_t position = 0;
  bool labels_kept = false;
};

class TasLeafCache {
 public:
  struct Shape {
    std::vector<uint64_t> computed_at;  // the Node's generation when its verdict was computed
    std::vector<TasNodeVerdict> verdicts;
    std::vector<uint8_t> counted;  // whether verdicts[i] is in `totals` (its Node was found)
    TasShapeTotals totals;
    uint64_t log_seen = 0;  // how far into its flavor's change log this shape has caught up
    bool scanned = false;   // whether every position was looked at once
    uint64_t ranked_at = 0;  // the FlavorValues epoch `totals` are keyed by
    bool reads_volatile_labels = true;  // set by the caller: a selector, affinity or level key is volatile

    // Takes verdicts[i] out of `totals` / puts it in, keyed by position i's rank in `values`
    // (whose epoch must be ranked_at).
    void uncount(std::size_t i, const FlavorValues& values);
    void count(std::size_t i, const FlavorValues& values);
    // Replaces verdicts[i] by `next` and counts it: what uncount(i), the assignment and count(i)
    // give, moving only the Pods that fit when the Node had and keeps room (the usual case: a Pod
    // started or finished there).
    void recount(std::size_t i, TasNodeVerdict next, const FlavorValues& values);
    // recount() for a counted verdict with room that keeps room (`pods` > 0) and all else: only
    // the Pods that fit move.
    void recount_room(std::size_t i, int32_t pods, const FlavorValues& values);
    // Keys `totals` by the ranks of `values`, when they are not already.
    void rekey(const FlavorValues& values);
  };

  void clear();
  // The label keys whose changes the owner reports as NodeChange::kVolatileLabels (none: such a
  // change counts as kAny). Set once, before any change is reported.
  void set_volatile_labels(bool (*is_volatile)(std::string_view key)) { is_volatile_ = is_volatile; }
  // Whether `key` is one of them.
  bool volatile_label(std::string_view key) const { return is_volatile_ != nullptr && is_volatile_(key); }
  // The cache's index of a flavor name, stable for the cache's life (clear() keeps it), so that a
  // caller resolves the name once and passes the index to the calls below (each also takes the
  // name, for callers that look once).
  uint32_t flavor_index(const std::string& flavor);
  void node_changed(uint32_t flavor, std::size_t position, NodeChange what = NodeChange::kAny);
  void node_changed(const std::string& flavor, std::size_t position, NodeChange what = NodeChange::kAny);
  // The generations of a flavor's Nodes, in TasNodeIndex order (`nodes` long).
  const std::vector<uint64_t>& generations(uint32_t flavor, std::size_t nodes);
  const std::vector<uint64_t>& generations(const std::string& flavor, std::size_t nodes);
  // The verdicts of one shape on one flavor (`nodes` long; none computed yet when new). The
  // reference holds until the next shape() call.
  Shape& shape(uint32_t flavor, const std::string& key, std::size_t nodes);
  Shape& shape(const std::string& flavor, const std::string& key, std::size_t nodes);
  // The positions of `shape` whose verdict is stale (computed at another generation), looked for
  // among every position the first time, else among those logged since the shape last caught up.
  // Marks them computed at their current generation: the caller evaluates every one returned
  // (a position whose labels were kept, as far as they decide).
  std::vector<StalePosition> stale_positions(uint32_t flavor, Shape& shape);
  std::vector<StalePosition> stale_positions(const std::string& flavor, Shape& shape);
  // Takes the first level value of each fresh verdict that offers room (`fresh`: positions and
  // their new verdicts) into the flavor's values, ranking again when one moved; returns them.
  const FlavorValues& note_values(uint32_t flavor, const std::vector<std::pair<std::size_t, TasNodeVerdict>>& fresh);
  const FlavorValues& values(const std::string& flavor);

  // The positions of each Node in every flavor's list of `index` (flavor → Node names, in name
  // order, as TasNodeIndex holds them), so that node_changed(node) finds them by hash. Called by
  // the owner whenever the index it passes to the cycle is built again.
  void index_nodes(const std::map<std::string, std::vector<std::string>>& index);
  // Whether index_nodes() was given `index` (the same object) last.
  bool indexes(const std::map<std::string, std::vector<std::string>>& index) const { return indexed_ == &index; }
  // node_changed(flavor, position) for every position of `node` in the last index_nodes() index.
  void node_changed(std::string_view node, NodeChange what = NodeChange::kAny);

  bool verify = false;
  const std::string& mismatch() const { return mismatch_; }
  void note_mismatch(std::string what) {
    if (mismatch_.empty()) mismatch_ = std::move(what);
  }

 private:
  struct FlavorNodes {
    std::vector<uint64_t> generations;
    std::vector<uint64_t> label_generations;  // by position: the generation of its last kAny change
    std::vector<uint64_t> volatile_generations;  // by position: of its last kVolatileLabels change
    std::vector<std::size_t> log;  // positions changed, oldest first
    uint64_t log_base = 0;         // entries trimmed before log[0]
    FlavorValues values;
    FlatStringMap<Shape> shapes;   // by shape key (never walked)
  };

  uint64_t counter_ = 1;  // generation 0 is "never computed"
  bool (*is_volatile_)(std::string_view) = nullptr;
  FlatStringMap<uint32_t> flavor_ids_;  // flavor name → index into flavors_ (never walked)
  std::vector<FlavorNodes> flavors_;    // by flavor index; emptied by clear()
  uint64_t value_epochs_ = 0;  // FlavorValues epochs, unique across flavors and clear()
  // By Node name: (flavor index, position) in the last index_nodes() index.
  FlatStringMap<std::vector<std::pair<uint32_t, uint32_t>>> node_positions_;
  const void* indexed_ = nullptr;
  std::string mismatch_;
};

}  // namespace chaintwin::model
