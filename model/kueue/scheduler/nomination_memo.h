// NominationMemo: what schedule_cycle remembers of heads that did not fit, so a Workload that
// comes back to the head of its ClusterQueue with nothing it depends on changed gets the same
// verdict without the flavor and topology search being run again.
//
// Kueue itself re-runs that search every time (pkg/scheduler: nominate per head per cycle). The
// verdict is a pure function of the Workload, its ClusterQueue's spec and reserved quota, and,
// for every TAS flavor the search looked at, that flavor's Nodes (labels, allocatable,
// schedulability) and their TAS usage. A remembered failure therefore stays valid exactly while
// none of those moved; the owner says when they move:
//   - invalidate_cluster_queue: the queue's reserved quota or spec changed;
//   - invalidate_flavor: a Node of that TAS flavor, or its TAS usage, changed;
//   - invalidate_all: anything else Kueue reads changed (flavors, Topologies, queues, membership).
// An owner that cannot tell what changed calls invalidate_all: the memo then only costs a lookup.
// With `verify` on, schedule_cycle runs the search anyway on every remembered verdict and records
// the first disagreement in mismatch() (the simulator's --verify).
//
// Verdicts are kept by the Workload's WorkloadRef (queue_manager.h), ClusterQueues and flavors by a
// dense index of the memo's own: asking about a head is array reads, no lookup by name.
//
// Heads of one shape share a verdict. Where nominate reads nothing of a head but its PodSets and
// priority (the scheduler decides where: shares_verdicts, scheduler.cpp), and a not-fit message
// names no Workload, heads equal in those two (a "shape", interned per Workload the first time it
// is asked about) get the same verdict against the same state: a failure remembered for one answers
// the others while its generations hold, and is then copied to the asking head's own entry. The
// scheduler passes the Workload only where it qualifies; --verify checks shared answers as any other.
//
// A plain value, deterministic; used by schedule_cycle and kept by the simulator between cycles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/flat_string_index.h"
#include "model/kueue/scheduler/workload_ref.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

class NominationMemo {
 public:
  using QueueIndex = uint32_t;

  void invalidate_all();
  void invalidate_cluster_queue(const std::string& cluster_queue);
  void invalidate_flavor(const std::string& flavor);
  // The memo's index of a flavor name, stable for the memo's life, so that a caller invalidating
  // one flavor often (a Node of it changed) resolves the name once.
  uint32_t flavor_index(const std::string& flavor) { return flavors_.intern(flavor); }
  void invalidate_flavor(uint32_t flavor_index) { flavors_.of[flavor_index] = ++counter_; }

  // The memo's index of a ClusterQueue it has seen (null: nothing was ever remembered in it), so a
  // caller asking about many heads of one queue resolves the name once.
  std::optional<QueueIndex> queue_index(const std::string& cluster_queue) const;
  // The remembered not-fit message of `workload` in `cluster_queue`, if still valid.
  std::optional<std::string> failure(WorkloadRef workload, const std::string& cluster_queue) const;
  // failure() without the copy: the remembered message, or null (valid until the memo changes).
  const std::string* failure_message(WorkloadRef workload, QueueIndex cluster_queue) const;
  // failure(), or when `shareable` is given (the head itself, where it qualifies) the failure
  // remembered for a head of the same shape in that queue, copied to this head.
  std::optional<std::string> failure(WorkloadRef workload, const std::string& cluster_queue, const Workload* shareable);
  // `tas_flavors`: every TAS flavor whose Nodes the search read before it failed. `shareable` as
  // above: the failure is remembered for the head's shape too.
  void remember_failure(WorkloadRef workload, const std::string& cluster_queue, std::string message,
                        const std::vector<std::string>& tas_flavors, const Workload* shareable = nullptr);
  void forget(WorkloadRef workload);
  std::size_t size() const { return remembered_; }

  bool verify = false;
  const std::string& mismatch() const { return mismatch_; }
  void note_mismatch(std::string what) {
    if (mismatch_.empty()) mismatch_ = std::move(what);
  }

 private:
  // A name's dense index, and the generation of each index (bumped by every invalidation).
  struct Generations {
    FlatStringMap<uint32_t> index;  // name → index into `of` (never walked)
    std::vector<uint64_t> of;
    uint32_t intern(const std::string& name);
  };
  struct Entry {
    bool valid = false;
    uint32_t incarnation = 0;
    QueueIndex cluster_queue = 0;
    uint64_t queue_generation = 0;
    std::string message;
    std::vector<std::pair<uint32_t, uint64_t>> flavors;  // (flavor index, generation) when remembered
  };

  // PodSets and priority: what a head of a never-preempting queue is asked about.
  struct Shape {
    int32_t priority = 0;
    std::vector<PodSet> pod_sets;
  };
  bool holds(const Entry& e, QueueIndex cluster_queue) const;
  uint32_t shape_of(WorkloadRef workload, const Workload& wl);
  void fill(Entry& e, QueueIndex cluster_queue, std::string message, const std::vector<std::string>& tas_flavors);

  uint64_t counter_ = 0;  // one clock for every generation below
  Generations queues_, flavors_;
  std::vector<Entry> entries_;  // by WorkloadSlot
  std::vector<Shape> shapes_;   // by shape index; never dropped (a shape is a value)
  std::unordered_map<uint64_t, std::vector<uint32_t>> shapes_by_hash_;
  std::vector<std::pair<uint32_t, uint32_t>> slot_shape_;  // by WorkloadSlot: (incarnation, shape + 1)
  std::vector<std::vector<Entry>> shape_entries_;          // by shape index: one per ClusterQueue
  std::size_t remembered_ = 0;
  std::string mismatch_;
};

}  // namespace chaintwin::model
