// `chaintwin run` end to end through the CLI dispatcher: the embedded default scenario, the JSON
// report, the SQLite results file and the event log, and bad input refused with exit code 2.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/cli/command_line.h"

namespace {

struct Ran {
  int code = 0;
  std::string out, err;
};

Ran run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = chaintwin::cli::dispatch(args, out, err);
  return {code, out.str(), err.str()};
}

int64_t count_rows(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  const int64_t n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(h);
  return n;
}

std::string temp_path(const std::string& name) {
  const std::string path = "/tmp/chaintwin_run_command_test_" + name;
  std::remove(path.c_str());
  return path;
}

}  // namespace

TEST_CASE("run with no scenario simulates the embedded default and reports every pool", "[cli][run]") {
  const Ran r = run({"run", "--until", "1h", "-o", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto report = nlohmann::json::parse(r.out);
  CHECK(report["run"]["scenario"] == "default-mixed-cluster");
  std::set<std::string> pools;
  for (const auto& p : report["pools"]) pools.insert(p["cluster_queue"].get<std::string>());
  CHECK(pools.count("gpustack--nvidia-h100-80gb-hbm3-linux-amd64") == 1);
  CHECK(pools.count("gpustack--nvidia-tesla-t4-linux-amd64") == 1);
  CHECK(pools.count("gpustack--nvidia-a10g-linux-amd64") == 1);
  CHECK(pools.count("gpustack--generic-linux-amd64") == 1);
  CHECK(report["expectation_failures"].empty());
  CHECK(report["total"]["workloads"].get<int64_t>() > 0);
}

TEST_CASE("run writes a complete SQLite results file and the event log it printed", "[cli][run]") {
  const std::string db = temp_path("results.sqlite");
  const std::string log = temp_path("events.log");
  const Ran r = run({"run", "--until", "30m", "--db", db, "--events", log});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(count_rows(db, "select count(*) from runs where complete = 1") == 1);
  const int64_t events = count_rows(db, "select count(*) from events");
  CHECK(events > 10);
  CHECK(count_rows(db, "select count(*) from workloads") > 0);
  CHECK(count_rows(db, "select count(*) from pool_series") > 0);
  std::ifstream in(log);
  int64_t lines = 0;
  for (std::string line; std::getline(in, line);) {
    CHECK(line.substr(0, 19).find('d') == 3);  // "  0dHH:MM:SS.ffffff": the simulated time first
    ++lines;
  }
  CHECK(lines == events);
  // A second run goes into the same file as run 2.
  REQUIRE(run({"run", "--until", "10m", "--db", db}).code == 0);
  CHECK(count_rows(db, "select count(*) from runs where complete = 1") == 2);
}

TEST_CASE("run refuses bad input with the place and exit code 2, printing no report", "[cli][run]") {
  const std::string bad = temp_path("bad.yaml");
  std::ofstream(bad) << "apiVersion: chaintwin/v1\nkind: Scenario\nmetadata: {name: x}\nhorizon: 2 hours\n";
  struct Row {
    std::vector<std::string> args;
    std::string err;
  };
  const std::vector<Row> rows = {
      {{"run", bad}, bad + ":4: horizon: duration '2 hours'"},
      {{"run", "/no/such/scenario.yaml"}, "/no/such/scenario.yaml: cannot read the scenario file"},
      {{"run", "--seed", "-1"}, "--seed: expected a whole number from 0 to 18446744073709551615, got '-1'"},
      {{"run", "--until", "soon"}, "--until: "},
      {{"run", "-o", "xml"}, "-o: expected one of text, json, got 'xml'"},
      {{"check"}, "no SCENARIO given"},
  };
  for (const auto& row : rows) {
    INFO(row.args.back());
    const Ran r = run(row.args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(row.err) != std::string::npos);
  }
}
