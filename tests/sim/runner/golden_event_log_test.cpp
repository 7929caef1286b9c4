// Golden event logs: a few scenarios run for a fixed window must print exactly the recorded log
// (tests/sim/runner/golden/<name>.log), simulated time first on every line. A change in what the
// chain does shows up here as a readable diff. After an intended change, regenerate with
//   CHAINTWIN_UPDATE_GOLDEN_LOGS=1 ./build/tests/unit_tests "[golden_log]"
// and review the diff before committing it.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sim/results/event_log.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The first line that differs, with its number, for a readable failure.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ha = static_cast<bool>(std::getline(a, la));
    const bool hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return "";
    if (!ha || !hb || la != lb)
      return "line " + std::to_string(line) + ":\n  want: " + (ha ? la : "<end>") + "\n  got:  " + (hb ? lb : "<end>");
  }
}

}  // namespace

TEST_CASE("golden event logs: the recorded scenarios replay line for line", "[golden_log]") {
  struct Row {
    const char* scenario;
    const char* until;
    const char* log;
  };
  const Row rows[] = {
      {"scenarios/default.yaml", "30m", "default-30m.log"},
      {"scenarios/walkthroughs/four-node.scenario.yaml", "", "four-node.log"},
      {"scenarios/walkthroughs/h100-mig.scenario.yaml", "", "h100-mig.log"},
  };
  const std::string root = CHAINTWIN_SOURCE_DIR;
  const bool update = std::getenv("CHAINTWIN_UPDATE_GOLDEN_LOGS") != nullptr;
  for (const Row& row : rows) {
    INFO(row.scenario);
    auto scenario = chaintwin::sim::load_scenario(root + "/" + row.scenario);
    REQUIRE(scenario.ok());
    chaintwin::sim::RunOptions options;
    options.version = "golden";
    if (std::string(row.until).size() > 0) options.until = chaintwin::sim::SimTime::parse(row.until).value();
    chaintwin::sim::Simulation sim(std::move(scenario.value()), options);
    auto record = sim.run();
    REQUIRE(record.ok());
    // Expectations name their file as it was given; the log is compared relative to the checkout.
    std::string got = chaintwin::sim::format_event_log(record->events);
    for (size_t at = got.find(root + "/"); at != std::string::npos; at = got.find(root + "/", at))
      got.erase(at, root.size() + 1);
    const std::string path = root + "/tests/sim/runner/golden/" + row.log;
    if (update) {
      std::ofstream(path) << got;
      WARN("rewrote " << path);
      continue;
    }
    const std::string want = read_file(path);
    INFO(first_difference(want, got));
    CHECK(want == got);
  }
}
