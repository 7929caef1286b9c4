// PoolSampler: the pool series of a run (RunRecord::pool_series) — per ClusterQueue and per pool
// resource (cpu, credits.gpustack.ai/<manufacturer>), the nominal quota, what is reserved and
// admitted, the Workload counts and the stop policy, written whenever one of them changes.
//
// The runner calls sample() after every Kueue status report, at the start and at the end. A
// ClusterQueue whose spec quotas, reported status and stop policy are what they were at its last
// sample is not looked at again: every sample it would give is the one already written. At the end
// every pool is written, changed or not, so each series closes at the horizon. A pool whose quota
// leaves its queue (drained to an empty plan) goes on sampling at zero nominal with the queue's stop
// policy until the quota returns.
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "model/cluster_state.h"
#include "sim/results/run_record.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

class PoolSampler {
 public:
  // Appends to `series` the samples of every pool that changed since its last sample (all of
  // them when `at_end`).
  void sample(const model::ClusterState& cluster, SimTime now, bool at_end, std::deque<PoolSample>& series);

 private:
  // What a ClusterQueue's samples are made of, as they were at its last sample, and the last
  // sample written of each of its pools.
  struct Inputs {
    std::vector<model::ResourceGroup> groups;
    std::vector<model::FlavorUsage> reservation, usage;
    int32_t pending = 0, reserving = 0, admitted = 0;
    model::StopPolicy stop_policy = model::StopPolicy::kNone;
    std::map<std::string, PoolSample, std::less<>> last_sample;  // by pool resource
  };
  // One resource's sums over a ClusterQueue's flavors (the quota, the status' two lists).
  struct Sums {
    const std::string* resource = nullptr;
    int64_t nominal = 0, reserved = 0, admitted = 0;
  };
  static bool same_inputs(const Inputs& kept, const model::ClusterQueue& cq);
  // `cq`'s resources with a nominal quota, in name order, with their sums, into sums_.
  void sum(const model::ClusterQueue& cq);

  std::map<std::string, Inputs, std::less<>> inputs_;  // by ClusterQueue
  std::vector<Sums> sums_;  // sum()'s answer; kept for its storage
};

}  // namespace chaintwin::sim
