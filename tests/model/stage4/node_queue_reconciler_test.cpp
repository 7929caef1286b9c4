#include <catch2/catch.hpp>

#include "model/stage4/node_queue_reconciler.h"
#include "tests/model/stage4/node_queue_fixtures.h"

using namespace chaintwin::model;
namespace fx = chaintwin::model::queue_fixtures;

namespace {

const char* const kPhase = "topology.gpustack.ai/migration-phase";
const char* const kSaved = "topology.gpustack.ai/migration-stop-policy";
const char* const kMarker = "topology.gpustack.ai/empty-plan-hold";
const std::string kOld = "gpustack-generic-linux-amd64-4c-p-old";
const std::string kNew = "gpustack-generic-linux-amd64-4c-p-new";

const ClusterQueue& queue(const ClusterState& s, const std::string& name) { return s.cluster_queues.at(name); }

// A generic queue on the old flavor, the new flavor live, Kueue having reported generation 7.
ClusterState old_to_new(std::optional<StopPolicy> policy, int32_t admitted) {
  auto cq = fx::instance_type_queue("generic", false, {fx::cpu_resource_group(kOld, 4)});
  cq.metadata.generation = 7;
  cq.spec.stop_policy = policy;
  cq.status.admitted_workloads = admitted;
  auto s = fx::queue_world({cq}, {fx::nodes_flavor(kNew, "generic", 4, 4)});
  fx::observe(s, cq.metadata.name);
  return s;
}

}  // namespace

TEST_CASE("a converged queue yields an empty plan", "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto s = fx::queue_world({fx::instance_type_queue("generic", false)}, {fx::nodes_flavor("f-4c", "generic", 4, 8)});
  fx::reconcile_once(s, name);
  const Plan again = reconcile_node_queue(s, name);
  CHECK(again.writes.empty());
  CHECK(again.requeues.empty());
  CHECK(fx::topology_ready(s, name)->status == "True");
}

TEST_CASE("a queue that is not the operator's, or has no pool labels, is left alone", "[node_queue]") {
  auto foreign = fx::instance_type_queue("generic", false);
  foreign.metadata.labels.erase("resource.gpustack.ai/type");
  auto s = fx::queue_world({foreign}, {fx::nodes_flavor("f-4c", "generic", 4, 4)});
  CHECK(reconcile_node_queue(s).writes.empty());
  auto unlabelled = fx::instance_type_queue("generic", false);
  unlabelled.metadata.labels = {{"resource.gpustack.ai/type", "instancetypes"}};
  s = fx::queue_world({unlabelled}, {fx::nodes_flavor("f-4c", "generic", 4, 4)});
  CHECK(reconcile_node_queue(s).writes.empty());
}

TEST_CASE("a queue being deleted is driven to HoldAndDrain once, without a requeue", "[node_queue]") {
  auto cq = fx::instance_type_queue("generic", false, {fx::cpu_resource_group("f", 4)});
  cq.metadata.deletion_timestamp = "t";
  cq.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
  auto s = fx::queue_world({cq}, {});
  const Plan p = reconcile_node_queue(s, cq.metadata.name);
  REQUIRE(p.writes.size() == 1);
  CHECK(object_if<ClusterQueue>(p.writes[0].object)->spec.stop_policy == StopPolicy::kHoldAndDrain);
  CHECK(p.requeues.empty());
  fx::reconcile_once(s, cq.metadata.name);
  CHECK(reconcile_node_queue(s, cq.metadata.name).writes.empty());
}

TEST_CASE("a new queue without flavors is put on the marked Hold, not HoldAndDrain", "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto s = fx::queue_world({fx::instance_type_queue("generic", false)}, {});
  CHECK(fx::reconcile_once(s, name) == 0);
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kHold);
  CHECK(fx::annotation(s, name, kMarker) == "true");
}

