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
// the first time, or when the log was trimmed past it). clear() drops everything (the index, a
// flavor or a Topology changed). With `verify` on, assign_topology also searches without the cache
// and records the first disagreement in mismatch() (the simulator's --verify).
//
// Kept by the simulator between cycles and passed to schedule_cycle (KeptCycleState), which uses it
// only against the kept usage snapshot. A plain value, deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

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

// Sums over the counted verdicts of one shape.
struct TasShapeTotals {
  TasExclusions excluded;
  int64_t pods = 0;  // Pods that fit, over every Node
  // The Nodes with room for a Pod as (-pods, first level value): most room first, ties by value.
  // A multiset: two Nodes may share a value (then the one-level search does not use it).
  std::multiset<std::pair<int32_t, std::string>> by_room;
  std::map<std::string, int32_t> value_uses;  // Nodes per first level value
  int32_t shared_values = 0;                  // values used by more than one Node
  bool operator==(const TasShapeTotals&) const = default;
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

    // Takes verdicts[i] out of `totals` / puts it in.
    void uncount(std::size_t i);
    void count(std::size_t i);
    // Replaces verdicts[i] by `next` and counts it: what uncount(i), the assignment and count(i)
    // give, moving only the Pods that fit when the Node keeps room and its first level value
    // (the usual case: a Pod started or finished there).
    void recount(std::size_t i, TasNodeVerdict next);
  };

  void clear();
  void node_changed(const std::string& flavor, std::size_t position);
  // The cache's index of a flavor name, stable for the cache's life (clear() keeps it), so that a
  // caller noting changes on one flavor often resolves the name once.
  uint32_t flavor_index(const std::string& flavor);
  void node_changed(uint32_t flavor_index, std::size_t position);
  // The generations of a flavor's Nodes, in TasNodeIndex order (`nodes` long).
  const std::vector<uint64_t>& generations(const std::string& flavor, std::size_t nodes);
  // The verdicts of one shape on one flavor (`nodes` long; none computed yet when new).
  Shape& shape(const std::string& flavor, const std::string& key, std::size_t nodes);
  // The positions of `shape` whose verdict is stale (computed at another generation), looked for
  // among every position the first time, else among those logged since the shape last caught up.
  // Marks them computed at their current generation: the caller evaluates every one returned.
  std::vector<std::size_t> stale_positions(const std::string& flavor, Shape& shape);

  bool verify = false;
  const std::string& mismatch() const { return mismatch_; }
  void note_mismatch(std::string what) {
    if (mismatch_.empty()) mismatch_ = std::move(what);
  }

 private:
  struct FlavorNodes {
    std::vector<uint64_t> generations;
    std::vector<std::size_t> log;  // positions changed, oldest first
    uint64_t log_base = 0;         // entries trimmed before log[0]
  };

  uint64_t counter_ = 1;  // generation 0 is "never computed"
  std::map<std::string, uint32_t> flavor_ids_;  // flavor name → index into flavors_
  std::vector<FlavorNodes> flavors_;            // by flavor index; emptied by clear()
  std::map<std::pair<std::string, std::string>, Shape> shapes_;
  std::string mismatch_;
};

}  // namespace chaintwin::model
