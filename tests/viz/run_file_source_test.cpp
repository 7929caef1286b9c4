#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <unistd.h>

#include <sqlite3.h>

#include "sim/cli/command_line.h"
#include "sim/cli/gui/compare_source.h"
#include "sim/cli/gui/run_file_source.h"
#include "sim/results/run_file_reader.h"
#include "sim/runner/simulation.h"
#include "sim/cli/gui/simulation_driver.h"
#include "sim/scenario/default_scenario.h"
#include "sim/scenario/scenario_loader.h"

using namespace chaintwin;

namespace {

// The default scenario run to its end into a fresh results file (one per test process).
std::string recorded_default_run() {
  const auto dir = std::filesystem::temp_directory_path() / ("chaintwin-gui-db-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "default.sqlite").string();
  if (!std::filesystem::exists(path)) {
    std::ostringstream out, err;
    REQUIRE(cli::dispatch({"run", "--db", path}, out, err) == 0);
  }
  return path;
}

}  // namespace

TEST_CASE("a recorded run shows the same Workloads and pools at a time as the simulation did", "[viz][runfile]") {
  auto file = cli::RunFileSource::open(recorded_default_run(), std::nullopt);
  REQUIRE(file.ok());
  auto scenario = sim::load_scenario_text(std::string(sim::data::kDefaultScenarioYaml), "default");
  REQUIRE(scenario.ok());
  cli::SimulationDriver live(std::move(scenario).value(), {});
  REQUIRE(live.start().ok());
  for (const char* at : {"1h", "6h", "13h"}) {
    INFO(at);
    const int64_t t = sim::SimTime::parse(at)->us();
    live.advance_to(sim::SimTime::micros(t));
    const viz::Snapshot sim = *live.latest();
    const viz::Snapshot rec = (*file)->snapshot_at(t);
    REQUIRE(rec.workloads.size() == sim.workloads.size());
    for (size_t i = 0; i < rec.workloads.size(); ++i) {
      INFO(rec.workloads[i].key);
      CHECK(rec.workloads[i].key == sim.workloads[i].key);
      CHECK(rec.workloads[i].phase == sim.workloads[i].phase);
      CHECK(rec.workloads[i].evictions == sim.workloads[i].evictions);
      CHECK(rec.workloads[i].retries == sim.workloads[i].retries);
    }
    REQUIRE(rec.pools.size() == sim.pools.size());
    for (size_t i = 0; i < rec.pools.size(); ++i) {
      INFO(rec.pools[i].cluster_queue);
      CHECK(rec.pools[i].nominal == sim.pools[i].nominal);
      CHECK(rec.pools[i].reserved == sim.pools[i].reserved);
      CHECK(rec.pools[i].admitted == sim.pools[i].admitted);
      CHECK(rec.pools[i].stop_policy == sim.pools[i].stop_policy);
    }
    CHECK(rec.series == sim.series);
  }
}

TEST_CASE("a file that is not a complete chaintwin run is refused with the reason", "[viz][runfile]") {
  const auto dir = std::filesystem::temp_directory_path() / ("chaintwin-gui-bad-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string text = (dir / "text.sqlite").string();
  std::FILE* f = std::fopen(text.c_str(), "w");
  REQUIRE(f != nullptr);
  std::fputs("not a database, just text\n", f);
  std::fclose(f);
  struct Row {
    std::string path;
    std::optional<int64_t> run;
    const char* says;
  };
  // A recorded run whose pool series says a stopPolicy Kueue does not have.
  const std::string odd = (dir / "odd-policy.sqlite").string();
  std::filesystem::copy_file(recorded_default_run(), odd, std::filesystem::copy_options::overwrite_existing);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(odd.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "UPDATE pool_series SET stop_policy = 'Paused' WHERE sample = (SELECT MIN(sample) FROM pool_series)", nullptr, nullptr, nullptr) ==
          SQLITE_OK);
  sqlite3_close(db);
  const Row rows[] = {
      {text, std::nullopt, "not a SQLite database"},
      {odd, std::nullopt, "pool_series.stop_policy: \"Paused\": expected None, Hold or HoldAndDrain"},
      {(dir / "missing.sqlite").string(), std::nullopt, "cannot open the results file"},
      {recorded_default_run(), 99, "no run with id 99"},
  };
  for (const auto& row : rows) {
    INFO(row.path);
    auto src = cli::RunFileSource::open(row.path, row.run);
    REQUIRE_FALSE(src.ok());
    CHECK_THAT(src.error(), Catch::Contains(row.says) && Catch::Contains(row.path));
  }
}

TEST_CASE("a Workload's phase at a time follows its steps in the event log", "[viz][runfile]") {
  using viz::WorkloadPhase;
  const std::vector<viz::WorkloadStep> steps = {{0, "arrival", ""},      {1, "Pending", "no quota"},
                                                {2, "QuotaReserved", ""}, {2, "Evicted", "check Retry"},
                                                {3, "Requeued", ""},      {4, "QuotaReserved", ""},
                                                {4, "Admitted", ""},      {9, "Finished", ""}};
  struct Row {
    int64_t at;
    WorkloadPhase want;
  };
  const Row rows[] = {{0, WorkloadPhase::kPending},  {1, WorkloadPhase::kPending},  {2, WorkloadPhase::kEvicted},
                      {3, WorkloadPhase::kEvicted},  {4, WorkloadPhase::kAdmitted}, {8, WorkloadPhase::kAdmitted},
                      {9, WorkloadPhase::kFinished}};
  for (const auto& row : rows) {
    INFO(row.at);
    CHECK(cli::phase_from_steps(steps, row.at) == row.want);
  }
}

TEST_CASE("a run read back from its file keeps its GPU models' summaries and samples", "[viz][runfile][compare]") {
  auto scenario = sim::load_scenario_text(std::string(sim::data::kDefaultScenarioYaml), "default");
  REQUIRE(scenario.ok());
  sim::Simulation simulation(std::move(scenario).value(), sim::RunOptions{});
  const auto run = simulation.run();
  REQUIRE(run.ok());
  const sim::RunRecord& direct = run.value();
  const auto stored = sim::read_run_file(recorded_default_run(), std::nullopt);
  REQUIRE(stored.ok());
  const sim::RunRecord& back = stored->record;
  REQUIRE(back.gpu_models.size() == direct.gpu_models.size());
  REQUIRE_FALSE(back.gpu_models.empty());
  for (size_t i = 0; i < back.gpu_models.size(); ++i) {
    INFO(back.gpu_models[i].gpu_model);
    CHECK(back.gpu_models[i].gpu_model == direct.gpu_models[i].gpu_model);
    CHECK(back.gpu_models[i].cards == direct.gpu_models[i].cards);
    CHECK(back.gpu_models[i].peak_allocated == direct.gpu_models[i].peak_allocated);
    CHECK(back.gpu_models[i].mean_utilization == direct.gpu_models[i].mean_utilization);
    CHECK(back.gpu_models[i].mean_fragmentation == direct.gpu_models[i].mean_fragmentation);
    CHECK(back.gpu_models[i].typical_cards == direct.gpu_models[i].typical_cards);
  }
  CHECK(back.gpu_model_series.size() == direct.gpu_model_series.size());
}

TEST_CASE("two run files compare per pool and per GPU model, a run with itself differing nowhere", "[viz][compare]") {
  const std::string a = recorded_default_run();
  const auto dir = std::filesystem::path(a).parent_path();
  const std::string b = (dir / "seed99.sqlite").string();
  if (!std::filesystem::exists(b)) {
    std::ostringstream out, err;
    // Exit 1: the default scenario's expectations are written for its own seed; the run is stored.
    REQUIRE(cli::dispatch({"run", "--seed", "99", "--db", b}, out, err) <= 1);
    REQUIRE(std::filesystem::exists(b));
  }
  const auto same = cli::compare_run_files(a, a);
  REQUIRE(same.ok());
  REQUIRE_FALSE(same->pools.empty());
  REQUIRE_FALSE(same->gpu_models.empty());
  for (const auto* rows : {&same->pools, &same->gpu_models})
    for (const auto& r : *rows)
      for (const auto& f : r.figures) {
        INFO(r.key << " " << f.name);
        CHECK_FALSE(f.differs);
        CHECK(f.a == f.b);
      }
  const auto other = cli::compare_run_files(a, b);
  REQUIRE(other.ok());
  bool any = false;
  for (const auto& r : other->gpu_models)
    for (const auto& f : r.figures)
      if (f.name == "arrived" && f.differs) {
        any = true;
        CHECK(f.difference != "0");
        CHECK(f.a != f.b);
      }
  CHECK(any);  // another seed, other arrivals on some GPU model
  const auto missing = cli::compare_run_files(a, (dir / "nothing.sqlite").string());
  CHECK_FALSE(missing.ok());
}
