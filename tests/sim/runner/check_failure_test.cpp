// A wrong expectation is reported as exactly that failure, with want and got, and makes
// `chaintwin check` exit 1 with its totals — so the regression scenarios can fail. The scenario is
// a copy of scenarios/regression/two-30-percent-slices-share-a-card-two-60-do-not.yaml (read as
// text) with one number changed: the running count at 1m, 2 → 3.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "sim/cli/command_line.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace sim = chaintwin::sim;

namespace {

const std::string kFile = "scenarios/regression/two-30-percent-slices-share-a-card-two-60-do-not.yaml";
const std::string kRight = "workloads: {name: thirty, admitted: 2, running: 2, pending: 0, retries: 0}";
const std::string kWrong = "workloads: {name: thirty, admitted: 2, running: 3, pending: 0, retries: 0}";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The original text, and the copy with the one wrong number.
std::pair<std::string, std::string> texts() {
  const std::string original = read_text(std::string(CHAINTWIN_SOURCE_DIR) + "/" + kFile);
  const size_t at = original.find(kRight);
  REQUIRE(at != std::string::npos);
  REQUIRE(original.find(kRight, at + 1) == std::string::npos);
  std::string wrong = original;
  wrong.replace(at, kRight.size(), kWrong);
  return {original, wrong};
}

// 1-based line of the `- at:` item that holds `needle` (the line before it).
int expectation_line(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  int line = 1;
  for (size_t i = 0; i < at; ++i) line += text[i] == '\n' ? 1 : 0;
  return line - 1;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "chaintwin-check-failure-test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("one wrong number in a scenario is reported as exactly that failure", "[runner][check_failure]") {
  const auto [original, wrong] = texts();
  auto scenario = sim::load_scenario_text(wrong, "wrong.yaml");
  REQUIRE(scenario.ok());
  sim::Simulation simulation(std::move(*scenario), {});
  REQUIRE(simulation.run().ok());
  REQUIRE(simulation.failures().size() == 1);
  const sim::ExpectationFailure& f = simulation.failures().front();
  CHECK(f.where.file == "wrong.yaml");
  CHECK(f.where.line == expectation_line(wrong, kWrong));
  CHECK(f.at == "1m");
  CHECK(f.object == "Workloads/thirty");
  CHECK(f.field == "running");
  CHECK(f.want == "3");
  CHECK(f.got == "2");

  // The unchanged scenario holds everywhere.
  auto right = sim::load_scenario_text(original, "right.yaml");
  REQUIRE(right.ok());
  sim::Simulation control(std::move(*right), {});
  REQUIRE(control.run().ok());
  CHECK(control.failures().empty());
}

TEST_CASE("chaintwin check exits 1 on the wrong number and prints the failure and the totals", "[runner][check_failure]") {
  const auto [original, wrong] = texts();
  const std::string wrong_path = write_temp("wrong.yaml", wrong);
  const std::string right_path = write_temp("right.yaml", original);
  size_t expectations = 0;
  for (size_t i = original.find("\n  - at: "); i != std::string::npos; i = original.find("\n  - at: ", i + 1))
    ++expectations;
  REQUIRE(expectations == 12);

  std::ostringstream out, err;
  CHECK(chaintwin::cli::dispatch({"check", wrong_path}, out, err) == 1);
  const std::string failure = wrong_path + ":" + std::to_string(expectation_line(wrong, kWrong)) +
                              ": at 1m: Workloads/thirty: running: want 3, got 2\n";
  CHECK(out.str() == failure + "11 passed, 1 failed\n");
  CHECK(err.str().empty());

  std::ostringstream out2, err2;
  CHECK(chaintwin::cli::dispatch({"check", right_path}, out2, err2) == 0);
  CHECK(out2.str() == "12 passed, 0 failed\n");

  // Both at once: the totals add up over the scenarios.
  std::ostringstream out3, err3;
  CHECK(chaintwin::cli::dispatch({"check", right_path, wrong_path}, out3, err3) == 1);
  CHECK(out3.str() == failure + "23 passed, 1 failed\n");
}