TEST_CASE("a queue whose last flavor leaves is drained, then emptied, and stays HoldAndDrain", "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto s = fx::queue_world({fx::instance_type_queue("generic", false, {fx::cpu_resource_group(kOld, 4)})}, {});
  s.settings.instance_type_drain_when_no_flavors = true;
  CHECK(fx::reconcile_once(s, name) == 5);
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kHoldAndDrain);
  CHECK(fx::annotation(s, name, kPhase) == "draining");
  CHECK(fx::annotation(s, name, kSaved) == "None");
  CHECK(fx::topology_ready(s, name)->reason == "Migrating");
  CHECK(fx::reconcile_once(s, name) == 5);  // Kueue has not reported the stop yet
  CHECK_FALSE(queue(s, name).spec.resource_groups.empty());
  fx::mark_stopped(s, name);
  CHECK(fx::reconcile_once(s, name) == 5);
  CHECK(queue(s, name).spec.resource_groups.empty());
  CHECK(fx::annotation(s, name, kPhase) == "switched");
  fx::mark_stopped(s, name);
  CHECK(fx::reconcile_once(s, name) == 0);
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kHoldAndDrain);
  CHECK(fx::annotation(s, name, kPhase) == "switched");  // kept until a flavor returns
  CHECK(reconcile_node_queue(s, name).writes.empty());
}

TEST_CASE("with draining off, reservations are waited out for 60 s without holding, an idle queue is still held first",
          "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto cq = fx::instance_type_queue("generic", false, {fx::cpu_resource_group(kOld, 4)});
  cq.status.reserving_workloads = 1;
  auto s = fx::queue_world({cq}, {});
  CHECK(fx::reconcile_once(s, name) == 60);
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kNone);
  s.cluster_queues.at(name).status.reserving_workloads = 0;
  CHECK(fx::reconcile_once(s, name) == 5);
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kHoldAndDrain);
}

TEST_CASE("the admin's Hold set while the pool waited is restored when flavors return", "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto s = fx::queue_world({fx::instance_type_queue("generic", false, {fx::cpu_resource_group(kOld, 4)})},
                           {fx::nodes_flavor(kNew, "generic", 4, 4)});
  const ResourceFlavor returning = s.resource_flavors.at(kNew);
  s.resource_flavors.erase(kNew);
  s.settings.instance_type_drain_when_no_flavors = true;
  fx::reconcile_once(s, name);
  fx::mark_stopped(s, name);
  fx::reconcile_once(s, name);  // emptied, held
  // The InstanceType reconciler rewrites the saved policy while the queue migrates (admin Hold).
  s.cluster_queues.at(name).metadata.annotations[kSaved] = "Hold";
  s.resource_flavors[kNew] = returning;
  fx::mark_stopped(s, name);
  fx::reconcile_once(s, name);  // joins the new flavor, still held
  CHECK(fx::flavor_names(queue(s, name)) == std::vector<std::string>{kNew});
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kHoldAndDrain);
  fx::mark_stopped(s, name);
  fx::reconcile_once(s, name);
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kHold);
  CHECK(fx::annotation(s, name, kPhase) == "absent");
  CHECK(fx::annotation(s, name, kSaved) == "absent");
}

TEST_CASE("a dropped flavor waits for Kueue's status at the current generation before deciding", "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto s = old_to_new(StopPolicy::kNone, 1);
  s.cluster_queues.at(name).status.conditions.clear();
  CHECK(fx::reconcile_once(s, name) == 5);
  CHECK(fx::topology_ready(s, name)->status == "Unknown");
  CHECK(fx::topology_ready(s, name)->reason == "AwaitingQueueStatus");
  CHECK(fx::flavor_names(queue(s, name)) == std::vector<std::string>{kOld});
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kNone);
  fx::observe(s, name);
  fx::reconcile_once(s, name);
  CHECK(fx::annotation(s, name, kPhase) == "draining");
}

TEST_CASE("an idle dropped flavor is replaced in place without a hold", "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto s = old_to_new(StopPolicy::kNone, 0);
  auto& status = s.cluster_queues.at(name).status;
  status.flavors_reservation.push_back({kOld, {{"cpu", Quantity::from_int(0), Quantity::from_int(0)}}});
  status.flavors_usage.push_back({kOld, {{"cpu", Quantity::from_int(0), Quantity::from_int(0)}}});
  CHECK(fx::reconcile_once(s, name) == 0);
  CHECK(fx::flavor_names(queue(s, name)) == std::vector<std::string>{kNew});
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kNone);
  CHECK(fx::annotation(s, name, kPhase) == "absent");
}

