#include <string>

#include <catch2/catch.hpp>

#include "model/stage4/topology_snapshot_validation.h"

using namespace chaintwin::model;

namespace {

const std::string kZone = "topology.gpustack.ai/zone";
const std::string kRack = "topology.gpustack.ai/rack";
const std::string kStdZone = "topology.kubernetes.io/zone";

Node node(const std::string& name, StringMap labels) {
  Node n;
  n.metadata.name = name;
  n.metadata.labels = std::move(labels);
  return n;
}

// a and b are selected (pool=gpu); c is not. a carries the standard zone z1, b none.
NodeTable cluster() {
  return {{"a", node("a", {{"pool", "gpu"}, {kStdZone, "z1"}})},
          {"b", node("b", {{"pool", "gpu"}})},
          {"c", node("c", {})}};
}

TopologySource source(std::vector<std::string> levels, std::string prefix = "") {
  TopologySource s;
  s.metadata.name = "inventory";
  s.node_selector.match_labels = {{"pool", "gpu"}};
  s.levels = std::move(levels);
  s.additional_write_prefix = std::move(prefix);
  s.arm = "configMap";
  s.config_map = TopologySourceConfigMap{{"gpustack-system", "inventory"}, "snapshot.yaml", 600'000'000};
  return s;
}

TopologySnapshot snapshot(std::map<std::string, StringMap> nodes, std::string revision = "r1") {
  TopologySnapshot s;
  s.revision = std::move(revision);
  s.nodes = std::move(nodes);
  return s;
}

}  // namespace

TEST_CASE("every fault in a snapshot rejects the whole revision with the operator's message", "[topology_snapshot]") {
  struct Row {
    const char* what;
    TopologySource source;
    TopologySnapshot snapshot;
    std::string message;
  };
  const auto zone_rack = source({kZone, kRack});
  TopologySnapshot other_api = snapshot({{"a", {{kZone, "z1"}}}});
  other_api.api_version = "topology.gpustack.ai/v1";
  const Row rows[] = {
      {"another apiVersion", zone_rack, other_api,
       R"(unsupported topology snapshot apiVersion "topology.gpustack.ai/v1")"},
      {"a blank revision", zone_rack, snapshot({{"a", {{kZone, "z1"}}}}, "  "), "topology snapshot revision is required"},
      {"an unknown Node", zone_rack, snapshot({{"zz", {{kZone, "z1"}}}}),
       R"(topology snapshot references unknown or unselected Node "zz")"},
      {"an unselected Node", zone_rack, snapshot({{"a", {{kZone, "z1"}}}, {"c", {{kZone, "z1"}}}}),
       R"(topology snapshot references unknown or unselected Node "c")"},
      {"an undeclared level", zone_rack, snapshot({{"a", {{kZone, "z1"}, {"topology.gpustack.ai/row", "w"}}}}),
       R"(topology snapshot Node "a" declares undeclared level "topology.gpustack.ai/row")"},
      {"a declared level outside the writable prefixes", source({kZone, "example.com/rack"}),
       snapshot({{"a", {{kZone, "z1"}, {"example.com/rack", "k1"}}}}),
       R"(topology snapshot Node "a": topology source cannot publish label "example.com/rack")"},
      {"the generated profile key", source({"topology.gpustack.ai/profile"}),
       snapshot({{"a", {{"topology.gpustack.ai/profile", "p"}}}}),
       R"(topology snapshot Node "a": topology source cannot publish label "topology.gpustack.ai/profile")"},
      {"an invalid label value", zone_rack, snapshot({{"a", {{kZone, "zone a"}}}}),
       R"(topology snapshot Node "a": label "topology.gpustack.ai/zone" has invalid value "zone a")"},
      {"an empty label value", zone_rack, snapshot({{"b", {{kZone, ""}}}}),
       R"(topology snapshot Node "b": label "topology.gpustack.ai/zone" has invalid value "")"},
      {"a level without its parent", zone_rack, snapshot({{"a", {{kRack, "k1"}}}}),
       R"(topology snapshot Node "a" has level "topology.gpustack.ai/rack" without parent level "topology.gpustack.ai/zone")"},
      {"one child under two parent tuples", zone_rack,
       snapshot({{"a", {{kZone, "z1"}, {kRack, "k1"}}}, {"b", {{kZone, "z2"}, {kRack, "k1"}}}}),
       R"(topology snapshot level "topology.gpustack.ai/rack" value "k1" has conflicting parent tuples)"},
      {"a standard parent that differs from the Node's", source({kStdZone, kRack}),
       snapshot({{"a", {{kStdZone, "z2"}, {kRack, "k1"}}}}),
       R"(standard label "topology.kubernetes.io/zone" on Node "a" must already equal "z2")"},
      {"a standard parent the Node lacks", source({kStdZone, kRack}),
       snapshot({{"b", {{kStdZone, "z1"}, {kRack, "k2"}}}}),
       R"(standard label "topology.kubernetes.io/zone" on Node "b" must already equal "z1")"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const SnapshotDecision d = decide_topology_snapshot(r.source, r.snapshot, cluster());
    CHECK_FALSE(d.accepted);
    CHECK(d.reason == "SnapshotInvalid");
    CHECK(d.message == r.message);
    CHECK(d.node_labels.empty());
  }
}

TEST_CASE("an accepted snapshot publishes its private labels and drops the matching standard parents",
          "[topology_snapshot]") {
  const SnapshotDecision d = decide_topology_snapshot(
      source({kStdZone, kRack, "topology.example.com/pod"}, "topology.example.com/"),
      snapshot({{"a", {{kStdZone, "z1"}, {kRack, "k1"}, {"topology.example.com/pod", "p1"}}}}), cluster());
  REQUIRE(d.accepted);
  CHECK(d.node_labels == std::map<std::string, StringMap>{{"a", {{kRack, "k1"}, {"topology.example.com/pod", "p1"}}}});
}

TEST_CASE("a node the snapshot leaves out, or gives only standard parents, gets no NodeFeature", "[topology_snapshot]") {
  const SnapshotDecision d =
      decide_topology_snapshot(source({kStdZone, kRack}), snapshot({{"a", {{kStdZone, "z1"}}}}), cluster());
  REQUIRE(d.accepted);
  CHECK(d.node_labels.empty());
}

TEST_CASE("the same child value under the same parents on two nodes is one domain, not a conflict",
          "[topology_snapshot]") {
  const SnapshotDecision d = decide_topology_snapshot(
      source({kZone, kRack}), snapshot({{"a", {{kZone, "z1"}, {kRack, "k1"}}}, {"b", {{kZone, "z1"}, {kRack, "k1"}}}}),
      cluster());
  REQUIRE(d.accepted);
  CHECK(d.node_labels.size() == 2);
}

TEST_CASE("Go's %q quotes and escapes like the operator's messages", "[topology_snapshot]") {
  CHECK(go_quote("zone-a") == R"("zone-a")");
  CHECK(go_quote("a\"b\\c") == R"("a\"b\\c")");
  CHECK(go_quote(std::string("x\ny\x01", 4)) == R"("x\ny\x01")");
}
