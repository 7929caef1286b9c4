#include "sim/cli/run_command.h"

#include <fstream>
#include <iostream>
#include <optional>
#include <set>

#include "sim/results/event_log.h"
#include "sim/results/progress.h"
#include "sim/results/report.h"
#include "sim/results/sqlite_store.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace chaintwin::cli {

int run_command(const RunCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto scenario = sim::load_scenario_or_default(o.scenario);
  if (!scenario.ok()) {
    err << "chaintwin run: " << scenario.error() << "\n";
    return 2;
  }
  std::optional<sim::EventLogWriter> events;
  if (!o.events.empty()) {
    auto w = sim::EventLogWriter::open(o.events);
    if (!w.ok()) {
      err << "chaintwin run: " << w.error() << "\n";
      return 2;
    }
    events.emplace(std::move(w.value()));
  }
  std::optional<sim::ResultsStore> store;
  if (!o.db.empty()) {
    auto s = sim::ResultsStore::create(o.db);
    if (!s.ok()) {
      err << "chaintwin run: " << s.error() << "\n";
      return 2;
    }
    store.emplace(std::move(s.value()));
  }
  sim::RunOptions options;
  options.seed = o.seed;
  options.until = o.until;
  // The run never goes past the horizon: a later --until is said to be clamped, not ignored silently.
  if (o.until && scenario->horizon < *o.until)
    err << "chaintwin run: --until " << o.until->to_string() << " is past the scenario's horizon "
        << scenario->horizon.to_string() << ": the run stops at the horizon\n";
  options.verify_incremental = o.verify;
  options.version = CHAINTWIN_VERSION;
  // Events go to --events and --db as they happen (on_event below); the report does not read them,
  // so the record need not hold them (ten million events for a million-Workload run).
  options.keep_events = false;
  options.keep_final_objects = store.has_value();  // only --db's final_objects table reads them
  std::string write_error;
  if (events || store) {
    options.on_event = [&](const sim::EventRecord& e) {
      if (!write_error.empty()) return;
      if (events) {
        if (auto s = events->write(e); !s.ok()) write_error = s.error();
      }
      if (store) {
        if (auto s = store->append(e); !s.ok()) write_error = s.error();
      }
    };
  }
  sim::ProgressBar progress(o.until ? std::min(*o.until, scenario->horizon) : scenario->horizon);
  int64_t processed = 0;
  options.on_progress = [&](sim::SimTime now, sim::SimTime) { progress.update(now, ++processed); };
  sim::Simulation simulation(std::move(scenario.value()), options);
  if (store) {
    if (auto s = store->begin_run(simulation.record().info); !s.ok()) {
      err << "chaintwin run: " << s.error() << "\n";
      return 2;
    }
  }
  auto record = simulation.run();
  progress.finish(simulation.now(), processed);
  if (!record.ok()) {
    err << "chaintwin run: " << record.error() << "\n";
    return 2;
  }
  if (events) (void)events->flush();
  if (store) {
    if (auto s = store->finish(*record); !s.ok()) write_error = s.error();
  }
  if (!write_error.empty()) {
    err << "chaintwin run: " << write_error << "\n";
    return 2;
  }
  const sim::Report report = sim::build_report(*record);
  if (o.output == "json") {
    auto j = sim::report_json(report);
    nlohmann::ordered_json failures = nlohmann::ordered_json::array();
    for (const auto& f : simulation.failures()) failures.push_back(f.str());
    j["expectation_failures"] = failures;
    out << j.dump(2) << "\n";
  } else {
    out << sim::report_text(report);
    if (!simulation.failures().empty()) {
      out << "\nExpectations that failed:\n";
      for (const auto& f : simulation.failures()) out << "  " << f.str() << "\n";
    }
  }
  return simulation.failures().empty() ? 0 : 1;
}

int check_command(const CheckCommandOptions& o, std::ostream& out, std::ostream& err) {
  // Load every file first: bad input stops before anything runs.
  std::vector<sim::Scenario> scenarios;
  for (const auto& file : o.scenarios) {
    auto s = sim::load_scenario(file);
    if (!s.ok()) {
      err << "chaintwin check: " << s.error() << "\n";
      return 2;
    }
    scenarios.push_back(std::move(s.value()));
  }
  int64_t passed = 0, failed = 0;
  for (auto& scenario : scenarios) {
    const std::string file = scenario.file;
    const size_t expectations = scenario.expectations.size();
    sim::RunOptions options;
    options.version = CHAINTWIN_VERSION;
    options.keep_events = false;
    options.keep_final_objects = false;
    options.verify_incremental = o.verify;
    sim::Simulation simulation(std::move(scenario), options);
    auto record = simulation.run();
    if (!record.ok()) {
      err << "chaintwin check: " << file << ": " << record.error() << "\n";
      return 2;
    }
    std::set<std::string> failing;
    for (const auto& f : simulation.failures()) {
      out << f.str() << "\n";
      failing.insert(f.where.str());
    }
    failed += static_cast<int64_t>(failing.size());
    passed += static_cast<int64_t>(expectations) - static_cast<int64_t>(failing.size());
  }
  out << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace chaintwin::cli
