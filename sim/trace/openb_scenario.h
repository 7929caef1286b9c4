// Writes an imported openb trace (sim/trace/openb_trace.h) as a scenario file: a header comment
// with the counts (nodes and GPUs per model, pods by kind, never-scheduled pods and what was done
// with them), the Scenario with its horizon, and one `trace:` entry that references the two CSVs and
// spells out every mapping decision (the GPU model table, the default pool, unscheduled handling,
// the limit) so the loader re-imports exactly this. Called by `chaintwin import openb`
// (sim/cli/import_command.h); docs/traces.md describes the output.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/sim_time.h"
#include "sim/trace/openb_trace.h"

namespace chaintwin::sim {

struct OpenbScenarioRequest {
  std::string nodes_path;  // as the scenario names the CSVs (relative to the scenario file)
  std::string pods_path;
  std::string name;         // metadata.name
  std::string description;  // metadata.description ("" → a generated one)
  std::optional<SimTime> horizon;  // nullopt → openb_default_horizon
  OpenbTraceOptions options;       // as used for the import (limit, unscheduled, defaultModel)
  std::vector<std::string> regenerate;  // the import options ("--pods 'a.csv'") that regenerate the file
};

// The horizon when none is given: one day past the last finish of an imported pod (for a pod list
// without times, where pods never finish: one day past the last arrival), rounded up to whole days.
SimTime openb_default_horizon(const TraceData& data);

// The scenario text for `data` imported under `request.options`.
std::string openb_scenario_yaml(const OpenbScenarioRequest& request, const TraceData& data);

// "12,345": an integer with thousands separators, for the header.
std::string with_thousands(int64_t value);

}  // namespace chaintwin::sim
