// The scenario files shipped in scenarios/: every one loads, and the expectations they state
// about the converged chain hold. The cluster is replayed without workloads (the runner's job):
// node actions of the timeline applied at their time, the operator's controllers converged,
// then each expectation checked — so the numbers in the files are the model's, not guesses.
#include <catch2/catch.hpp>

#include <filesystem>

#include "model/device_manager/device_inventory.h"
#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/scenario/expectation_check.h"
#include "sim/scenario/scenario_loader.h"

namespace {

using namespace chaintwin;

std::string source(const std::string& rel) { return std::string(CHAINTWIN_SOURCE_DIR) + "/" + rel; }

// Applies the node actions the chain can see without workloads.
void apply(model::ClusterState& state, const sim::TimelineAction& a) {
  using K = sim::TimelineAction::Kind;
  switch (a.kind) {
    case K::kSetPartitioning: {
      auto& devices = state.devices.at(a.node);
      REQUIRE(model::set_card_partitioning(devices, a.cards, a.mode == "mig").ok());
      auto& node = state.nodes.at(a.node);
      for (const auto& [k, q] : model::device_plugin_capacity(devices)) {
        node.status.capacity[k] = q;
        node.status.allocatable[k] = q;
      }
      break;
    }
    case K::kSetManaged:
      state.nodes.at(a.node).metadata.labels["gpustack.ai/managed"] = a.value ? "true" : "false";
      break;
    case K::kCordon:
    case K::kUncordon:
      state.nodes.at(a.node).unschedulable = a.kind == K::kCordon;
      break;
    case K::kSetSetting:
      REQUIRE(model::set_setting(state.settings, a.setting_name, a.setting_value).ok());
      break;
    default:
      FAIL("the replay does not apply this action");
  }
}

// Checks every expectation at or before `until` (workload counters excluded: no workloads run).
void replay_and_check(const sim::Scenario& s, std::optional<sim::SimTime> until) {
  model::ClusterState state = s.cluster;
  size_t next_action = 0;
  for (const auto& e : s.expectations) {
    if (e.workloads || !e.at || (until && *e.at > *until)) continue;
    while (next_action < s.timeline.size() && s.timeline[next_action].at <= *e.at) apply(state, s.timeline[next_action++]);
    const auto r = model::converge(state, model::operator_controllers(), "2026-01-01T00:00:00Z");
    REQUIRE(r.ok());
    REQUIRE(r->converged);
    state = r->state;
    for (const auto& f : sim::check_expectation(e, state, {}, {})) FAIL_CHECK(f.str());
  }
}

}  // namespace

TEST_CASE("every scenario file in scenarios/ loads", "[scenario]") {
  int loaded = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source("scenarios"))) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".yaml") continue;
    const bool is_scenario = path.find(".scenario.yaml") != std::string::npos ||
                             entry.path().filename() == "default.yaml";
    if (!is_scenario) continue;
    INFO(path);
    const auto s = sim::load_scenario(path);
    if (!s.ok()) FAIL_CHECK(s.error());
    ++loaded;
  }
  CHECK(loaded >= 3);
}

TEST_CASE("the default scenario's time-0 expectations hold on the converged cluster", "[scenario]") {
  const auto s = sim::load_scenario(source("scenarios/default.yaml"));
  REQUIRE(s.ok());
  CHECK(s->cluster.nodes.size() == 5);
  CHECK(s->workloads.size() == 7);
  replay_and_check(*s, sim::SimTime());
}

TEST_CASE("the four-node walkthrough scenario's expectations hold at every stage", "[scenario]") {
  const auto s = sim::load_scenario(source("scenarios/walkthroughs/four-node.scenario.yaml"));
  REQUIRE(s.ok());
  replay_and_check(*s, std::nullopt);
}

TEST_CASE("the eight-H100 walkthrough scenario's expectations hold in configurations 1 to 4", "[scenario]") {
  const auto s = sim::load_scenario(source("scenarios/walkthroughs/h100-mig.scenario.yaml"));
  REQUIRE(s.ok());
  REQUIRE(s->timeline.size() == 3);
  replay_and_check(*s, std::nullopt);
}

