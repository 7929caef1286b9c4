// The GPU model rows of the report (report.h: gpu_model_reports, report_text, report_json) and of
// the SQLite store (gpu_models, gpu_model_series), from a hand-built RunRecord.
#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <unistd.h>

#include "sim/results/report.h"
#include "sim/results/sqlite_store.h"

using chaintwin::sim::build_report;
using chaintwin::sim::GpuModelReport;
using chaintwin::sim::GpuModelSample;
using chaintwin::sim::GpuModelSummary;
using chaintwin::sim::report_json;
using chaintwin::sim::report_text;
using chaintwin::sim::ResultsStore;
using chaintwin::sim::RunRecord;
using chaintwin::sim::SimTime;
using chaintwin::sim::StoreOptions;
using chaintwin::sim::WorkloadOutcome;

namespace {

const std::string kT4 = "nvidia-tesla-t4";
const std::string kA100 = "nvidia-a100-sxm4-40gb";

// A workload on `gpu_model` created at 0 s; admitted after `wait_s` seconds, or never (with the
// last gate that held it).
WorkloadOutcome workload(std::string key, std::string gpu_model, std::optional<int64_t> wait_s,
                         std::string gate = "", bool rejected = false) {
  WorkloadOutcome w;
  w.key = std::move(key);
  w.generator = "trace";
  w.gpu_model = std::move(gpu_model);
  w.created = SimTime::seconds(100);
  if (wait_s) w.first_admitted = w.created + SimTime::seconds(*wait_s);
  w.last_pending_gate = std::move(gate);
  w.rejected = rejected;
  return w;
}

RunRecord gpu_run() {
  RunRecord r;
  r.info.scenario_name = "openb-small";
  r.info.version = "0.1.0";
  r.info.horizon = SimTime::hours(4);
  r.info.ended_at = SimTime::hours(4);
  GpuModelSummary t4;
  t4.gpu_model = kT4;
  t4.product = "Tesla T4";
  t4.manufacturer = "nvidia";
  t4.typical_credits_per_card = 960'000;
  t4.typical_cards = 1;
  t4.span_us = SimTime::hours(4).us();
  t4.cards = 2;
  t4.peak_cards = 2;
  t4.mean_allocated = 1'000'000;
  t4.peak_allocated = 2'400'000;
  t4.final_allocated = 2'400'000;
  t4.mean_utilization = 0.3125;
  t4.peak_utilization = 0.75;
  t4.final_allocation = 0.75;
  t4.final_free = 800'000;
  t4.final_fragmented = 800'000;
  t4.mean_fragmentation = 0.25;
  t4.final_fragmentation = 1.0;
  r.gpu_models = {t4};
  r.gpu_model_series = {{SimTime::hours(0), kT4, 2, 0, 0},
                        {SimTime::hours(1), kT4, 2, 800'000, 800'000},
                        {SimTime::hours(3), kT4, 2, 2'400'000, 800'000}};
  r.workloads = {
      workload("default/p0", kT4, 0),                   // admitted at once: did not wait
      workload("default/p1", kT4, 30),                  // waited 30 s
      workload("default/p2", kT4, 90),                  // waited 90 s
      workload("default/p3", kT4, std::nullopt, "gate3"),
      workload("default/p4", kT4, std::nullopt, "queue"),
      workload("default/p5", kT4, std::nullopt, "gate3"),
      workload("default/p6", kT4, std::nullopt, "gate1", true),
      workload("default/p7", kA100, std::nullopt, ""),  // a model no Devices had
      workload("default/cpu", "", 0),                   // CPU: no GPU model row
  };
  return r;
}

const GpuModelReport& row_of(const std::vector<GpuModelReport>& rows, const std::string& key) {
  for (const auto& r : rows)
    if (r.usage.gpu_model == key) return r;
  FAIL("no row for " << key);
  return rows.front();
}

}  // namespace

TEST_CASE("the report counts per GPU model the workloads that waited and those never admitted, by gate",
          "[gpu_model_report]") {
  const auto report = build_report(gpu_run());
  REQUIRE(report.gpu_models.size() == 2);
  const GpuModelReport& t4 = row_of(report.gpu_models, kT4);
  CHECK(t4.usage.product == "Tesla T4");
  CHECK(t4.workloads == 7);
  CHECK(t4.admitted == 3);
  // Waited: p1 (30 s), p2 (90 s) and the never-admitted p3, p4, p5, censored at the end (4 h − 100 s);
  // p0 started at once and p6 was rejected.
  CHECK(t4.waited == 5);
  // The waits: every workload not rejected, p0's 0 s included: 0, 30 s, 90 s and three censored.
  CHECK(t4.wait.count == 6);
  CHECK(t4.wait.censored == 3);
  const int64_t censored_at = (SimTime::hours(4) - SimTime::seconds(100)).us();
  REQUIRE(t4.wait.p50.has_value());
  CHECK(t4.wait.p50->us == SimTime::seconds(90).us());  // rank 3 of 6
  CHECK_FALSE(t4.wait.p50->censored);
  REQUIRE(t4.wait.max.has_value());
  CHECK(t4.wait.max->us == censored_at);
  CHECK(t4.wait.max->censored);
  CHECK(t4.never_admitted == 4);
  using Gates = std::vector<std::pair<std::string, int64_t>>;
  CHECK(t4.never_admitted_by_gate == Gates{{"gate1", 1}, {"queue", 1}, {"gate3", 2}});
  const GpuModelReport& a100 = row_of(report.gpu_models, kA100);
  CHECK(a100.usage.cards == 0);
  CHECK(a100.never_admitted_by_gate == Gates{{"", 1}});
  CHECK(a100.waited == 1);
  CHECK(a100.wait.censored == 1);
}

TEST_CASE("a GPU model's waits are those of its class and pool: zero waits included, the rejected left out",
          "[gpu_model_report]") {
  RunRecord run = gpu_run();
  run.workloads = {workload("default/p0", kT4, 0), workload("default/p1", kT4, 30), workload("default/p2", kT4, 90),
                   workload("default/p3", kT4, std::nullopt, "gate3"),
                   workload("default/p4", kT4, std::nullopt, "gate1", true)};
  const auto report = build_report(run);
  const GpuModelReport& t4 = row_of(report.gpu_models, kT4);
  CHECK(t4.waited == 3);
  CHECK(t4.wait.count == 4);
  REQUIRE(t4.wait.p50.has_value());
  CHECK(t4.wait.p50->us == SimTime::seconds(30).us());  // rank 2 of 0 s, 30 s, 90 s, >= 3h58m20s
  CHECK_FALSE(t4.wait.p50->censored);
  REQUIRE(t4.wait.p95.has_value());
  CHECK(t4.wait.p95->censored);
  // Every workload here is of class "trace": the class figures and the model's are one distribution.
  REQUIRE(report.classes.size() == 1);
  const auto& c = report.classes[0].workloads.wait;
  CHECK(c.count == t4.wait.count);
  CHECK(c.censored == t4.wait.censored);
  for (const auto& [mine, theirs] : {std::pair{t4.wait.p50, c.p50}, std::pair{t4.wait.p95, c.p95}, std::pair{t4.wait.max, c.max}}) {
    REQUIRE(mine.has_value());
    REQUIRE(theirs.has_value());
    CHECK(mine->us == theirs->us);
    CHECK(mine->censored == theirs->censored);
  }
}

TEST_CASE("the text report shows the GPU model tables only when the run had GPU models", "[gpu_model_report]") {
  const std::string text = report_text(build_report(gpu_run()));
  const size_t models = text.find("\nGPU models in cards (");
  const size_t gates = text.find("\nNever admitted, by gate");
  REQUIRE(models != std::string::npos);
  REQUIRE(gates != std::string::npos);
  // The lines of a section that start with `key`, split on runs of two or more spaces.
  auto cells = [&](size_t from, size_t to, const std::string& key) {
    std::vector<std::vector<std::string>> rows;
    size_t at = from;
    while ((at = text.find("\n" + key + " ", at)) != std::string::npos && at < to) {
      const size_t end = text.find('\n', at + 1);
      const std::string line = text.substr(at + 1, end - at - 1);
      std::vector<std::string> row;
      size_t i = 0;
      while (i < line.size()) {
        const size_t gap = line.find("  ", i);
        row.push_back(line.substr(i, gap == std::string::npos ? std::string::npos : gap - i));
        if (gap == std::string::npos) break;
        i = line.find_first_not_of(' ', gap);
      }
      rows.push_back(row);
      at = end;
    }
    return rows;
  };
  const auto t4 = cells(models, gates, kT4);
  REQUIRE(t4.size() == 1);
  CHECK(t4[0] == std::vector<std::string>{kT4, "Tesla T4", "2", "0.625", "1.500", "31.25 %", "75.00 %", "75.00 %",
                                          "1 × 0.600", "25.00 %", "100.00 %", "7", "5", "1m30s", ">= 3h58m20s",
                                          ">= 3h58m20s", "3", "4"});
  // The title names the unit, and explains exactly the gate names the gate table prints.
  CHECK(text.find("\nGPU models in cards (") != std::string::npos);
  const std::string gates_title = text.substr(gates + 1, text.find('\n', gates + 1) - gates - 1);
  CHECK(gates_title ==
        "Never admitted, by gate (the last gate that held the workload: gate1 = refused by the Pod webhook; queue = "
        "Kueue found the ClusterQueue inadmissible (missing, inactive or stopped); gate3 = the gpustack-node-devices "
        "AdmissionCheck answered Retry; (none) = no gate had held it yet)");
  const auto t4_gates = cells(gates, text.size(), kT4);
  CHECK(t4_gates == std::vector<std::vector<std::string>>{{kT4, "gate1", "1"}, {kT4, "queue", "1"}, {kT4, "gate3", "2"}});
  const auto a100_gates = cells(gates, text.size(), kA100);
  CHECK(a100_gates == std::vector<std::vector<std::string>>{{kA100, "(none)", "1"}});

  RunRecord cpu_only = gpu_run();
  cpu_only.gpu_models.clear();
  cpu_only.workloads = {workload("default/cpu", "", 0)};
  const std::string plain = report_text(build_report(cpu_only));
  CHECK(plain.find("GPU models") == std::string::npos);
  CHECK(plain.find("Never admitted") == std::string::npos);
}

TEST_CASE("the JSON report carries gpu_models with snake_case keys and exact integers", "[gpu_model_report]") {
  const auto j = report_json(build_report(gpu_run()));
  REQUIRE(j["gpu_models"].size() == 2);
  const auto& a100 = j["gpu_models"][0];  // by gpu_model: a100 before tesla
  CHECK(a100["gpu_model"] == kA100);
  CHECK(a100["typical_request"].is_null());
  CHECK(a100["utilization"]["mean"].is_null());
  const auto& t4 = j["gpu_models"][1];
  CHECK(t4["gpu_model"] == kT4);
  CHECK(t4["typical_request"]["credits_per_card"] == 960'000);
  CHECK(t4["typical_request"]["cards"] == 1);
  CHECK(t4["cards"] == 2);
  CHECK(t4["allocated"]["peak"] == 2'400'000);
  CHECK(t4["allocated"]["mean_cards"].get<double>() == Approx(0.625));
  CHECK(t4["utilization"]["mean"].get<double>() == Approx(0.3125));
  CHECK(t4["final_allocation"].get<double>() == Approx(0.75));
  CHECK(t4["fragmented_at_end"] == 800'000);
  CHECK(t4["fragmentation"]["mean"].get<double>() == Approx(0.25));
  CHECK(t4["workloads"]["waited"] == 5);
  CHECK(t4["workloads"]["wait_us"]["count"] == 6);
  CHECK(t4["workloads"]["wait_us"]["censored"] == 3);
  CHECK(t4["workloads"]["wait_us"]["p95"]["us"] == 14'300'000'000);
  CHECK(t4["workloads"]["wait_us"]["p95"]["censored"] == true);
  CHECK(t4["workloads"]["never_admitted"] == 4);
  CHECK(t4["workloads"]["never_admitted_by_gate"][2]["gate"] == "gate3");
  CHECK(t4["workloads"]["never_admitted_by_gate"][2]["workloads"] == 2);
}

TEST_CASE("the SQLite store writes the GPU model summaries and series of a run", "[gpu_model_report]") {
  const std::string path = "/tmp/chaintwin-gpu-models-" + std::to_string(::getpid()) + ".db";
  ::unlink(path.c_str());
  StoreOptions options;
  options.started = "2025-01-01T00:00:00Z";
  REQUIRE(ResultsStore::write_run(path, gpu_run(), options).ok());
  REQUIRE(ResultsStore::write_run(path, gpu_run(), options).ok());  // a second run beside it

  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  auto integer = [&](const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
    const int64_t v = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return v;
  };
  CHECK(integer("SELECT count(*) FROM gpu_models") == 2);
  CHECK(integer("SELECT count(*) FROM gpu_model_series WHERE run_id = 2") == 3);
  CHECK(integer("SELECT cards FROM gpu_models WHERE run_id = 1 AND gpu_model = 'nvidia-tesla-t4'") == 2);
  CHECK(integer("SELECT typical_credits_per_card FROM gpu_models WHERE run_id = 1") == 960'000);
  CHECK(integer("SELECT final_fragmented FROM gpu_models WHERE run_id = 1") == 800'000);
  CHECK(integer("SELECT CAST(mean_utilization * 10000 AS INTEGER) FROM gpu_models WHERE run_id = 1") == 3125);
  CHECK(integer("SELECT allocated FROM gpu_model_series WHERE run_id = 1 AND sample = 2") == 2'400'000);
  CHECK(integer("SELECT at_us FROM gpu_model_series WHERE run_id = 1 AND sample = 1") == SimTime::hours(1).us());
  CHECK(integer("SELECT count(*) FROM workloads WHERE run_id = 1 AND gpu_model = 'nvidia-tesla-t4'") == 7);
  CHECK(integer("PRAGMA user_version") == 2);
  sqlite3_close(db);
  ::unlink(path.c_str());
}
