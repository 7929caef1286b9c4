#include <catch2/catch.hpp>

#include <fstream>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/results/results_schema.h"
#include "sim/results/sqlite_store.h"

using chaintwin::sim::EventRecord;
using chaintwin::sim::PoolSample;
using chaintwin::sim::ResultsStore;
using chaintwin::sim::RunRecord;
using chaintwin::sim::SimTime;
using chaintwin::sim::split_final_objects;
using chaintwin::sim::StoreOptions;
using chaintwin::sim::WorkloadOutcome;

namespace {

// A fresh path under /tmp, removed (with SQLite's journal) when the test ends.
struct TempPath {
  std::string path;
  explicit TempPath(const std::string& stem)
      : path("/tmp/chaintwin-" + stem + "-" + std::to_string(::getpid()) + ".db") {
    remove();
  }
  ~TempPath() { remove(); }
  void remove() const {
    ::unlink(path.c_str());
    ::unlink((path + "-journal").c_str());
  }
};

// Reads a results file with the SQLite C API only, as any other tool would.
struct Reader {
  sqlite3* db = nullptr;
  explicit Reader(const std::string& path) {
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  }
  ~Reader() { sqlite3_close(db); }
  int64_t integer(const std::string& sql) const {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
    const int64_t v = sqlite3_column_type(stmt, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return v;
  }
  std::string text(const std::string& sql) const {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
    const auto* t = sqlite3_column_text(stmt, 0);
    std::string v = t != nullptr ? reinterpret_cast<const char*>(t) : "";
    sqlite3_finalize(stmt);
    return v;
  }
};

EventRecord event(int64_t second, std::string kind, std::string object) {
  EventRecord e;
  e.at = SimTime::seconds(second);
  e.seq = second;
  e.kind = std::move(kind);
  e.object = std::move(object);
  e.message = "m" + std::to_string(second);
  return e;
}

RunRecord small_run() {
  RunRecord r;
  r.info.scenario_name = "mixed";
  r.info.scenario_file = "scenarios/mixed.yaml";
  r.info.scenario_hash = "abc123";
  r.info.version = "0.1.0";
  r.info.seed = 42;
  r.info.horizon = SimTime::hours(1);
  r.info.ended_at = SimTime::hours(1);
  r.info.events = 17;
  for (int i = 0; i < 5; ++i) r.events.push_back(event(i, "arrival", "Workload a/w" + std::to_string(i)));
  WorkloadOutcome admitted;
  admitted.key = "a/w0";
  admitted.generator = "chat";
  admitted.created = SimTime::seconds(0);
  admitted.first_admitted = SimTime::seconds(30);
  WorkloadOutcome waiting;
  waiting.key = "a/w1";
  waiting.generator = "chat";
  waiting.last_pending_gate = "gate3";
  r.workloads = {admitted, waiting};
  PoolSample s;
  s.cluster_queue = "cq";
  s.resource = "credits.gpustack.ai/nvidia";
  s.nominal = 1'600'000;
  s.stop_policy = chaintwin::model::StopPolicy::kNone;
  r.pool_series = {s, s, s};
  r.final_objects = nlohmann::json::array(
      {{{"kind", "ClusterQueue"}, {"metadata", {{"name", "cq"}}}},
       {{"kind", "LocalQueue"}, {"metadata", {{"name", "lq"}, {"namespace", "a"}}}}});
  return r;
}

StoreOptions fixed(int32_t batch = 1000) {
  StoreOptions o;
  o.batch_events = batch;
  o.started = "2025-01-01T00:00:00Z";
  return o;
}

}  // namespace

TEST_CASE("a finished run reads back from SQLite with every row and the run marked complete", "[results_store]") {
  TempPath file("store-roundtrip");
  const RunRecord run = small_run();
  REQUIRE(ResultsStore::write_run(file.path, run, fixed()).ok());

  Reader db(file.path);
  CHECK(db.integer("PRAGMA application_id") == chaintwin::sim::kResultsApplicationId);
  CHECK(db.integer("SELECT count(*) FROM runs") == 1);
  CHECK(db.integer("SELECT complete FROM runs") == 1);
  CHECK(db.integer("SELECT seed FROM runs") == 42);
  CHECK(db.integer("SELECT horizon_us FROM runs") == 3'600'000'000);
  CHECK(db.integer("SELECT events FROM runs") == 17);
  CHECK(db.text("SELECT started FROM runs") == "2025-01-01T00:00:00Z");
  CHECK(db.text("SELECT scenario_file FROM runs") == "scenarios/mixed.yaml");
  CHECK(db.integer("SELECT count(*) FROM events") == 5);
  CHECK(db.text("SELECT message FROM events WHERE line = 3") == "m3");
  CHECK(db.integer("SELECT count(*) FROM workloads") == 2);
  CHECK(db.integer("SELECT wait_us FROM workloads WHERE key = 'a/w0'") == 30'000'000);
  CHECK(db.integer("SELECT wait_us FROM workloads WHERE key = 'a/w1'") == -1);  // NULL: never admitted
  CHECK(db.text("SELECT last_pending_gate FROM workloads WHERE key = 'a/w1'") == "gate3");
  CHECK(db.integer("SELECT count(*) FROM pool_series") == 3);
  CHECK(db.integer("SELECT count(*) FROM final_objects") == 2);
  CHECK(db.text("SELECT name FROM final_objects WHERE kind = 'LocalQueue'") == "a/lq");
}

TEST_CASE("a second run is added to an existing results file and the first stays", "[results_store]") {
  TempPath file("store-two-runs");
  REQUIRE(ResultsStore::write_run(file.path, small_run(), fixed()).ok());
  RunRecord second = small_run();
  second.info.seed = 7;
  REQUIRE(ResultsStore::write_run(file.path, second, fixed()).ok());
  Reader db(file.path);
  CHECK(db.integer("SELECT count(*) FROM runs") == 2);
  CHECK(db.integer("SELECT count(*) FROM events") == 10);
  CHECK(db.integer("SELECT seed FROM runs WHERE id = 2") == 7);
  CHECK(db.integer("SELECT count(*) FROM workloads WHERE run_id = 2") == 2);
}

TEST_CASE("events streamed while the run goes are kept and finish adds only the rest", "[results_store]") {
  TempPath file("store-streamed");
  const RunRecord run = small_run();
  auto store = ResultsStore::create(file.path, fixed(2));
  REQUIRE(store.ok());
  REQUIRE(store.value().begin_run(run.info).ok());
  for (size_t i = 0; i < 3; ++i) REQUIRE(store.value().append(run.events[i]).ok());
  REQUIRE(store.value().finish(run).ok());
  CHECK_FALSE(store.value().finish(run).ok());
  Reader db(file.path);
  CHECK(db.integer("SELECT count(*) FROM events") == 5);
  CHECK(db.integer("SELECT count(DISTINCT line) FROM events") == 5);
  CHECK(db.integer("SELECT at_us FROM events WHERE line = 4") == 4'000'000);
}

TEST_CASE("a store dropped without finish leaves a readable file with the run incomplete", "[results_store]") {
  TempPath file("store-dropped");
  {
    auto store = ResultsStore::create(file.path, fixed(1000));
    REQUIRE(store.ok());
    REQUIRE(store.value().begin_run(small_run().info).ok());
    for (int i = 0; i < 2500; ++i) REQUIRE(store.value().append(event(i, "arrival", "Workload a/w")).ok());
  }
  Reader db(file.path);
  CHECK(db.integer("SELECT complete FROM runs") == 0);
  CHECK(db.integer("SELECT count(*) FROM events") == 2500);  // the last partial batch is committed on drop
  CHECK(db.integer("SELECT events FROM runs") == 2500);
  CHECK(db.integer("SELECT ended_at_us FROM runs") == 2499'000'000);
  CHECK(db.integer("SELECT count(*) FROM workloads") == 0);
}

TEST_CASE("a killed run keeps every committed batch and stays marked incomplete", "[results_store]") {
  TempPath file("store-killed");
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child writes 1500 events in batches of 1000 and dies without any cleanup.
    auto store = ResultsStore::create(file.path, fixed(1000));
    if (!store.ok() || !store.value().begin_run(small_run().info).ok()) ::_exit(3);
    for (int i = 0; i < 1500; ++i) (void)store.value().append(event(i, "arrival", "Workload a/w"));
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  Reader db(file.path);
  CHECK(db.text("PRAGMA integrity_check") == "ok");
  CHECK(db.integer("SELECT complete FROM runs") == 0);
  CHECK(db.integer("SELECT count(*) FROM events") == 1000);
  CHECK(db.integer("SELECT events FROM runs") == 1000);
}

TEST_CASE("the store refuses files that are not chaintwin results and names them", "[results_store]") {
  SECTION("a text file") {
    TempPath file("store-text");
    std::ofstream(file.path) << "not a database, just notes\n";
    const auto store = ResultsStore::create(file.path);
    REQUIRE_FALSE(store.ok());
    CHECK(store.error() == file.path + ": exists and is not a SQLite database; refusing to write results into it");
    std::ifstream in(file.path);
    std::string line;
    std::getline(in, line);
    CHECK(line == "not a database, just notes");
  }
  SECTION("another application's database") {
    TempPath file("store-other");
    {
      sqlite3* db = nullptr;
      REQUIRE(sqlite3_open(file.path.c_str(), &db) == SQLITE_OK);
      REQUIRE(sqlite3_exec(db, "CREATE TABLE notes (t TEXT)", nullptr, nullptr, nullptr) == SQLITE_OK);
      sqlite3_close(db);
    }
    const auto store = ResultsStore::create(file.path);
    REQUIRE_FALSE(store.ok());
    CHECK(store.error().find("a SQLite database of another application (application_id 0)") != std::string::npos);
    CHECK(store.error().rfind(file.path + ": ", 0) == 0);
  }
  SECTION("a directory that does not exist") {
    const auto store = ResultsStore::create("/nonexistent-dir/results.db");
    REQUIRE_FALSE(store.ok());
    CHECK(store.error().rfind("/nonexistent-dir/results.db: opening the results database: ", 0) == 0);
  }
  SECTION("an empty file becomes a results file") {
    TempPath file("store-empty");
    std::ofstream(file.path).close();
    CHECK(ResultsStore::write_run(file.path, small_run(), fixed()).ok());
  }
}

TEST_CASE("final objects split into rows from a list, a List object or a map of kinds", "[results_store]") {
  using nlohmann::json;
  const json cq = {{"kind", "ClusterQueue"}, {"metadata", {{"name", "cq"}}}};
  const json lq = {{"kind", "LocalQueue"}, {"metadata", {{"name", "lq"}, {"namespace", "team-a"}}}};
  const json unnamed_kind = {{"metadata", {{"name", "h100-0"}}}};
  struct Row {
    json input;
    std::vector<std::string> rows;  // "kind name"
  };
  const Row rows[] = {
      {json::array({cq, lq}), {"ClusterQueue cq", "LocalQueue team-a/lq"}},
      {json{{"kind", "List"}, {"items", json::array({lq})}}, {"LocalQueue team-a/lq"}},
      {json{{"Node", json::array({unnamed_kind})}, {"ClusterQueue", json::array({cq})}},
       {"ClusterQueue cq", "Node h100-0"}},
      {json(), {}},
  };
  for (const auto& r : rows) {
    INFO(r.input.dump());
    std::vector<std::string> got;
    for (const auto& o : split_final_objects(r.input)) got.push_back(o.kind + " " + o.name);
    CHECK(got == r.rows);
  }
}
