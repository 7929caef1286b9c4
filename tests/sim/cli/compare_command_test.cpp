// `chaintwin compare A B` (sim/cli/compare_command.h): a run against itself, against its stored
// copy and against another seed; bad arguments exit 2 naming the side.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/cli/command_line.h"

namespace {

using namespace chaintwin;

struct Outcome {
  int code;
  std::string out, err;
};

Outcome run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = cli::dispatch(args, out, err);
  return {code, out.str(), err.str()};
}

std::string source(const std::string& rel) { return std::string(CHAINTWIN_SOURCE_DIR) + "/" + rel; }

// A results file under /tmp, removed at the end of the test.
struct TempDb {
  std::string path;
  explicit TempDb(const std::string& name)
      : path("/tmp/chaintwin-compare-" + name + "-" + std::to_string(::getpid()) + ".sqlite") {
    std::remove(path.c_str());
  }
  ~TempDb() { std::remove(path.c_str()); }
};

const std::string kSmall = "scenarios/regression/slo-censored-waits.yaml";

std::string last_line(const std::string& text) {
  const size_t end = text.find_last_not_of('\n');
  const size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

}  // namespace

TEST_CASE("comparing a run with itself shows zero differences", "[compare]") {
  TempDb db("self");
  REQUIRE(run({"run", source(kSmall), "--db", db.path}).code == 0);
  struct Row {
    const char* what;
    std::vector<std::string> args;
  };
  const Row rows[] = {
      {"a scenario with itself", {"compare", source(kSmall), source(kSmall)}},
      {"a scenario with its stored run", {"compare", source(kSmall), db.path}},
      {"a stored run by id with the newest run", {"compare", db.path + "#1", db.path}},
      {"a scenario with itself at one given seed", {"compare", source(kSmall), source(kSmall), "--seed", "7"}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const Outcome o = run(r.args);
    INFO(o.err);
    REQUIRE(o.code == 0);
    CHECK(last_line(o.out) == "0 figures differ");
    CHECK(o.out.find("Workloads by class") != std::string::npos);
    // The class row: 3 arrived, 2 admitted, p95 censored at the horizon, zero differences.
    CHECK(o.out.find("whole  arrived") != std::string::npos);
    CHECK(o.out.find(">= 1h30m00s  >= 1h30m00s") != std::string::npos);
  }
  const Outcome json = run({"compare", source(kSmall), db.path, "-o", "json"});
  REQUIRE(json.code == 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j["differences"] == 0);
  REQUIRE(j["classes"].size() == 1);
  CHECK(j["classes"][0]["generator"] == "whole");
  CHECK(j["classes"][0]["in"] == "both");
  CHECK(j["classes"][0]["figures"][0]["figure"] == "arrived");
  CHECK(j["classes"][0]["figures"][0]["a"] == 3);
  CHECK(j["classes"][0]["figures"][0]["difference"] == 0);
}

TEST_CASE("two seeds of the default scenario differ", "[compare]") {
  const Outcome o = run({"compare", source("scenarios/default.yaml"), source("scenarios/default.yaml"), "--seed-a",
                         "1", "--seed-b", "2", "-o", "json"});
  INFO(o.err);
  REQUIRE(o.code == 0);
  const auto j = nlohmann::json::parse(o.out);
  CHECK(j["a"]["seed"] == 1);
  CHECK(j["b"]["seed"] == 2);
  CHECK(j["differences"].get<int64_t>() > 0);
  // Same cluster: the same pools on both sides.
  for (const auto& p : j["pools"]) CHECK(p["in"] == "both");
}

TEST_CASE("compare refuses bad input with exit code 2 and names the argument", "[compare]") {
  struct Row {
    std::vector<std::string> args;
    std::string err;
  };
  const std::string small = source(kSmall);
  const Row rows[] = {
      {{"compare", small, "/tmp/chaintwin-no-such-file.yaml"},
       "chaintwin compare: B (/tmp/chaintwin-no-such-file.yaml): /tmp/chaintwin-no-such-file.yaml: cannot read the "
       "scenario file\n"},
      {{"compare", "/tmp/chaintwin-no-such-file.sqlite#2", small},
       "chaintwin compare: A (/tmp/chaintwin-no-such-file.sqlite#2): /tmp/chaintwin-no-such-file.sqlite: not a results "
       "file (FILE#ID names a run of a `chaintwin run --db` file)\n"},
      {{"compare", small + "#x", small},
       "chaintwin compare: A (" + small + "#x): 'x' is not a run id (expected FILE#ID with ID a positive integer)\n"},
      {{"compare", small}, "chaintwin compare: no B given\n(see chaintwin compare --help)\n"},
      {{"compare", small, small, "-o", "yaml"},
       "chaintwin compare: -o: expected one of text, json, got 'yaml'\n(see chaintwin compare --help)\n"},
      {{"compare", small, small, "--seed", "-1"},
       "chaintwin compare: --seed: expected a whole number from 0 to 18446744073709551615, got '-1'\n"
       "(see chaintwin compare --help)\n"},
      {{"compare", small, small, "--fast"}, "chaintwin compare: unknown flag '--fast'\n(see chaintwin compare --help)\n"},
  };
  for (const auto& r : rows) {
    INFO(r.args.back());
    const Outcome o = run(r.args);
    CHECK(o.code == 2);
    CHECK(o.err == r.err);
    CHECK(o.out.empty());
  }
}

TEST_CASE("a stored run that is not in the results file is refused", "[compare]") {
  TempDb db("missing-id");
  REQUIRE(run({"run", source(kSmall), "--db", db.path}).code == 0);
  const Outcome o = run({"compare", db.path + "#9", db.path});
  CHECK(o.code == 2);
  CHECK(o.err.rfind("chaintwin compare: A (" + db.path + "#9): ", 0) == 0);
}
