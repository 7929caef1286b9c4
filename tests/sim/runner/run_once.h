// One simulator run of a checked-in scenario, reduced to what the runner tests compare: the event
// log, the JSON report, the event count and how many Kueue cycles were batched. Shared by the
// determinism and idle-cycle tests.
#pragma once

#include <optional>
#include <string>

#include <catch2/catch.hpp>

#include "sim/results/event_log.h"
#include "sim/results/report.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace chaintwin::sim::testing {

struct RunOutput {
  std::string log;
  std::string report;
  int64_t events = 0;   // RunInfo::events: every event handled, batched cycles included
  int64_t batched = 0;  // Simulation::batched_cycles()
  int64_t log_lines = 0;  // lines of the event log
};

// `relative`: a scenario path under the source tree. `options` as given (seed, until, batching).
inline RunOutput run_once(const std::string& relative, RunOptions options) {
  auto scenario = load_scenario(std::string(CHAINTWIN_SOURCE_DIR) + "/" + relative);
  REQUIRE(scenario.ok());
  Simulation simulation(std::move(*scenario), std::move(options));
  auto record = simulation.run();
  REQUIRE(record.ok());
  return {format_event_log(record->events), report_json(build_report(*record)).dump(), record->info.events,
          simulation.batched_cycles(), static_cast<int64_t>(record->events.size())};
}

}  // namespace chaintwin::sim::testing
