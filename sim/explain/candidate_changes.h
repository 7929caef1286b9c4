// The changes that might admit a waiting Workload, smallest first, each as the timeline actions that
// make it (so that a user can paste it into the scenario): a setting back to the operator's default
// (the fit pin that ends a retry livelock), the Namespace its LocalQueue needs, an idle card's MIG
// layout flipped, the release of named Workloads (the fewest quota holders that free what it is
// short of; the occupants of the Nodes it could use, a few at a time), one more Node of a template
// its flavors select. Which of them really admits it is for the simulation to say (admit_check.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/explain/explanation.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

struct Change {
  std::string kind;     // "setting", "namespace", "mig-layout", "release", "add-node", "all of these"
  std::string summary;  // in words: "release team-a/chat-3, team-a/chat-7 (they hold 2 cards of the quota)"
  std::vector<TimelineAction> actions;
  // Not a change of the cluster but of the Workload: its generator submits in this Namespace
  // instead, from the start of the run (a Namespace the operator gives no LocalQueue).
  std::string move_to_namespace;
  int64_t cost = 0;  // the order tried: settings and idle cards first, then releases by count, nodes last
};

// The candidates for one explained Workload (waiting, else none), cheapest first. `cluster`: the
// state at the instant (for the current settings and who holds what).
std::vector<Change> candidate_changes(const Scenario& scenario, const model::ClusterState& cluster,
                                      const model::Explanation& ex);

// A Change's actions as timeline entries at `at`, in the scenario format ("- {at: 6h, action: …}").
std::string change_as_timeline(const Change& change, SimTime at);

}  // namespace chaintwin::sim
