// `chaintwin plan` end to end: a plan whose answer is known by reasoning, the adaptive search
// against the grid, the same result for any -j, shards merged, a plan resumed from its file,
// and bad plans refused with exit code 2 naming the field.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
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

// Appended step by step: GCC 12 at -O2 warns (-Warray-bounds, a false positive) on the one-line sum.
std::string data(const std::string& name) {
  std::string path = CHAINTWIN_SOURCE_DIR;
  path += "/tests/sim/plan/data/";
  path += name;
  return path;
}

std::string temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("chaintwin-plan-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// Writes a plan next to the test data (so `base:` resolves) and returns its path.
std::string write_plan(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("plan recommends the capacity a constant demand of four cards needs, with fewer runs than the grid", "[plan]") {
  const auto adaptive = run({"plan", data("constant-demand.plan.yaml"), "-o", "json", "-j", "2"});
  INFO(adaptive.err);
  REQUIRE(adaptive.code == 0);
  const auto a = nlohmann::json::parse(adaptive.out);
  CHECK(a["recommendation"]["configuration"]["gpuNodes"] == "4");
  CHECK(a["recommendation"]["cards"] == 4);
  CHECK(a["recommendation"]["feasible"] == true);
  CHECK(a["nearestFailing"][0]["configuration"]["gpuNodes"] == "3");
  const auto grid = run({"plan", data("constant-demand.plan.yaml"), "-o", "json", "--grid", "-j", "2"});
  REQUIRE(grid.code == 0);
  const auto g = nlohmann::json::parse(grid.out);
  CHECK(g["recommendation"]["configuration"] == a["recommendation"]["configuration"]);
  CHECK(g["configurationsSimulated"] == 12);
  CHECK(a["configurationsSimulated"].get<int>() <= 5);
  // The same configuration simulated by both searches has the same figures.
  CHECK(g["recommendation"]["slos"] == a["recommendation"]["slos"]);
}

TEST_CASE("plan prints the same result whatever the number of parallel runs", "[plan]") {
  const auto one = run({"plan", data("constant-demand.plan.yaml"), "-j", "1"});
  const auto two = run({"plan", data("constant-demand.plan.yaml"), "-j", "2"});
  const auto five = run({"plan", data("constant-demand.plan.yaml"), "-j", "5"});
  REQUIRE(one.code == 0);
  CHECK(one.out == two.out);
  CHECK(one.out == five.out);
  CHECK_THAT(one.out, Catch::Contains("Recommendation: gpuNodes=4  (4 cards"));
}

TEST_CASE("shards of a grid merged give the single process's result byte for byte", "[plan]") {
  const std::string dir = temp_dir("shards");
  for (int i = 0; i < 3; ++i) {
    const auto s = run({"plan", data("constant-demand.plan.yaml"), "--grid", "--shard", std::to_string(i) + "/3", "--db",
                        dir + "/shard-" + std::to_string(i) + ".db", "-j", "1"});
    INFO(s.err);
    REQUIRE(s.code == 0);
    CHECK_THAT(s.out, Catch::Contains("shard " + std::to_string(i) + "/3: 8 runs written"));
  }
  const auto m = run({"plan", "merge", dir + "/merged.db", dir + "/shard-0.db", dir + "/shard-1.db", dir + "/shard-2.db"});
  INFO(m.err);
  REQUIRE(m.code == 0);
  CHECK_THAT(m.out, Catch::Contains("24 runs"));
  const auto merged = run({"plan", "--report", dir + "/merged.db", "--grid"});
  const auto single = run({"plan", data("constant-demand.plan.yaml"), "--grid"});
  REQUIRE(merged.code == 0);
  CHECK(merged.out == single.out);
}

TEST_CASE("shards of the adaptive search go round by round and end with the single process's result", "[plan]") {
  const std::string dir = temp_dir("adaptive-shards");
  const std::string merged = dir + "/merged.db";
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> shards;
    for (int i = 0; i < 2; ++i) {
      const std::string shard = dir + "/r" + std::to_string(round) + "-" + std::to_string(i) + ".db";
      // Each shard starts from what the merged file knows.
      if (std::filesystem::exists(merged)) std::filesystem::copy_file(merged, shard);
      const auto s = run({"plan", data("constant-demand.plan.yaml"), "--shard", std::to_string(i) + "/2", "--db", shard});
      INFO(s.err);
      REQUIRE(s.code == 0);
      shards.push_back(shard);
    }
    std::vector<std::string> args{"plan", "merge", merged};
    args.insert(args.end(), shards.begin(), shards.end());
    REQUIRE(run(args).code == 0);
    const auto report = run({"plan", "--report", merged});
    if (report.code == 0) break;
  }
  const auto report = run({"plan", "--report", merged});
  const auto single = run({"plan", data("constant-demand.plan.yaml")});
  REQUIRE(report.code == 0);
  CHECK(report.out == single.out);
}

TEST_CASE("a plan run again on its file redoes no completed run and ends as a fresh plan does", "[plan]") {
  const std::string dir = temp_dir("resume");
  // Half the grid's runs, as a plan stopped midway would leave them.
  REQUIRE(run({"plan", data("constant-demand.plan.yaml"), "--grid", "--shard", "0/2", "--db", dir + "/plan.db"}).code == 0);
  const auto resumed = run({"plan", data("constant-demand.plan.yaml"), "--grid", "--db", dir + "/plan.db"});
  REQUIRE(resumed.code == 0);
  CHECK_THAT(resumed.err, Catch::Contains("12 runs simulated, 12 already in"));
  const auto again = run({"plan", data("constant-demand.plan.yaml"), "--grid", "--db", dir + "/plan.db"});
  CHECK_THAT(again.err, Catch::Contains("0 runs simulated, 24 already in"));
  const auto fresh = run({"plan", data("constant-demand.plan.yaml"), "--grid"});
  CHECK(resumed.out == fresh.out);
  CHECK(again.out == fresh.out);
}

TEST_CASE("a plan file holding another plan's runs is refused", "[plan]") {
  const std::string dir = temp_dir("other-plan");
  REQUIRE(run({"plan", data("constant-demand.plan.yaml"), "--grid", "--shard", "0/4", "--db", dir + "/plan.db"}).code == 0);
  std::ifstream in(data("constant-demand.plan.yaml"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  text.replace(text.find("to: 12"), 6, "to: 10");
  const std::string other = write_plan(std::filesystem::path(data("x")).parent_path().string(), "other.plan.tmp.yaml", text);
  const auto r = run({"plan", other, "--db", dir + "/plan.db"});
  std::filesystem::remove(other);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("holds the runs of another plan"));
}

TEST_CASE("bad plans exit 2 naming the file, the line and the field", "[plan]") {
  const std::string base_dir = std::filesystem::path(data("x")).parent_path().string();
  const std::string head =
      "apiVersion: chaintwin/v1\nkind: Plan\nbase: constant-demand.yaml\nreplications: {seeds: [1]}\n";
  struct Case {
    std::string what, body, message;
  };
  const std::vector<Case> cases{
      {"an unknown variable kind", "variables:\n  - {name: x, gpus: gpu-, range: {from: 1, to: 2}}\nslos: [{class: steady, wait: {p95: 1m}}]\n",
       ":6: variables[0].gpus: unknown field"},
      {"an empty range", "variables:\n  - {name: n, nodeCount: gpu-, range: {from: 4, to: 2}}\nslos: [{class: steady, wait: {p95: 1m}}]\n",
       ":6: variables[0].range: empty range"},
      {"an SLO on an unknown class", "slos: [{class: chat, wait: {p95: 1m}}]\n",
       ":5: slos[0].class: no workload class 'chat' in the base scenario (classes: steady)"},
      {"an unknown percentile", "slos: [{class: steady, wait: {p97: 1m}}]\n", "slos[0].wait.p97: unknown percentile"},
      {"an unknown node template",
       "variables:\n  - {name: n, nodeCount: a100-, range: {from: 1, to: 2}}\nslos: [{class: steady, wait: {p95: 1m}}]\n",
       "variables[0]: value 1 does not give a loadable scenario"},
      {"a maximized variable that does not exist", "slos: [{class: steady, wait: {p95: 1m}}]\nobjective: {maximize: demand}\n",
       "objective.maximize: no variable named 'demand'"},
      {"no SLOs", "slos: []\n", "slos: no SLOs"},
      {"a duplicate seed", "slos: [{class: steady, wait: {p95: 1m}}]\n", ""},
  };
  for (const auto& c : cases) {
    if (c.message.empty()) continue;
    INFO(c.what);
    const std::string path = write_plan(base_dir, "bad.plan.tmp.yaml", head + c.body);
    const auto r = run({"plan", path});
    std::filesystem::remove(path);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("bad.plan.tmp.yaml"));
    CHECK_THAT(r.err, Catch::Contains(c.message));
    CHECK(r.out.empty());
  }
  CHECK(run({"plan", "/nonexistent/plan.yaml"}).code == 2);
  CHECK(run({"plan", data("constant-demand.plan.yaml"), "-j", "0"}).code == 2);
  CHECK(run({"plan", data("constant-demand.plan.yaml"), "--shard", "3/2", "--db", "/tmp/x.db"}).code == 2);
  CHECK(run({"plan", "--report", "/etc/hostname"}).code == 2);
}

TEST_CASE("with two pools the adaptive search finds the grid's cheapest configuration from a quarter of the runs", "[plan]") {
  const auto adaptive = run({"plan", data("two-pools.plan.yaml"), "-o", "json"});
  const auto grid = run({"plan", data("two-pools.plan.yaml"), "-o", "json", "--grid"});
  INFO(adaptive.err);
  REQUIRE(adaptive.code == 0);
  REQUIRE(grid.code == 0);
  const auto a = nlohmann::json::parse(adaptive.out), g = nlohmann::json::parse(grid.out);
  CHECK(a["recommendation"]["configuration"] == nlohmann::json({{"a10gNodes", "4"}, {"t4Nodes", "2"}}));
  CHECK(g["recommendation"]["configuration"] == a["recommendation"]["configuration"]);
  CHECK(g["recommendation"]["cost"] == 8.0);
  CHECK(g["configurationsSimulated"] == 32);
  CHECK(a["configurationsSimulated"].get<int>() <= 8);
}

TEST_CASE("merge refuses a shard of another plan and leaves the output untouched", "[plan]") {
  const std::string dir = temp_dir("merge-other");
  REQUIRE(run({"plan", data("constant-demand.plan.yaml"), "--grid", "--shard", "0/4", "--db", dir + "/a.db"}).code == 0);
  REQUIRE(run({"plan", data("two-pools.plan.yaml"), "--grid", "--shard", "0/8", "--db", dir + "/b.db"}).code == 0);
  const auto m = run({"plan", "merge", dir + "/out.db", dir + "/a.db", dir + "/b.db"});
  CHECK(m.code == 2);
  CHECK_THAT(m.err, Catch::Contains("b.db: a shard of another plan"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out.db"));
  const auto not_a_plan = run({"plan", "merge", dir + "/out.db", data("constant-demand.yaml")});
  CHECK(not_a_plan.code == 2);
  CHECK_FALSE(std::filesystem::exists(dir + "/out.db"));
}
