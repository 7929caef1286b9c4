// Checks one expectation of a scenario (`expect:` entries) against the simulated cluster and the
// workload counters at its time, returning every difference. Called by the runner at each
// expectation's time and by `chaintwin check`, which prints the failures and exits 1.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/cluster_state.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

struct ExpectationFailure {
  SourceRef where;     // the expectation in the scenario file
  std::string at;      // "1h", or "end"
  std::string object;  // "ClusterQueue/x", "Node/y", "InstanceType/z", "Workloads", "Workloads/chat"
  std::string field;   // "stopPolicy", "capacity[nvidia.com/gpu]", "status.acceleratorShared", "admitted"
  std::string want;
  std::string got;
  // "scenario.yaml:41: at 1h: ClusterQueue/x: stopPolicy: want None, got Hold"
  std::string str() const;
};

// The counter a workloads check names ("admitted", ...); nullopt for an unknown name.
std::optional<int64_t> counter_value(const WorkloadCounters& counters, const std::string& name);

// Every check of `e` that does not hold; empty when it holds. A missing object is one failure
// ("exists: want yes, got no"). `by_generator` holds the counters of each workload generator.
std::vector<ExpectationFailure> check_expectation(const Expectation& e, const model::ClusterState& state,
                                                  const WorkloadCounters& total,
                                                  const std::map<std::string, WorkloadCounters>& by_generator);

}  // namespace chaintwin::sim
