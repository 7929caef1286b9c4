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

// A run id: decimal digits only (up to 19, so it fits an int64).
std::optional<uint64_t> parse_id(const std::string& v) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 19) return std::nullopt;
  return std::stoull(v);
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
    const auto id = parse_id(id_text);
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
  options.keep_final_objects = false;
  options.version = CHAINTWIN_VERSION;
  sim::Simulation simulation(std::move(scenario.value()), options);
  return simulation.run();
}

}  // namespace

int compare_command(const CompareCommandOptions& o, std::ostream& out, std::ostream& err) {
  std::vector<sim::Report> reports;
  const char* names[] = {"A", "B"};
  const std::string sides[] = {o.a, o.b};
  for (size_t i = 0; i < 2; ++i) {
    const std::optional<uint64_t> seed = (i == 0 ? o.seed_a : o.seed_b) ? (i == 0 ? o.seed_a : o.seed_b) : o.seed;
    auto record = load_side(sides[i], seed);
    if (!record.ok()) {
      err << "chaintwin compare: " << names[i] << " (" << sides[i] << "): " << record.error() << "\n";
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
