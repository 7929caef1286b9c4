// Running the Kueue cycles that can only park remembered heads in a batch (RunOptions::
// batch_idle_cycles, model::run_idle_cycles) changes nothing a run shows: the same event log, the
// same report, the same event count as one event per cycle. Checked on the default scenario (which
// must batch: its CPU pods wait on a full first flavor) and on every regression scenario.
#include <filesystem>
#include <optional>
#include <string>
#include <algorithm>
#include <vector>

#include <catch2/catch.hpp>

#include "run_once.h"

namespace sim = chaintwin::sim;
using Output = chaintwin::sim::testing::RunOutput;

namespace {

Output run_once(const std::string& relative, std::optional<sim::SimTime> until, bool batch) {
  sim::RunOptions options;
  options.until = until;
  options.batch_idle_cycles = batch;
  return sim::testing::run_once(relative, options);
}

}  // namespace

TEST_CASE("batching idle Kueue cycles gives the same run as one event per cycle", "[runner][idle-cycles]") {
  std::vector<std::pair<std::string, std::optional<sim::SimTime>>> rows = {{"scenarios/default.yaml", sim::SimTime::hours(6)}};
  for (const auto& entry : std::filesystem::directory_iterator(std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/regression"))
    if (entry.path().extension() == ".yaml") rows.emplace_back("scenarios/regression/" + entry.path().filename().string(), std::nullopt);
  std::sort(rows.begin(), rows.end());
  REQUIRE(rows.size() > 20);
  int64_t default_batched = 0;
  for (const auto& [file, until] : rows) {
    INFO(file);
    const Output batched = run_once(file, until, true);
    const Output one_by_one = run_once(file, until, false);
    if (file == "scenarios/default.yaml") default_batched = batched.batched;
    CHECK(one_by_one.batched == 0);
    CHECK(batched.events == one_by_one.events);
    CHECK(batched.log == one_by_one.log);
    CHECK(batched.report == one_by_one.report);
  }
  CHECK(default_batched > 0);
}
