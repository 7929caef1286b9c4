// A Workload's path through the gates, read back from the event log: each visit to a gate with
// when it began and ended and how it ended (passed, Retry, evicted, refused), the time spent at
// each gate in all, how often Kueue's reason for keeping it changed, and its admission-check Retry
// verdicts per Node (the stuff of a retry livelock). Works on the events of a run in memory or of a
// run file, so `explain --db` tells the same story as `explain SCENARIO`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/explain/explanation.h"
#include "sim/results/run_record.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

struct GateVisit {
  model::Gate gate = model::Gate::kGate2;
  bool running = false;  // not a gate: admitted with every Pod started, until it ends
  SimTime from;
  std::optional<SimTime> to;  // open while it is there now
  std::string outcome;        // "passed", "Retry: …", "Evicted: …", "refused: …", "finished"
  std::string last_reason;    // the last reason logged while it was there
};

struct GatePath {
  std::optional<SimTime> arrived;
  bool rejected = false;
  std::vector<GateVisit> visits;
  std::map<model::Gate, SimTime> time_at;  // Σ of the visits up to `now`
  SimTime running_for;                     // Σ of the running spans up to `now`
  int64_t reason_changes = 0;              // Pending lines (each logged when Kueue's message changed)
  // The same lines by kind of reason: "quota" (insufficient unused quota), "topology" (TAS),
  // "preemption" (pending the preemption of others), "queue" (LocalQueue/ClusterQueue), "other".
  std::map<std::string, int64_t> reasons;
  int64_t retries = 0;                     // gpustack-node-devices Retry verdicts
  std::map<std::string, int64_t> retries_by_node;  // the Node each Retry message names
  int64_t evictions = 0;
};

// The path of `workload_key` in `events` (time order) up to `now`. `pods_wanted`: how many Pods
// its admission starts (a Gate 4–5 visit ends when that many are running).
GatePath gate_path(const std::vector<EventRecord>& events, const std::string& workload_key, SimTime now,
                   int32_t pods_wanted);

// The open visit relabelled with the gate the state holds the Workload at, when the log did not say
// it (Kueue's Inadmissible reason for a missing LocalQueue is not logged as a Pending line), and
// the totals counted again.
void settle_open_visit(GatePath& path, const model::WaitingPlace& place, SimTime now);

// The Node a Gate 3 message names ("… on node h100-0; …"), "" when none.
std::string node_in_message(const std::string& message);

}  // namespace chaintwin::sim
