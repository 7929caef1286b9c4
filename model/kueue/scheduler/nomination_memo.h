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
// A plain value, deterministic; used by schedule_cycle and kept by the simulator between cycles.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace chaintwin::model {

class NominationMemo {
 public:
  void invalidate_all();
  void invalidate_cluster_queue(const std::string& cluster_queue);
  void invalidate_flavor(const std::string& flavor);

  // The remembered not-fit message of `workload` in `cluster_queue`, if still valid.
  std::optional<std::string> failure(const std::string& workload, const std::string& cluster_queue) const;
  // failure() without the copy: the remembered message, or null (valid until the memo changes).
  const std::string* failure_message(const std::string& workload, const std::string& cluster_queue) const;
  // `tas_flavors`: every TAS flavor whose Nodes the search read before it failed.
  void remember_failure(const std::string& workload, const std::string& cluster_queue, std::string message,
                        const std::vector<std::string>& tas_flavors);
  void forget(const std::string& workload);
  std::size_t size() const { return entries_.size(); }

  bool verify = false;
  const std::string& mismatch() const { return mismatch_; }
  void note_mismatch(std::string what) {
    if (mismatch_.empty()) mismatch_ = std::move(what);
  }

 private:
  struct Entry {
    std::string cluster_queue;
    std::string message;
    uint64_t queue_generation = 0;
    std::vector<std::pair<std::string, uint64_t>> flavors;  // (flavor, generation) when remembered
  };
  uint64_t generation(const std::map<std::string, uint64_t>& of, const std::string& name) const;

  uint64_t counter_ = 0;  // one clock for every generation below
  std::map<std::string, uint64_t> queue_generation_;
  std::map<std::string, uint64_t> flavor_generation_;
  std::map<std::string, Entry> entries_;  // by Workload key
  std::string mismatch_;
};

}  // namespace chaintwin::model
