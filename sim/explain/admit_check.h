// Whether a change admits a Workload, decided by simulation: the scenario runs again from its
// start with the change applied at the instant asked about (a run is deterministic, so up to that
// instant it is the run being explained), and on to a window's end; a watched Workload counts as
// admitted when it has passed all five gates — Admitted with every Pod running — at or after the
// instant (a job short enough to finish inside the window counts once it ran). The run logs
// nothing: after each event the watched Workloads and their Pods are looked up by key.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

struct AdmitWatch {
  std::string workload;               // "<namespace>/<name>"
  std::vector<std::string> pod_keys;  // "<namespace>/<workload>-<podset>-<i>": every Pod its admission creates
};

struct CheckRun {
  std::map<std::string, std::optional<SimTime>> passed;  // per watched Workload: when, or never
  std::string error;                                     // the run could not be made (a refusal)
};

// `actions` are applied at `from` (their `at` is set to it), after the scenario's own actions at
// that instant. The horizon is stretched to `until` when it ends earlier. Stops as soon as every
// watched Workload passed.
CheckRun run_with_change(Scenario scenario, std::optional<uint64_t> seed, SimTime from, SimTime until,
                         std::vector<TimelineAction> actions, const std::vector<AdmitWatch>& watch);

}  // namespace chaintwin::sim
