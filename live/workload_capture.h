// `chaintwin snapshot`'s Workloads in flight: Kueue's Workloads (not Finished) turned into the
// scenario's workload generators, so `chaintwin run` starts with the queues the cluster has. One
// generator per Workload, named after it (namespace-qualified when two namespaces share a name),
// with its namespace, priority, required topology level and PodSets (count, containers and init
// containers with their requests), on the InstanceType whose ClusterQueue its LocalQueue feeds
// (the admitted ClusterQueue when quota is reserved). Arrivals are 1 ms apart from 0s: first the
// Workloads holding quota, then the pending ones, each in creation order (then by key), so the
// simulated Kueue admits them again in that order. A Workload whose queue leads to no InstanceType
// is left out and named with the reason.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/cluster_state.h"
#include "model/workload/workload.h"

namespace chaintwin::live {

struct CapturedWorkloads {
  nlohmann::ordered_json generators = nlohmann::ordered_json::array();  // the scenario's `workloads:`
  int64_t holding = 0;                // of them, holding quota when read
  int64_t pending = 0;                // of them, waiting for quota
  std::vector<std::string> left_out;  // "<namespace>/<name>: why"
};

// `run_time` is each generator's fixed duration (a scenario duration such as "24h").
CapturedWorkloads capture_workloads(const model::ClusterState& state, const model::WorkloadState& workloads,
                                    const std::string& run_time);

}  // namespace chaintwin::live
