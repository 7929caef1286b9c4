// cluster.nodes[].podsOutsideKueue (scenario_cluster.cpp): Pods bound and Running from the start,
// named after the entry's Node count, their cards granted by the device plugin at load; bad
// entries are refused with file:line.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario_loader.h"

namespace {

using namespace chaintwin;

// Lines 1-5; `nodes` entries start on line 6.
const std::string kHead = "apiVersion: chaintwin/v1\nkind: Scenario\nhorizon: 2h\ncluster:\n  nodes:\n";
const std::string kT4 = "accelerators: {manufacturer: nvidia, product: Tesla T4, count: 1, memory: 16Gi}";

}  // namespace

TEST_CASE("Pods outside Kueue are bound, Running and hold the cards the device plugin gave them", "[scenario][nodes]") {
  const auto s = sim::load_scenario_text(
      kHead + "  - {name: gpu, count: 2, " + kT4 +
          ",\n     podsOutsideKueue: [{name: ollama, requests: {cpu: 2, nvidia.com/gpu: 1}},"
          " {name: sidecar, namespace: infra, requests: {memory: 1Gi}}]}\n",
      "t.yaml");
  INFO((s.ok() ? std::string() : s.error()));
  REQUIRE(s.ok());
  std::vector<std::string> got;
  for (const auto& p : s->pods_outside_kueue) {
    got.push_back(p.metadata.namespace_ + "/" + p.metadata.name + "@" + p.node_name + " cards " +
                  std::to_string(p.allocations.size()));
    CHECK(p.phase == model::PodPhase::kRunning);
  }
  CHECK(got == std::vector<std::string>{"default/ollama@gpu cards 1", "infra/sidecar@gpu cards 0",
                                        "default/ollama-1@gpu-1 cards 1", "infra/sidecar-1@gpu-1 cards 0"});
  // The card is charged in each Node's ledger as for any Pod: exclusive, nothing remaining.
  for (const char* node : {"gpu", "gpu-1"}) {
    const auto& row = s->cluster.devices.at(node).status.groups.at(0).accelerators.at(0);
    CHECK(row.mode == model::DeviceAllocationMode::kExclusive);
  }
  CHECK(s->cluster.namespaces.count("infra") == 1);
}

TEST_CASE("Pods outside Kueue that are malformed, collide or do not fit are refused", "[scenario][nodes]") {
  const std::vector<std::pair<std::string, std::string>> table{
      {"  - {name: gpu, podsOutsideKueue: [{requests: {cpu: 1}}]}\n",
       "t.yaml:6: cluster.nodes[0].podsOutsideKueue[0]: missing field 'name' (the Pod's name)"},
      {"  - {name: gpu, podsOutsideKueue: [{name: x}]}\n",
       "t.yaml:6: cluster.nodes[0].podsOutsideKueue[0]: missing field 'requests' (requests: {resource: quantity})"},
      {"  - {name: gpu, podsOutsideKueue: [{name: x, requests: {}}]}\n",
       "t.yaml:6: cluster.nodes[0].podsOutsideKueue[0].requests: expected a mapping of resource names to quantities"},
      {"  - {name: gpu, podsOutsideKueue: [{name: Bad_Name, requests: {cpu: 1}}]}\n",
       "t.yaml:6: cluster.nodes[0].podsOutsideKueue[0].name: 'Bad_Name' is not a valid Pod name"},
      {"  - {name: gpu, podsOutsideKueue: [{name: x, requests: {cpu: 1}}, {name: x, requests: {cpu: 1}}]}\n",
       "t.yaml:6: cluster.nodes[0].podsOutsideKueue[1]: Pod 'default/x' is given twice"},
      {"  - {name: a, podsOutsideKueue: [{name: x, requests: {cpu: 1}}]}\n"
       "  - {name: b, podsOutsideKueue: [{name: x, requests: {cpu: 1}}]}\n",
       "t.yaml:7: podsOutsideKueue: Pod 'default/x' is given twice (also on node 'a')"},
  };
  for (const auto& [nodes, want] : table) {
    INFO(nodes);
    const auto s = sim::load_scenario_text(kHead + nodes, "t.yaml");
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == want);
  }
  const auto two = sim::load_scenario_text(
      kHead + "  - {name: gpu, " + kT4 + ", podsOutsideKueue: [{name: x, requests: {nvidia.com/gpu: 2}}]}\n", "t.yaml");
  REQUIRE_FALSE(two.ok());
  CHECK(two.error().rfind("t.yaml:6: cluster.nodes[0].podsOutsideKueue[0]: Pod 'x' does not fit node 'gpu': ", 0) == 0);
  const auto added = sim::load_scenario_text(
      kHead + "  - {name: gpu}\ntimeline:\n- {at: 1h, action: add-node, node: {name: y, podsOutsideKueue: []}}\n",
      "t.yaml");
  REQUIRE_FALSE(added.ok());
  CHECK(added.error() == "t.yaml:8: timeline[0].node.podsOutsideKueue: an added node starts without Pods (give "
                         "podsOutsideKueue in cluster.nodes)");
}