TEST_CASE("a failed expectation reads scenario, time, object, field, want and got", "[scenario]") {
  const auto s = sim::load_scenario_text(
      "apiVersion: chaintwin/v1\nkind: Scenario\nhorizon: 2h\nworkloads:\n- name: chat\n  arrival: {every: 5m}\n"
      "  duration: {fixed: 1h}\n  podSets: [{request: {cpu: 1}}]\nexpect:\n"
      "- {at: 1h, clusterQueue: x, stopPolicy: None}\n"
      "- {at: end, workloads: {name: chat, admitted: \">= 4\", pending: 0}}\n"
      "- {at: end, node: n, capacity: {cpu: 4000m}, labels: {a: null, b: \"1\"}}\n",
      "s.yaml");
  REQUIRE(s.ok());
  model::ClusterState state;
  model::ClusterQueue q;
  q.metadata.name = "x";
  q.spec.stop_policy = model::StopPolicy::kHold;
  state.cluster_queues["x"] = q;
  model::Node n;
  n.metadata.name = "n";
  n.metadata.labels = {{"a", "x"}};
  n.status.capacity["cpu"] = model::Quantity::from_int(4);
  state.nodes["n"] = n;
  sim::WorkloadCounters chat;
  chat.admitted = 3;
  chat.pending = 0;

  auto strs = [](const std::vector<sim::ExpectationFailure>& fs) {
    std::vector<std::string> out;
    for (const auto& f : fs) out.push_back(f.str());
    return out;
  };
  CHECK(strs(sim::check_expectation(s->expectations[0], state, {}, {})) ==
        std::vector<std::string>{"s.yaml:10: at 1h: ClusterQueue/x: stopPolicy: want None, got Hold"});
  CHECK(strs(sim::check_expectation(s->expectations[1], state, {}, {{"chat", chat}})) ==
        std::vector<std::string>{"s.yaml:11: at end: Workloads/chat: admitted: want >= 4, got 3"});
  chat.admitted = 4;
  CHECK(sim::check_expectation(s->expectations[1], state, {}, {{"chat", chat}}).empty());
  // 4000m and 4 are the same quantity; an absent-required label that is there, a missing one.
  CHECK(strs(sim::check_expectation(s->expectations[2], state, {}, {})) ==
        std::vector<std::string>{"s.yaml:12: at end: Node/n: labels[a]: want (absent), got x",
                                 "s.yaml:12: at end: Node/n: labels[b]: want 1, got (absent)"});
}

TEST_CASE("counter comparisons hold exactly when their operator says", "[scenario]") {
  const std::vector<std::tuple<std::string, int64_t, int64_t, bool>> table{
      {"==", 4, 4, true}, {"==", 4, 5, false}, {"!=", 4, 5, true}, {">=", 480, 480, true}, {">=", 480, 479, false},
      {"<=", 3, 4, false}, {">", 0, 1, true}, {">", 0, 0, false}, {"<", 10, 9, true}, {"<", 10, 10, false},
  };
  for (const auto& [op, value, got, want] : table) {
    const sim::Comparison c{op, value};
    INFO(c.str() << " on " << got);
    CHECK(c.holds(got) == want);
  }
  CHECK(sim::Comparison{"==", 4}.str() == "4");
  CHECK(sim::Comparison{"<=", 3}.str() == "<= 3");
}

TEST_CASE("queue annotations, the type's phase and its CPU reading are checked as the scenario states them", "[scenario]") {
  const auto s = sim::load_scenario_text(
      "apiVersion: chaintwin/v1\nkind: Scenario\nhorizon: 2h\nexpect:\n"
      "- {at: 1h, clusterQueue: x, annotations: {topology.gpustack.ai/empty-plan-hold: \"true\", m: null}}\n"
      "- {at: 1h, instanceType: t, phase: Inactive, status: {cpu: \"48/72\"}}\n"
      "- {at: 1h, instanceType: t, phase: Active}\n",
      "s.yaml");
  REQUIRE(s.ok());
  model::ClusterState state;
  model::ClusterQueue q;
  q.metadata.name = "x";
  q.metadata.annotations = {{"topology.gpustack.ai/empty-plan-hold", "true"}};
  state.cluster_queues["x"] = q;
  model::InstanceType t;
  t.metadata.name = "t";
  t.status.phase = "Inactive";
  t.status.cpu = {72, 48, 60};  // capacity, onceMaxRequest, remaining
  state.instance_types["t"] = t;
  auto strs = [](const std::vector<sim::ExpectationFailure>& fs) {
    std::vector<std::string> out;
    for (const auto& f : fs) out.push_back(f.str());
    return out;
  };
  CHECK(sim::check_expectation(s->expectations[0], state, {}, {}).empty());
  CHECK(sim::check_expectation(s->expectations[1], state, {}, {}).empty());
  CHECK(strs(sim::check_expectation(s->expectations[2], state, {}, {})) ==
        std::vector<std::string>{"s.yaml:7: at 1h: InstanceType/t: status.phase: want Active, got Inactive"});
  state.cluster_queues["x"].metadata.annotations["m"] = "draining";
  state.cluster_queues["x"].metadata.annotations.erase("topology.gpustack.ai/empty-plan-hold");
  state.instance_types["t"].status.cpu = {72, 16, 16};
  CHECK(strs(sim::check_expectation(s->expectations[0], state, {}, {})) ==
        std::vector<std::string>{"s.yaml:5: at 1h: ClusterQueue/x: annotations[m]: want (absent), got draining",
                                 "s.yaml:5: at 1h: ClusterQueue/x: annotations[topology.gpustack.ai/empty-plan-hold]: want true, got (absent)"});
  CHECK(strs(sim::check_expectation(s->expectations[1], state, {}, {})) ==
        std::vector<std::string>{"s.yaml:6: at 1h: InstanceType/t: status.cpu: want 48/72, got 16/72"});
  // An unknown phase is refused at load.
  CHECK_FALSE(sim::load_scenario_text(
                  "apiVersion: chaintwin/v1\nkind: Scenario\nexpect:\n- {at: 1h, instanceType: t, phase: Running}\n", "b.yaml")
                  .ok());
}
