// Two timeline additions and the expectation fields that read them: `kubelet-restart` (the device
// plugins' pools read 0 for `for`, then register again — operator-domain.md §2.6, §10.5) and
// add-node's `ledgerAfter` (the Devices record exists but its ledger is published later — §10.2);
// expectations on node allocatable, absent capacity keys, ClusterQueue conditions and
// ResourceFlavor presence.
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

const char* kT4Node = R"(
    - name: node-t4
      cpu: {vendor: Intel, name: "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", cores: 16}
      memory: 64Gi
      accelerators: {manufacturer: nvidia, product: Tesla T4, count: 2, memory: 16Gi}
)";

std::string scenario_text(const std::string& nodes, const std::string& timeline) {
  return std::string(R"(apiVersion: chaintwin/v1
kind: Scenario
metadata: {name: timeline-additions}
seed: 1
horizon: 30m
cluster:
  nodes:
)") + nodes + "timeline:\n" + timeline;
}

std::string allocatable_of(const sim::Simulation& s, const std::string& node, const std::string& key) {
  const auto& c = s.cluster().nodes.at(node).status.allocatable;
  const auto it = c.find(key);
  return it == c.end() ? "(absent)" : it->second.to_string();
}

}  // namespace

TEST_CASE("a kubelet restart zeroes the device plugin pools and drops the counting keys until they register again",
          "[runner][timeline]") {
  const std::string text =
      scenario_text(kT4Node, "  - {at: 5m, action: kubelet-restart, node: node-t4, for: 2m}\n");
  struct Row {
    int64_t seconds;
    const char* gpu;
    const char* sliced;
    const char* sliced_units;  // a worker-owned counting key
  };
  const Row rows[] = {
      {299, "2", "256", "3200k"},
      {301, "0", "0", "(absent)"},
      {419, "0", "0", "(absent)"},
      {421, "2", "256", "3200k"},
  };
  for (const auto& r : rows) {
    INFO("at " << r.seconds << "s");
    const auto s = run_until(text, sim::SimTime::seconds(r.seconds));
    CHECK(capacity_of(*s, "node-t4", "nvidia.com/gpu") == r.gpu);
    CHECK(allocatable_of(*s, "node-t4", "nvidia.com/gpu") == r.gpu);
    CHECK(capacity_of(*s, "node-t4", "nvidia.com/gpu.sliced") == r.sliced);
    CHECK(capacity_of(*s, "node-t4", "nvidia.com/gpu.sliced.units") == r.sliced_units);
  }
}

TEST_CASE("a node added with ledgerAfter has a Devices record without ledger until the delay has passed",
          "[runner][timeline]") {
  const std::string text = scenario_text(R"(
    - name: node-cpu
)", R"(  - at: 1m
    action: add-node
    ledgerAfter: 2m
    node:
      name: node-h100
      accelerators:
        manufacturer: nvidia
        product: NVIDIA H100 80GB HBM3
        count: 1
        memory: 80Gi
        partitioning: [{cards: [0], mode: mig, instances: ["3g.40gb@0"]}]
)");
  struct Row {
    int64_t seconds;
    bool ledger;
    const char* one_g;  // nvidia.com/gpu.partitioned.mig-1g.10gb
  };
  const Row rows[] = {
      {90, false, "7"},   // no ledger: the static ceiling
      {179, false, "7"},
      {181, true, "3"},   // the pre-carved 3g.40gb@0 leaves slices 4-6
  };
  for (const auto& r : rows) {
    INFO("at " << r.seconds << "s");
    const auto s = run_until(text, sim::SimTime::seconds(r.seconds));
    const auto& devices = s->cluster().devices.at("node-h100");
    CHECK(devices.status.groups.empty() == !r.ledger);
    CHECK(capacity_of(*s, "node-h100", "nvidia.com/gpu.partitioned.mig-1g.10gb") == r.one_g);
  }
}

