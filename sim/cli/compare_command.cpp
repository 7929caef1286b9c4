#include "sim/cli/compare_command.h"

#include <fstream>
#include <optional>

#include "sim/results/report.h"
#include "sim/results/report_diff.h"
#include "sim/results/run_file_reader.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace chaintwin::cli {
namespace {

constexpr const char* kCompareHelp = R"help(Usage: chaintwin compare A B [--seed N] [--seed-a N] [--seed-b N] [-o text|json]

Compares two runs. A and B are each
  SCENARIO          a scenario file, simulated to its horizon (with its own seed, or --seed N)
  FILE              a results file written by `chaintwin run --db FILE`: its newest complete run
  FILE#ID           run ID of that results file
For every pool (ClusterQueue × resource: utilization, nominal and reserved mean and peak, time held
and draining), every ClusterQueue and every workload class (arrived, admitted, rejected, pending at
the end, evictions, retries, wait p50 / p95 / p99 and how many waits were censored) it prints the
figure in A, in B and B − A. A wait percentile that fell on a workload never admitted by the end is
censored (">= 18:00:00": at least that); a difference involving one is a bound (">= +01:00:00",
"<= -00:05:00", or "?" when both are censored). Rows only one run has are marked "(only in A)" or
"(only in B)". The last line counts the figures that differ.

  --seed N        the seed of every scenario side (results files keep the seed they ran with)
  --seed-a N      the seed of side A only (a scenario); --seed-b N likewise for B
  -o text|json    the output's format (default text)

Exit codes: 0 compared (whether or not the runs differ), 2 bad input.
)help";

struct CompareOptions {
  std::vector<std::string> sides;
  std::optional<uint64_t> seed, seed_a, seed_b;
  std::string output = "text";
  bool help = false;
};

std::optional<uint64_t> parse_seed(const std::string& v) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 19) return std::nullopt;
  return std::stoull(v);
}

std::string parse(const std::vector<std::string>& args, CompareOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--seed" || a == "--seed-a" || a == "--seed-b") {
      if (!has_value) return a + " needs a value";
      const auto n = parse_seed(args[++i]);
      if (!n) return a + ": '" + args[i] + "' is not a non-negative integer";
      (a == "--seed" ? o.seed : a == "--seed-a" ? o.seed_a : o.seed_b) = n;
    } else if (a == "-o" || a == "--output") {
      if (!has_value || (args[i + 1] != "text" && args[i + 1] != "json")) return "-o takes text or json";
      o.output = args[++i];
    } else if (!a.empty() && a[0] == '-') {
      return "unknown flag '" + a + "'";
    } else {
      o.sides.push_back(a);
    }
  }
  if (o.help) return "";
  if (o.sides.size() != 2)
    return "expected two runs to compare, A and B (got " + std::to_string(o.sides.size()) + ")";
  return "";
}

// A SQLite database file: the 16-byte header "SQLite format 3\0".
bool is_sqlite_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char header[16] = {};
  if (!in.read(header, sizeof header)) return false;
  return std::string(header, sizeof header) == std::string("SQLite format 3\0", 16);
}

// One side: a run read back from a results file, or a scenario simulated now.
model::Result<sim::RunRecord> load_side(const std::string& arg, std::optional<uint64_t> seed) {
  const size_t hash = arg.rfind('#');
  if (hash != std::string::npos) {
    const std::string path = arg.substr(0, hash), id_text = arg.substr(hash + 1);
    const auto id = parse_seed(id_text);
    if (!id || *id == 0 || *id > static_cast<uint64_t>(INT64_MAX))
      return model::err("'" + id_text + "' is not a run id (expected FILE#ID with ID a positive integer)");
    if (!is_sqlite_file(path))
      return model::err(path + ": not a results file (FILE#ID names a run of a `chaintwin run --db` file)");
    auto run = sim::read_run_file(path, static_cast<int64_t>(*id));
    if (!run.ok()) return model::err(run.error());
    return std::move(run.value().record);
  }
  if (is_sqlite_file(arg)) {
    auto run = sim::read_run_file(arg, std::nullopt);
    if (!run.ok()) return model::err(run.error());
    return std::move(run.value().record);
  }
  auto scenario = sim::load_scenario(arg);
  if (!scenario.ok()) return model::err(scenario.error());
  sim::RunOptions options;
  options.seed = seed;
  options.keep_events = false;
  options.version = CHAINTWIN_VERSION;
  sim::Simulation simulation(std::move(scenario.value()), options);
  return simulation.run();
}

}  // namespace

int compare_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CompareOptions o;
  if (const std::string e = parse(args, o); !e.empty()) {
    err << "chaintwin compare: " << e << "\n(see chaintwin compare --help)\n";
    return 2;
  }
  if (o.help) {
    out << kCompareHelp;
    return 0;
  }
  std::vector<sim::Report> reports;
  const char* names[] = {"A", "B"};
  for (size_t i = 0; i < 2; ++i) {
    const std::optional<uint64_t> seed = (i == 0 ? o.seed_a : o.seed_b) ? (i == 0 ? o.seed_a : o.seed_b) : o.seed;
    auto record = load_side(o.sides[i], seed);
    if (!record.ok()) {
      err << "chaintwin compare: " << names[i] << " (" << o.sides[i] << "): " << record.error() << "\n";
      return 2;
    }
    reports.push_back(sim::build_report(*record));
  }
  const sim::ReportDiff diff = sim::diff_reports(reports[0], reports[1]);
  if (o.output == "json") out << sim::report_diff_json(diff).dump(2) << "\n";
  else out << sim::report_diff_text(diff);
  return 0;
}

}  // namespace chaintwin::cli
