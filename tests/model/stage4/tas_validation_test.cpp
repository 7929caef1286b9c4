#include <catch2/catch.hpp>

#include "model/stage4/tas_validation.h"
#include "tests/model/stage4/node_queue_fixtures.h"

using namespace chaintwin::model;
namespace fx = chaintwin::model::queue_fixtures;

namespace {

std::vector<ResourceFlavor> flavors_of(const ClusterState& s) {
  std::vector<ResourceFlavor> out;
  for (const auto& [n, rf] : s.resource_flavors) out.push_back(rf);
  return out;
}

std::string refusal_reason(const ClusterState& s, const ClusterQueue& cq) {
  const auto r = validate_tas_flavors(s, cq.metadata.labels, flavors_of(s));
  return r ? r->reason : "none";
}

}  // namespace

TEST_CASE("a pool of topology-bound flavors that count every node passes", "[node_queue]") {
  const auto cq = fx::instance_type_queue("generic", false);
  const auto s = fx::queue_world({cq}, {fx::nodes_flavor("a-4c", "generic", 4, 8), fx::nodes_flavor("b-8c", "generic", 8, 8)});
  CHECK(refusal_reason(s, cq) == "none");
}

TEST_CASE("topology readiness refusals name the operator's reasons", "[node_queue]") {
  const auto cq = fx::instance_type_queue("generic", false);
  struct Row {
    const char* what;
    void (*spoil)(ClusterState&);
    const char* reason;
  };
  const Row rows[] = {
      {"flavor without a profile pin", [](ClusterState& s) { s.resource_flavors.begin()->second.spec.node_labels.erase("topology.gpustack.ai/profile"); },
       "MissingTopology"},
      {"flavor pointing at another Topology", [](ClusterState& s) { s.resource_flavors.begin()->second.spec.topology_name = "gpustack-other"; },
       "MissingTopology"},
      {"Topology deleted", [](ClusterState& s) { s.topologies.clear(); }, "MissingTopology"},
      {"capacity not nodes times count", [](ClusterState& s) {
         s.resource_flavors.begin()->second.metadata.labels["general.feature.gpustack.ai/generic.capacity"] = "12";
       }, "NonConservedQuota"},
      {"a profiled pool node outside every flavor", [](ClusterState& s) {
         Node n = s.nodes.begin()->second;
         n.metadata.name = "stray";
         n.metadata.labels["general.feature.gpustack.ai/generic.count"] = "16";
         s.nodes["stray"] = n;
       }, "NonConservedQuota"},
  };
  for (const auto& row : rows) {
    auto s = fx::queue_world({cq}, {fx::nodes_flavor("a-4c", "generic", 4, 8)});
    row.spoil(s);
    INFO(row.what);
    CHECK(refusal_reason(s, cq) == row.reason);
  }
}

TEST_CASE("a node selected by two flavors is an overlap", "[node_queue]") {
  const auto cq = fx::instance_type_queue("generic", false);
  const auto s = fx::queue_world({cq}, {fx::nodes_flavor("a-4c", "generic", 4, 4), fx::nodes_flavor("b-4c", "generic", 4, 4)});
  CHECK(refusal_reason(s, cq) == "OverlappingSelectors");
  // The first Node (by name) of the later flavor that the earlier one selects, and the earlier one
  // named first.
  const auto r = validate_tas_flavors(s, cq.metadata.labels, flavors_of(s));
  REQUIRE(r);
  CHECK(r->message == "Node \"a-4c-0\" is selected by ResourceFlavors \"a-4c\" and \"b-4c\"");
}

TEST_CASE("sixty-five flavors are too many, sixty-four are not", "[node_queue]") {
  const auto cq = fx::instance_type_queue("generic", false);
  std::vector<ResourceFlavor> flavors;
  for (int64_t i = 1; i <= 65; ++i) flavors.push_back(fx::nodes_flavor("f-" + std::to_string(i) + "c", "generic", i, i));
  auto s = fx::queue_world({cq}, flavors);
  CHECK(refusal_reason(s, cq) == "TooManyFlavors");
  s.resource_flavors.erase("f-65c");
  s.nodes.erase("f-65c-0");
  CHECK(refusal_reason(s, cq) == "none");
}

TEST_CASE("an unprofiled node is not counted against the pool", "[node_queue]") {
  const auto cq = fx::instance_type_queue("generic", false);
  auto s = fx::queue_world({cq}, {fx::nodes_flavor("a-4c", "generic", 4, 4)});
  Node n = s.nodes.begin()->second;
  n.metadata.name = "fresh";
  n.metadata.labels.erase("topology.gpustack.ai/profile");
  s.nodes["fresh"] = n;
  CHECK(refusal_reason(s, cq) == "none");
}

TEST_CASE("with mixing off an accelerated node does not belong to a CPU pool, with mixing on it must be counted",
          "[node_queue]") {
  const auto cq = fx::collapsed_generic_queue("gpustack--generic-linux-amd64", "");
  auto s = fx::queue_world({cq}, {fx::nodes_flavor("cpu-4c", "generic", 4, 4)});
  Node accel = s.nodes.begin()->second;
  accel.metadata.name = "gpu-node";
  accel.metadata.labels["feature.gpustack.ai/acceleratable"] = "true";
  accel.metadata.labels["general.feature.gpustack.ai/generic.count"] = "48";
  s.nodes["gpu-node"] = accel;
  s.settings.instance_type_mixed_on_node = false;
  CHECK(refusal_reason(s, cq) == "none");
  s.settings.instance_type_mixed_on_node = true;
  CHECK(refusal_reason(s, cq) == "NonConservedQuota");
}

TEST_CASE("existing quota without the tas-queue mark is not adopted, and a resource covered twice is refused",
          "[node_queue]") {
  auto cq = fx::instance_type_queue("generic", false, {fx::cpu_resource_group("legacy", 4)});
  CHECK_FALSE(unsupported_existing_object(cq));
  cq.metadata.annotations.clear();
  REQUIRE(unsupported_existing_object(cq));
  CHECK(unsupported_existing_object(cq)->reason == "UnsupportedExistingObject");
  const auto dup = duplicate_covered_resource({fx::cpu_resource_group("a", 1), fx::cpu_resource_group("b", 1)});
  REQUIRE(dup);
  CHECK(dup->reason == "DuplicateCoveredResource");
}
