#include <catch2/catch.hpp>

#include "model/credits.h"
#include "model/stage4/queue_status.h"
#include "model/stage4/resource_groups.h"
#include "tests/model/stage4/node_queue_fixtures.h"

using namespace chaintwin::model;
namespace fx = chaintwin::model::queue_fixtures;

TEST_CASE("an accelerated flavor sizes on its own key, not the paired general key", "[node_queue]") {
  auto rf = fx::nodes_flavor("gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64-1d", "nvidia-a10g", 1, 3, "nvidia",
                             "amd-epyc-7r32");
  CHECK(resource_flavor_capacity(rf) == 3);
  rf.metadata.labels.erase("acceleratable.feature.gpustack.ai/nvidia-a10g.capacity");
  CHECK(resource_flavor_capacity(rf) == 0);
}

TEST_CASE("the per-node count is read from the nodeLabels, never the name", "[node_queue]") {
  auto s = fx::queue_world({}, {fx::nodes_flavor("gpustack-generic-linux-amd64-4c-fnv64-0123", "generic", 8, 8)});
  const auto& rf = s.resource_flavors.begin()->second;
  CHECK(resource_flavor_count(rf) == 8);
  ResourceFlavor bare = rf;
  bare.spec.node_labels.erase("general.feature.gpustack.ai/generic.count");
  CHECK(resource_flavor_count(bare) == 0);
}

TEST_CASE("flavors sort by per-node count, then by name", "[node_queue]") {
  auto s = fx::queue_world({}, {fx::nodes_flavor("b-8c", "generic", 8, 8), fx::nodes_flavor("z-4c", "generic", 4, 4),
                                fx::nodes_flavor("a-4c", "generic", 4, 8)});
  std::vector<ResourceFlavor> flavors;
  for (const auto& [n, rf] : s.resource_flavors) flavors.push_back(rf);
  sort_by_per_node_count(flavors);
  REQUIRE(flavors.size() == 3);
  CHECK(flavors[0].metadata.name == "a-4c");
  CHECK(flavors[1].metadata.name == "z-4c");
  CHECK(flavors[2].metadata.name == "b-8c");
}

TEST_CASE("an accelerated pool covers only its manufacturer's credits at capacity times M", "[node_queue]") {
  const std::vector<ResourceFlavor> flavors = {fx::nodes_flavor("f-1d", "nvidia-a10g", 1, 3, "nvidia"),
                                               fx::nodes_flavor("f-2d", "nvidia-a10g", 2, 0, "nvidia")};
  const auto groups = build_resource_groups(flavors, true, "nvidia");
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].covered_resources == std::vector<std::string>{"credits.gpustack.ai/nvidia"});
  REQUIRE(groups[0].flavors.size() == 1);  // capacity 0 is skipped
  const auto& q = groups[0].flavors[0].resources.at(0);
  CHECK(q.nominal_quota == Quantity::from_int(3 * kUnitsPerAccelerator));
  CHECK_FALSE(q.borrowing_limit);
  CHECK_FALSE(q.lending_limit);
}

TEST_CASE("a pool whose flavors have no capacity builds no group at all", "[node_queue]") {
  CHECK(build_resource_groups({fx::nodes_flavor("f-4c", "generic", 4, 0)}, false, "generic").empty());
}

TEST_CASE("a terminating or foreign flavor never feeds the pool", "[node_queue]") {
  auto foreign = fx::nodes_flavor("foreign-4c", "generic", 4, 4);
  foreign.metadata.labels["resource.gpustack.ai/type"] = "something-else";
  auto s = fx::queue_world({}, {fx::nodes_flavor("live-4c", "generic", 4, 4),
                                fx::terminating(fx::nodes_flavor("dead-4c", "generic", 4, 4)), foreign});
  const auto live = live_pool_flavors(s, fx::instance_type_queue("generic", false).metadata.labels);
  REQUIRE(live);
  REQUIRE(live->size() == 1);
  CHECK(live->front().metadata.name == "live-4c");
  CHECK_FALSE(live_pool_flavors(s, {{"kubernetes.io/os", "linux"}}));
}

TEST_CASE("a dropped flavor is one the current groups reference and the desired do not", "[node_queue]") {
  const std::vector<ResourceGroup> current = {fx::cpu_resource_group("a", 1), fx::cpu_resource_group("b", 1)};
  CHECK(dropped_flavor_references(current, {fx::cpu_resource_group("b", 4)}) == std::vector<std::string>{"a"});
  CHECK(dropped_flavor_references(current, current).empty());
}

TEST_CASE("reservations count, pending workloads do not", "[node_queue]") {
  ClusterQueueStatus st;
  st.pending_workloads = 3;
  CHECK_FALSE(has_reserved(st));
  st.flavors_reservation.push_back({"f", {{"cpu", Quantity::from_int(0), Quantity::from_int(0)}}});
  CHECK_FALSE(has_reserved(st));
  st.flavors_reservation[0].resources[0].borrowed = Quantity::from_int(1);
  CHECK(has_reserved(st));
  ClusterQueueStatus admitted;
  admitted.admitted_workloads = 1;
  CHECK(has_reserved(admitted));
}

TEST_CASE("a flavor Kueue does not list, or lists with usage, may be in use", "[node_queue]") {
  ClusterQueue cq;
  CHECK(flavors_may_be_in_use(cq, {"old"}));
  cq.status.flavors_reservation.push_back({"old", {{"cpu", Quantity::from_int(0), Quantity::from_int(0)}}});
  CHECK(flavors_may_be_in_use(cq, {"old"}));  // not in flavorsUsage yet
  cq.status.flavors_usage.push_back({"old", {{"cpu", Quantity::from_int(0), Quantity::from_int(0)}}});
  CHECK_FALSE(flavors_may_be_in_use(cq, {"old"}));
  cq.status.flavors_usage[0].resources[0].total = Quantity::from_int(2);
  CHECK(flavors_may_be_in_use(cq, {"old"}));
}
