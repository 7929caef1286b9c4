// Kueue lists every flavor of a queue at zero while it is idle, so dropping an idle flavor is an
// in-place update: the queue is never drained for it (operator-domain §4.5, §6).
#include <catch2/catch.hpp>

#include "model/stage4/operator_controllers.h"
#include "sim/cluster_objects.h"
#include "sim/kube_documents.h"

using namespace chaintwin;

TEST_CASE("a node leaving an idle pool drops its flavor in place without draining the queue", "[stage4]") {
  const auto objects = sim::load_kubernetes_objects(std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/walkthroughs/four-node-cluster.yaml");
  REQUIRE(objects.ok());
  const auto cluster = sim::read_cluster_objects(*objects, model::Settings{});
  REQUIRE(cluster.ok());
  const auto first = model::converge(*cluster, model::operator_controllers(), "t0");
  REQUIRE(first.ok());
  REQUIRE(first->converged);
  const auto& generic = first->state.cluster_queues.at("gpustack--generic-linux-amd64");
  REQUIRE_FALSE(generic.status.flavors_reservation.empty());
  for (const auto& f : generic.status.flavors_reservation)
    for (const auto& r : f.resources) CHECK(r.total.is_zero());

  model::ClusterState without = first->state;
  without.nodes.erase("node-t4-a");
  without.devices.erase("node-t4-a");
  const auto second = model::converge(without, model::operator_controllers(), "t1");
  REQUIRE(second.ok());
  CHECK(second->converged);
  for (const auto& w : second->writes) {
    if (const auto* cq = model::object_if<model::ClusterQueue>(w.object)) {
      INFO(w.controller << ": " << w.reason);
      CHECK(cq->stop_policy() != model::StopPolicy::kHoldAndDrain);
    }
  }
  const auto& after = second->state.cluster_queues.at("gpustack--generic-linux-amd64");
  CHECK(after.stop_policy() == model::StopPolicy::kNone);
  int64_t cpu = 0;
  for (const auto& g : after.spec.resource_groups)
    for (const auto& f : g.flavors)
      for (const auto& r : f.resources) cpu += r.nominal_quota.value_ceil();
  CHECK(cpu == 68);  // 16 + 4 + 48: node-t4-a's 4 cores left with it
}