TEST_CASE("a flavor-plan migration keeps the queue's identity and restores an unset stop policy", "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto s = old_to_new(std::nullopt, 1);
  const std::string uid = queue(s, name).metadata.uid;
  CHECK(fx::reconcile_once(s, name) == 5);
  CHECK(fx::annotation(s, name, kSaved) == "unset");
  fx::mark_stopped(s, name);
  CHECK(fx::reconcile_once(s, name) == 5);
  CHECK(fx::flavor_names(queue(s, name)) == std::vector<std::string>{kOld});  // still reserved
  s.cluster_queues.at(name).status.admitted_workloads = 0;
  fx::reconcile_once(s, name);
  CHECK(fx::flavor_names(queue(s, name)) == std::vector<std::string>{kNew});
  // Kueue's stop at the pre-switch generation does not count for the switched plan.
  CHECK(fx::reconcile_once(s, name) == 5);
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kHoldAndDrain);
  fx::mark_stopped(s, name);
  CHECK(fx::reconcile_once(s, name) == 0);
  CHECK_FALSE(queue(s, name).spec.stop_policy.has_value());
  CHECK(queue(s, name).metadata.uid == uid);
  CHECK(fx::topology_ready(s, name)->reason == "Ready");
}

TEST_CASE("a refused plan keeps the old groups and a refusal on an empty queue holds it", "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto s = fx::queue_world({fx::instance_type_queue("generic", false)},
                           {fx::nodes_flavor("a-4c", "generic", 4, 4), fx::nodes_flavor("b-4c", "generic", 4, 4)});
  CHECK(fx::reconcile_once(s, name) == 0);  // OverlappingSelectors is not retried on a timer
  CHECK(fx::topology_ready(s, name)->reason == "OverlappingSelectors");
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kHold);
  CHECK(fx::annotation(s, name, kMarker) == "true");

  auto filled = fx::queue_world({fx::instance_type_queue("generic", false, {fx::cpu_resource_group("a-4c", 4)})},
                                {fx::nodes_flavor("a-4c", "generic", 4, 4)});
  filled.topologies.clear();
  CHECK(fx::reconcile_once(filled, name) == 30);
  CHECK(fx::topology_ready(filled, name)->reason == "MissingTopology");
  CHECK(fx::flavor_names(queue(filled, name)) == std::vector<std::string>{"a-4c"});
  CHECK(queue(filled, name).spec.stop_policy == StopPolicy::kNone);
}

TEST_CASE("the update that fills a marked Hold drops the marker and leaves the Hold", "[node_queue]") {
  const std::string name = fx::node_queue_name("generic");
  auto s = fx::queue_world({fx::instance_type_queue("generic", false)}, {});
  fx::reconcile_once(s, name);
  REQUIRE(fx::annotation(s, name, kMarker) == "true");
  fx::add_flavor(s, fx::nodes_flavor("f-4c", "generic", 4, 4));
  fx::reconcile_once(s, name);
  CHECK(fx::annotation(s, name, kMarker) == "absent");
  CHECK(queue(s, name).spec.stop_policy == StopPolicy::kHold);
  CHECK(fx::annotation(s, name, "topology.gpustack.ai/tas-queue") == "true");
}

TEST_CASE("the node-devices check needs an accelerated queue, derived-from-node and Active, the joint check does not "
          "need acceleration",
          "[node_queue]") {
  struct Row {
    bool accelerated, derived, devices_active, joint_active;
    std::vector<std::string> want;
  };
  const Row rows[] = {
      {true, true, true, true, {"gpustack-node-devices", "gpustack-model-deployment-joint"}},
      {true, true, false, true, {"gpustack-model-deployment-joint"}},
      {false, true, true, true, {"gpustack-model-deployment-joint"}},
      {true, false, true, true, {}},
      {false, true, true, false, {}},
  };
  for (const auto& row : rows) {
    const std::string key = row.accelerated ? "nvidia-a10g" : "generic";
    auto s = fx::queue_world({fx::instance_type_queue(key, row.accelerated)},
                             {fx::nodes_flavor("f-1d", key, 1, 2, row.accelerated ? "nvidia" : "")},
                             {fx::admission_check("gpustack-node-devices", "worker.gpustack.ai/node-devices", row.devices_active),
                              fx::admission_check("gpustack-model-deployment-joint", "joint", row.joint_active)});
    s.settings.instance_type_derived_from_node = row.derived;
    fx::reconcile_once(s, fx::node_queue_name(key));
    CHECK(queue(s, fx::node_queue_name(key)).spec.admission_checks == row.want);
  }
}
