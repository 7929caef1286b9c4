// The `detection-pass` timeline action, `deviceManager.noFastFailed` and the `devices:` expectation
// (model/device_manager/detection_pass.h, operator-domain §10.3): what the loader accepts and refuses, and what a
// run does with passes around the first detection.
#include <string>

#include <catch2/catch.hpp>

#include "simulation_probe.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/expectation_check.h"
#include "sim/scenario/scenario_loader.h"

namespace sim = chaintwin::sim;
namespace model = chaintwin::model;

namespace {

using chaintwin::sim::testing::capacity_of;
using chaintwin::sim::testing::run_until;

std::string scenario_text(const std::string& top, const std::string& timeline) {
  return std::string(R"(apiVersion: chaintwin/v1
kind: Scenario
metadata: {name: detection-passes}
seed: 1
horizon: 30m
)") + top + R"(cluster:
  nodes:
    - name: node-t4
      cpu: {vendor: Intel, name: "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", cores: 16}
      accelerators: {manufacturer: nvidia, product: Tesla T4, count: 2, memory: 16Gi}
    - name: cpu-only
      cpu: {vendor: AMD, name: "AMD EPYC 7763 64-Core Processor", cores: 16}
timeline:
)" + timeline;
}

// The Devices record's cards, or -1 when there is no record.
int64_t cards_of(const sim::Simulation& s, const std::string& node) {
  const auto it = s.cluster().devices.find(node);
  if (it == s.cluster().devices.end()) return -1;
  int64_t n = 0;
  for (const auto& g : it->second.spec.groups) n += static_cast<int64_t>(g.accelerators.size());
  return n;
}

const char* kNodeB =
    "{name: node-b, accelerators: {manufacturer: nvidia, product: Tesla T4, count: 1, memory: 16Gi}}";

}  // namespace

TEST_CASE("the loader refuses a detection-pass without a known outcome, on a node without cards or for a "
          "manufacturer the node has not",
          "[scenario][timeline]") {
  const char* bad[] = {
      "  - {at: 5m, action: detection-pass, node: node-t4}\n",
      "  - {at: 5m, action: detection-pass, node: node-t4, outcome: found}\n",
      "  - {at: 5m, action: detection-pass, node: node-t4, outcome: Lost}\n",
      "  - {at: 5m, action: detection-pass, node: cpu-only, outcome: Found}\n",
      "  - {at: 5m, action: detection-pass, node: nowhere, outcome: Found}\n",
      "  - {at: 5m, action: detection-pass, node: node-t4, outcome: Found, manufacturer: amd}\n",
      "  - {at: 5m, action: detection-pass, node: node-t4, outcome: Found, for: 1m}\n",
  };
  for (const char* timeline : bad) {
    INFO(timeline);
    CHECK_FALSE(sim::load_scenario_text(scenario_text("", timeline), "bad.yaml").ok());
  }
  const char* good[] = {
      "  - {at: 5m, action: detection-pass, node: node-t4, outcome: Failed}\n",
      "  - {at: 5m, action: detection-pass, node: node-t4, outcome: NothingFound, manufacturer: nvidia}\n",
      "  - {at: 5m, action: detection-pass, node: node-t4, outcome: Found}\n",
  };
  for (const char* timeline : good) {
    INFO(timeline);
    CHECK(sim::load_scenario_text(scenario_text("", timeline), "good.yaml").ok());
  }
}

TEST_CASE("the loader reads deviceManager.noFastFailed and refuses any other Device Manager flag",
          "[scenario]") {
  const auto on = sim::load_scenario_text(scenario_text("deviceManager: {noFastFailed: true}\n", "  []\n"), "on.yaml");
  REQUIRE(on.ok());
  CHECK(on->device_manager.no_fast_failed);
  const auto off = sim::load_scenario_text(scenario_text("", "  []\n"), "off.yaml");
  REQUIRE(off.ok());
  CHECK_FALSE(off->device_manager.no_fast_failed);
  CHECK_FALSE(sim::load_scenario_text(scenario_text("deviceManager: {noPciCheck: true}\n", "  []\n"), "bad.yaml").ok());
  CHECK_FALSE(sim::load_scenario_text(scenario_text("deviceManager: {noFastFailed: maybe}\n", "  []\n"), "bad.yaml").ok());
}

TEST_CASE("before the first detection a Devices record exists only with --no-fast-failed", "[runner][detection]") {
  const std::string timeline = std::string("  - {at: 5m, action: add-node, detectAfter: 10m, node: ") + kNodeB + "}\n";
  struct Row {
    const char* top;
    int64_t cards_before;  // at 6m
  };
  const Row table[] = {{"", -1}, {"deviceManager: {noFastFailed: true}\n", 0}};
  for (const auto& row : table) {
    INFO(row.top);
    auto before = run_until(scenario_text(row.top, timeline), sim::SimTime::minutes(6));
    CHECK(cards_of(*before, "node-b") == row.cards_before);
    CHECK(capacity_of(*before, "node-b", "nvidia.com/gpu") == "(absent)");
    auto after = run_until(scenario_text(row.top, timeline), sim::SimTime::minutes(16));
    CHECK(cards_of(*after, "node-b") == 1);
    CHECK(capacity_of(*after, "node-b", "nvidia.com/gpu") == "1");
  }
}

