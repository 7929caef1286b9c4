#include "sim/cli/run_command.h"

#include <fstream>
#include <iostream>
#include <optional>
#include <set>

#include "sim/results/event_log.h"
#include "sim/results/progress.h"
#include "sim/results/sqlite_store.h"
#include "sim/results/report.h"
#include "sim/results/sqlite_store.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace chaintwin::cli {
namespace {

constexpr const char* kRunHelp = R"(Usage: chaintwin run [SCENARIO] [--seed N] [--until T] [--db FILE] [--events FILE] [-o text|json]

Simulates SCENARIO (a chaintwin/v1 scenario file, YAML or JSON; without one, the embedded default
scenario scenarios/default.yaml) over simulated time through the operator's chain and Kueue, then
prints a report per pool (ClusterQueue) and per workload class.

  --seed N        override the scenario's seed (all randomness derives from it)
  --until T       stop at simulated time T (e.g. 6h) instead of the scenario's horizon
  --db FILE       write the results to the SQLite file FILE (runs, events, workloads, pool series,
                  final objects; see docs/results.md)
  --events FILE   write the event log to FILE ('-' for stdout), simulated time first on every line
  -o text|json    the report's format (default text)
  --verify        after every event the simulator handled incrementally, run the operator's whole
                  fixpoint on a copy and stop with an error if it would write anything but
                  InstanceType statuses (slow: for checking the fast paths on a scenario)

Exit codes: 0 the run finished and its expectations held, 1 an expectation failed, 2 bad input.
)";

constexpr const char* kCheckHelp = R"(Usage: chaintwin check [--verify] SCENARIO...

Simulates each scenario and evaluates its `expect:` blocks. Prints every failure with the scenario,
the time, the object and want/got, then `N passed, M failed` (expectations). Exit codes: 0 all held,
1 any failed, 2 bad input.
)";

struct RunOptionsCli {
  std::string scenario;
  std::optional<uint64_t> seed;
  std::optional<sim::SimTime> until;
  std::string db, events, output = "text";
  bool help = false;
  bool verify = false;
};

std::string parse(const std::vector<std::string>& args, RunOptionsCli& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      (void)flag;
      return args[++i];
    };
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--seed") {
      auto v = value("--seed");
      if (!v) return "--seed needs a value";
      try {
        size_t used = 0;
        const unsigned long long n = std::stoull(*v, &used);
        if (used != v->size() || (*v)[0] == '-') throw std::invalid_argument("x");
        o.seed = n;
      } catch (...) {
        return "--seed: '" + *v + "' is not a non-negative integer";
      }
    } else if (a == "--until") {
      auto v = value("--until");
      if (!v) return "--until needs a duration (e.g. 6h)";
      auto t = sim::SimTime::parse(*v);
      if (!t.ok()) return "--until: " + t.error();
      o.until = *t;
    } else if (a == "--verify") {
      o.verify = true;
    } else if (a == "--db") {
      auto v = value("--db");
      if (!v) return "--db needs a file";
      o.db = *v;
    } else if (a == "--events") {
      auto v = value("--events");
      if (!v) return "--events needs a file (or -)";
      o.events = *v;
    } else if (a == "-o" || a == "--output") {
      auto v = value("-o");
      if (!v || (*v != "text" && *v != "json")) return "-o takes text or json";
      o.output = *v;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return "unknown flag '" + a + "'";
    } else if (o.scenario.empty()) {
      o.scenario = a;
    } else {
      return "one SCENARIO at a time (got '" + o.scenario + "' and '" + a + "')";
    }
  }
  return "";
}


}  // namespace

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  RunOptionsCli o;
  if (const std::string e = parse(args, o); !e.empty()) {
    err << "chaintwin run: " << e << "\n(see chaintwin run --help)\n";
    return 2;
  }
  if (o.help) {
    out << kRunHelp;
    return 0;
  }
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
  options.verify_incremental = o.verify;
  options.version = CHAINTWIN_VERSION;
  // Events go to --events and --db as they happen (on_event below); the report does not read them,
  // so the record need not hold them (ten million events for a million-Workload run).
  options.keep_events = false;
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

int check_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << "chaintwin check: no SCENARIO given\n(see chaintwin check --help)\n";
    return 2;
  }
  if (args[0] == "-h" || args[0] == "--help") {
    out << kCheckHelp;
    return 0;
  }
  // Load every file first: bad input stops before anything runs.
  std::vector<sim::Scenario> scenarios;
  bool verify = false;
  for (const auto& file : args) {
    if (file == "--verify") {
      verify = true;
      continue;
    }
    if (!file.empty() && file[0] == '-') {
      err << "chaintwin check: unknown flag '" << file << "'\n";
      return 2;
    }
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
    options.verify_incremental = verify;
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