TEST_CASE("the loader refuses kubelet-restart without a positive for and ledgerAfter on a node without cards",
          "[scenario][timeline]") {
  const char* bad[] = {
      "  - {at: 5m, action: kubelet-restart, node: node-t4}\n",
      "  - {at: 5m, action: kubelet-restart, node: node-t4, for: 0s}\n",
      "  - {at: 5m, action: kubelet-restart, node: nowhere, for: 1m}\n",
      "  - {at: 5m, action: add-node, ledgerAfter: 1m, node: {name: cpu-only}}\n",
      "  - {at: 5m, action: cordon, node: node-t4, for: 1m}\n",
      "  - {at: 5m, action: add-node, detectAfter: 1m, node: {name: cpu-only}}\n",
      "  - {at: 5m, action: add-node, detectAfter: 0s, node: {name: b, accelerators: {manufacturer: nvidia, product: NVIDIA A10G, count: 1}}}\n",
      "  - {at: 5m, action: add-node, detectAfter: 1m, ledgerAfter: 1m, node: {name: b, accelerators: {manufacturer: nvidia, product: NVIDIA A10G, count: 1}}}\n",
  };
  for (const char* timeline : bad) {
    INFO(timeline);
    CHECK_FALSE(sim::load_scenario_text(scenario_text(kT4Node, timeline), "bad.yaml").ok());
  }
  CHECK(sim::load_scenario_text(scenario_text(kT4Node, "  - {at: 5m, action: kubelet-restart, node: node-t4, for: 1m}\n"),
                                "good.yaml")
            .ok());
  CHECK(sim::load_scenario_text(
            scenario_text(kT4Node, "  - {at: 5m, action: add-node, detectAfter: 1m, node: {name: b, accelerators: "
                                   "{manufacturer: nvidia, product: NVIDIA A10G, count: 1}}}\n"),
            "good.yaml")
            .ok());
}

TEST_CASE("node, ClusterQueue and ResourceFlavor expectations read allocatable, absent keys, conditions and presence",
          "[scenario][expect]") {
  model::ClusterState state;
  model::Node node;
  node.metadata.name = "n";
  node.status.capacity["nvidia.com/gpu"] = model::Quantity::from_int(2);
  node.status.allocatable["nvidia.com/gpu"] = model::Quantity::from_int(1);
  state.nodes["n"] = node;
  model::ClusterQueue cq;
  cq.metadata.name = "q";
  cq.status.conditions.push_back({"TopologyReady", "False", "Migrating", "", 0});
  state.cluster_queues["q"] = cq;
  model::ResourceFlavor rf;
  rf.metadata.name = "rf";
  rf.metadata.deletion_timestamp = "2026-01-01T00:05:00Z";
  state.resource_flavors["rf"] = rf;

  struct Row {
    const char* expect;
    size_t failures;
  };
  const Row rows[] = {
      {"{at: 1s, node: n, allocatable: {nvidia.com/gpu: 1}}", 0},
      {"{at: 1s, node: n, allocatable: {nvidia.com/gpu: 2}}", 1},
      {"{at: 1s, node: n, allocatable: {nvidia.com/gpu.shared: null}}", 0},
      {"{at: 1s, node: n, allocatable: {nvidia.com/gpu: null}}", 1},
      {"{at: 1s, node: n, capacity: {nvidia.com/gpu.sliced.units: null, nvidia.com/gpu: 2}}", 0},
      {"{at: 1s, node: n, capacity: {nvidia.com/gpu: null}}", 1},
      {"{at: 1s, clusterQueue: q, conditions: {TopologyReady: False/Migrating}}", 0},
      {"{at: 1s, clusterQueue: q, conditions: {TopologyReady: \"False\"}}", 0},
      {"{at: 1s, clusterQueue: q, conditions: {TopologyReady: True/Ready}}", 1},
      {"{at: 1s, clusterQueue: q, conditions: {Active: \"True\"}}", 1},
      {"{at: 1s, resourceFlavor: rf, exists: true, terminating: true}", 0},
      {"{at: 1s, resourceFlavor: rf, terminating: false}", 1},
      {"{at: 1s, resourceFlavor: gone, exists: false}", 0},
      {"{at: 1s, resourceFlavor: gone, exists: true}", 1},
  };
  for (const auto& r : rows) {
    INFO(r.expect);
    const std::string text = scenario_text("    - {name: n}\n", "  []\n") + "expect:\n  - " + r.expect + "\n";
    auto scenario = sim::load_scenario_text(text, "expect.yaml");
    REQUIRE(scenario.ok());
    REQUIRE(scenario->expectations.size() == 1);
    const auto failures = sim::check_expectation(scenario->expectations[0], state, {}, {});
    CHECK(failures.size() == r.failures);
  }
  const char* bad[] = {
      "{at: 1s, clusterQueue: q, conditions: {TopologyReady: Maybe/Ready}}",
      "{at: 1s, resourceFlavor: rf, stopPolicy: None}",
      "{at: 1s, node: n, exists: true}",
  };
  for (const char* e : bad) {
    INFO(e);
    CHECK_FALSE(
        sim::load_scenario_text(scenario_text("    - {name: n}\n", "  []\n") + "expect:\n  - " + e + "\n", "bad.yaml")
            .ok());
  }
}