TEST_CASE("a pass that finds the cards before the scheduled first detection publishes them early",
          "[runner][detection]") {
  const std::string timeline = std::string("  - {at: 5m, action: add-node, detectAfter: 10m, node: ") + kNodeB +
                               "}\n  - {at: 7m, action: detection-pass, node: node-b, outcome: Found}\n";
  auto early = run_until(scenario_text("", timeline), sim::SimTime::minutes(8));
  CHECK(cards_of(*early, "node-b") == 1);
  CHECK(capacity_of(*early, "node-b", "nvidia.com/gpu") == "1");
  auto later = run_until(scenario_text("", timeline), sim::SimTime::minutes(16));
  CHECK(cards_of(*later, "node-b") == 1);
  bool noted = false;
  for (const auto& e : later->record().events)
    noted = noted || e.message.find("first detection: the pass detected the nvidia accelerators already published") !=
                         std::string::npos;
  CHECK(noted);
}

TEST_CASE("passes that fail or find nothing before the first detection publish nothing", "[runner][detection]") {
  const std::string timeline = std::string("  - {at: 5m, action: add-node, detectAfter: 10m, node: ") + kNodeB +
                               "}\n  - {at: 6m, action: detection-pass, node: node-b, outcome: Failed}\n"
                               "  - {at: 7m, action: detection-pass, node: node-b, outcome: NothingFound}\n";
  auto s = run_until(scenario_text("", timeline), sim::SimTime::minutes(8));
  CHECK(cards_of(*s, "node-b") == -1);
  CHECK(capacity_of(*s, "node-b", "nvidia.com/gpu") == "(absent)");
  int64_t held_back = 0;
  for (const auto& e : s->record().events)
    if (e.message.find("manufacturer nvidia is expected but not detected") != std::string::npos) ++held_back;
  CHECK(held_back == 2);
}

TEST_CASE("an undetected node that leaves and joins again is detected afresh", "[runner][detection]") {
  const std::string timeline = std::string(
      "  - {at: 5m, action: detection-pass, node: node-t4, outcome: NothingFound}\n"
      "  - {at: 6m, action: remove-node, node: node-t4}\n"
      "  - at: 7m\n"
      "    action: add-node\n"
      "    node: {name: node-t4, accelerators: {manufacturer: nvidia, product: Tesla T4, count: 2, memory: 16Gi}}\n"
      "  - {at: 8m, action: detection-pass, node: node-t4, outcome: Failed}\n");
  auto undetected = run_until(scenario_text("", timeline), sim::SimTime::seconds(330));
  CHECK(cards_of(*undetected, "node-t4") == 0);
  CHECK(capacity_of(*undetected, "node-t4", "nvidia.com/gpu") == "0");
  auto rejoined = run_until(scenario_text("", timeline), sim::SimTime::minutes(9));
  CHECK(cards_of(*rejoined, "node-t4") == 2);
  CHECK(capacity_of(*rejoined, "node-t4", "nvidia.com/gpu") == "2");
}

TEST_CASE("a devices expectation reads the record's presence and its cards", "[scenario][expect]") {
  model::ClusterState state;
  model::Devices empty;
  empty.metadata.name = "empty";
  state.devices["empty"] = empty;
  model::Devices two;
  two.metadata.name = "two";
  two.spec.groups.resize(1);
  two.spec.groups[0].manufacturer = "nvidia";
  two.spec.groups[0].accelerators.resize(2);
  state.devices["two"] = two;
  struct Row {
    const char* expect;
    size_t failures;
  };
  const Row table[] = {
      {"{at: 1m, devices: empty, exists: true, cards: 0}", 0},
      {"{at: 1m, devices: two, cards: 2}", 0},
      {"{at: 1m, devices: two, cards: 1}", 1},
      {"{at: 1m, devices: gone, exists: false}", 0},
      {"{at: 1m, devices: gone, exists: true}", 1},
      {"{at: 1m, devices: gone, cards: 0}", 1},
  };
  for (const auto& row : table) {
    INFO(row.expect);
    const std::string text = scenario_text("", "  []\n") + "expect:\n  - " + row.expect + "\n";
    const auto s = sim::load_scenario_text(text, "expect.yaml");
    REQUIRE(s.ok());
    REQUIRE(s->expectations.size() == 1);
    const auto failures = sim::check_expectation(s->expectations[0], state, {}, {});
    CHECK(failures.size() == row.failures);
  }
  CHECK_FALSE(sim::load_scenario_text(scenario_text("", "  []\n") + "expect:\n  - {at: 1m, devices: two, labels: {}}\n",
                                      "bad.yaml")
                  .ok());
}
