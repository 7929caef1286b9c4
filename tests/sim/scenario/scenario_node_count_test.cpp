// cluster.nodes entries with a count (scenario_cluster.cpp: read_node_spec): `name` + count names
// the first Node `name` and the others `<name>-1`, `<name>-2`, …; count 0 contributes no Node;
// every collision and every reference to a Node that is not there is an error with file:line.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario_loader.h"

namespace {

using namespace chaintwin;

// Lines 1-3; `nodes` entries start on line 6.
const std::string kHead = "apiVersion: chaintwin/v1\nkind: Scenario\nhorizon: 2h\ncluster:\n  nodes:\n";

std::vector<std::string> node_names(const sim::Scenario& s) {
  std::vector<std::string> names;
  for (const auto& [name, node] : s.cluster.nodes) names.push_back(name);
  return names;
}

}  // namespace

TEST_CASE("a node entry's count names its Nodes after the entry's name or prefix", "[scenario][nodes]") {
  using Names = std::vector<std::string>;
  struct Row {
    const char* nodes;
    Names want;  // sorted
  };
  const Row rows[] = {
      {"  - {name: gpu}\n", {"gpu"}},
      {"  - {name: gpu, count: 1}\n", {"gpu"}},
      {"  - {name: gpu, count: 3}\n", {"gpu", "gpu-1", "gpu-2"}},
      {"  - {name: gpu, count: 0}\n", {}},
      {"  - {namePrefix: gpu-, count: 2}\n", {"gpu-0", "gpu-1"}},
      {"  - {namePrefix: gpu-, count: 0}\n", {}},
      {"  - {name: gpu, count: 0}\n  - {name: cpu, count: 2}\n", {"cpu", "cpu-1"}},
  };
  for (const auto& r : rows) {
    INFO(r.nodes);
    const auto s = sim::load_scenario_text(kHead + r.nodes, "t.yaml");
    INFO((s.ok() ? std::string() : s.error()));
    REQUIRE(s.ok());
    CHECK(node_names(*s) == r.want);
    CHECK(s->cluster.devices.empty());
  }
}

TEST_CASE("node counts that are out of range, collide or name what is not there are refused", "[scenario][nodes]") {
  const std::vector<std::pair<std::string, std::string>> table{
      {"  - {name: gpu, count: -1}\n",
       "t.yaml:6: cluster.nodes[0].count: -1 is out of range (expected an integer between 0 and 100000)"},
      {"  - {name: gpu, count: 100001}\n",
       "t.yaml:6: cluster.nodes[0].count: 100001 is out of range (expected an integer between 0 and 100000)"},
      {"  - {name: gpu, namePrefix: g-, count: 2}\n",
       "t.yaml:6: cluster.nodes[0].name: give either name or namePrefix with count, not both"},
      {"  - {count: 2}\n", "t.yaml:6: cluster.nodes[0]: missing field 'name' (name, or namePrefix and count)"},
      {"  - {name: gpu, count: 3}\n  - {name: gpu-2}\n",
       "t.yaml:7: cluster.nodes[1]: node name 'gpu-2' is used twice (first at t.yaml:6)"},
      {"  - {name: gpu, count: 2}\n  - {namePrefix: gpu-, count: 4}\n",
       "t.yaml:7: cluster.nodes[1]: node name 'gpu-1' is used twice (first at t.yaml:6)"},
      {"  - {name: gpu-1}\n  - {name: gpu, count: 2}\n",
       "t.yaml:7: cluster.nodes[1]: node name 'gpu-1' is used twice (first at t.yaml:6)"},
      // count 0: the Node a timeline action names no longer exists.
      {"  - {name: gpu, count: 0}\ntimeline:\n- {at: 1h, action: cordon, node: gpu}\n",
       "t.yaml:8: timeline[0].node: no node 'gpu' exists at 1h"},
      {"  - {name: gpu, count: 2}\ntimeline:\n- {at: 1h, action: remove-node, node: gpu-2}\n",
       "t.yaml:8: timeline[0].node: no node 'gpu-2' exists at 1h"},
      {"  - {name: gpu}\ntimeline:\n- {at: 1h, action: add-node, node: {name: x, count: 2}}\n",
       "t.yaml:8: timeline[0].node.count: an added node is one node (no count)"},
  };
  for (const auto& [nodes, want] : table) {
    INFO(nodes);
    const auto s = sim::load_scenario_text(kHead + nodes, "t.yaml");
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == want);
  }
}

TEST_CASE("a timeline action may name every Node a counted entry made", "[scenario][nodes]") {
  const auto s = sim::load_scenario_text(
      kHead + "  - {name: gpu, count: 3}\ntimeline:\n- {at: 1h, action: cordon, node: gpu-2}\n"
              "- {at: 1h, action: remove-node, node: gpu}\n",
      "t.yaml");
  INFO((s.ok() ? std::string() : s.error()));
  REQUIRE(s.ok());
  CHECK(s->timeline.size() == 2);
}
