// Golden handlers for the InstanceType side of queue-stop-policy.json: the created queue's shape
// (createClusterQueue) and the Inactive <-> stop-policy sync (syncInactive @f130444c). Each case
// is played the way the operator's test plays it: a ClusterState holding the InstanceType and
// its queue, reconciled by reconcile_instance_type (plans applied like an API server) until it
// converges, then reconciled twice more to see whether anything still writes.
#include <stdexcept>
#include <string>

#include "model/label_keys.h"
#include "model/pool_identity.h"
#include "model/stage4/instance_type_reconciler.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;

namespace {

using chaintwin::golden::json;
namespace m = chaintwin::model;
namespace k = chaintwin::model::keys;

constexpr int kConvergePasses = 4;  // reconcileInstanceTypeN(t, cli, name, 4)
constexpr int kStablePasses = 2;    // reconcileInstanceTypeN(t, cli, name, 2)

m::StopPolicy policy_of(const json& v) {
  const auto p = m::parse_stop_policy(v.get<std::string>());
  if (!p) throw std::runtime_error("unknown stop policy " + v.dump());
  return *p;
}

// The test's fixture: an accelerated InstanceType (already locked) and its queue, labelled as
// the reconciler would, with one resource group unless the case asks for none.
m::ClusterState sync_fixture(m::StopPolicy start, bool inactive, bool no_groups, const m::StringMap& annotations) {
  m::ClusterState state;
  m::InstanceType it;
  it.metadata.name = "gpustack--nvidia-a10g-linux-amd64";
  it.metadata.finalizers = {std::string(k::kControlledFinalizer)};
  it.spec.acceleratable = true;
  it.spec.accelerator_group = "nvidia-a10g";
  it.spec.general_group = "generic";
  it.spec.os = "linux";
  it.spec.arch = "amd64";
  it.spec.inactive = inactive;
  it.spec.unit_resources = {"1", "2Gi"};
  it.spec.local_storage = "100Gi";
  m::ClusterQueue cq = m::new_cluster_queue_for(it, state.settings.instance_type_aware_cpu_manufacturer);
  cq.metadata.annotations = annotations;
  cq.spec.stop_policy = start;
  if (!no_groups) {
    m::ResourceGroup group;
    group.covered_resources = {"credits.gpustack.ai/nvidia"};
    group.flavors.push_back({"gpustack--generic--nvidia-a10g-linux-amd64-1d-fnv64-87bf574bea2a4f23",
                             {{"credits.gpustack.ai/nvidia", m::Quantity::from_int(1'600'000), {}, {}}}});
    cq.spec.resource_groups.push_back(group);
  }
  state.instance_types[it.metadata.name] = it;
  state.cluster_queues[cq.metadata.name] = cq;
  return state;
}

struct Converged {
  m::ClusterState state;
  bool further_writes = false;
};

Converged converge(m::ClusterState state) {
  auto pass = [&state](int i) {
    const m::Plan plan = m::reconcile_instance_type(state);
    auto next = m::apply_plan(state, plan, "2026-01-01T00:00:0" + std::to_string(i) + "Z");
    if (!next.ok()) throw std::runtime_error(next.error());
    state = *next;
    return !plan.writes.empty();
  };
  for (int i = 0; i < kConvergePasses; ++i) pass(i);
  Converged out;
  for (int i = 0; i < kStablePasses; ++i) out.further_writes = pass(kConvergePasses + i) || out.further_writes;
  out.state = std::move(state);
  return out;
}

std::string annotation(const m::ClusterQueue& cq, std::string_view key) {
  const auto it = cq.metadata.annotations.find(std::string(key));
  return it == cq.metadata.annotations.end() ? std::string() : it->second;
}

json string_map_json(const m::StringMap& map) {
  json out = json::object();
  for (const auto& [key, value] : map) out[key] = value;
  return out;
}

}  // namespace

// TestInstanceTypeReconciler_SyncInactive (@0ae3355d rows; every row agrees with the code @f130444c).
GOLDEN_HANDLER(Spec("queue-stop-policy", "syncInactive").alias("InstanceTypeReconciler.syncInactive")
                   .setup("spec.inactive against the queue's stop policy")
                   .in({"startStopPolicy", "spec.inactive", "queueHasNoResourceGroups", "emptyPlanHoldMarker",
                        "migrating(topology.gpustack.ai/migration-phase set, no saved policy)"})
                   .out({"stopPolicy", "spec.inactive", "emptyPlanHoldMarker", "furtherReconcilesWrite"}),
               [](const json& in, const json&) -> json {
                 m::StringMap annotations;
                 if (in.at("migrating(topology.gpustack.ai/migration-phase set, no saved policy)").get<bool>())
                   annotations[std::string(k::kMigrationPhase)] = "draining";
                 if (in.at("emptyPlanHoldMarker").get<bool>()) annotations[std::string(k::kEmptyPlanHold)] = "true";
                 const auto done = converge(sync_fixture(policy_of(in.at("startStopPolicy")),
                                                         in.at("spec.inactive").get<bool>(),
                                                         in.at("queueHasNoResourceGroups").get<bool>(), annotations));
                 const auto& cq = done.state.cluster_queues.at("gpustack--nvidia-a10g-linux-amd64");
                 const auto& it = done.state.instance_types.at("gpustack--nvidia-a10g-linux-amd64");
                 return {{"stopPolicy", std::string(m::to_string(cq.stop_policy()))},
                         {"spec.inactive", it.spec.inactive},
                         {"emptyPlanHoldMarker", !annotation(cq, k::kEmptyPlanHold).empty()},
                         {"furtherReconcilesWrite", done.further_writes}};
               })

// syncInactive while a migration holds the queue: the saved policy is rewritten, nothing mirrored.
// The saved-policy annotation only exists while migrating, so the queue carries the draining phase.
GOLDEN_HANDLER(Spec("queue-stop-policy", "syncInactive").alias("InstanceTypeReconciler.syncInactive")
                   .setup("during a migration: the saved stop policy")
                   .in({"liveStopPolicy", "spec.inactive", "topology.gpustack.ai/migration-stop-policy"})
                   .out({"liveStopPolicy", "spec.inactive", "topology.gpustack.ai/migration-stop-policy"}),
               [](const json& in, const json&) -> json {
                 const std::string saved_key(k::kMigrationStopPolicy);
                 const m::StringMap annotations{{std::string(k::kMigrationPhase), "draining"},
                                                {saved_key, in.at(saved_key).get<std::string>()}};
                 const auto done = converge(sync_fixture(policy_of(in.at("liveStopPolicy")),
                                                         in.at("spec.inactive").get<bool>(), false, annotations));
                 const auto& cq = done.state.cluster_queues.at("gpustack--nvidia-a10g-linux-amd64");
                 const auto& it = done.state.instance_types.at("gpustack--nvidia-a10g-linux-amd64");
                 return {{saved_key, annotation(cq, k::kMigrationStopPolicy)},
                         {"liveStopPolicy", std::string(m::to_string(cq.stop_policy()))},
                         {"spec.inactive", it.spec.inactive}};
               })

// createClusterQueue: the queue the first reconcile of a type creates.
GOLDEN_HANDLER(
    Spec("queue-stop-policy", "createClusterQueue").alias("ensureClusterQueue")
        .in({"instanceType"}).out({"clusterQueue"}).prose({"testAsserts"}),
    [](const json& in, const json&) -> json {
      const json& spec = in.at("instanceType");
      m::ClusterState state;
      m::InstanceType it;
      it.metadata.name = spec.at("name").get<std::string>();
      it.spec.acceleratable = spec.value("acceleratable", false);
      it.spec.accelerator_group = spec.value("acceleratorGroup", "");
      it.spec.general_group = spec.value("generalGroup", "");
      it.spec.os = spec.value("os", "");
      it.spec.arch = spec.value("arch", "");
      state.instance_types[it.metadata.name] = it;
      const m::Plan plan = m::reconcile_instance_type(state);
      for (const auto& w : plan.writes) {
        const auto* cq = std::get_if<m::ClusterQueue>(&w.object);
        if (w.verb != m::WriteVerb::kCreate || cq == nullptr) continue;
        json preemption = {{"reclaimWithinCohort", cq->spec.preemption.reclaim_within_cohort},
                           {"borrowWithinCohort", {{"policy", cq->spec.preemption.borrow_within_cohort_policy}}},
                           {"withinClusterQueue", cq->spec.preemption.within_cluster_queue}};
        json out_spec = {{"stopPolicy", std::string(m::to_string(cq->stop_policy()))},
                         {"cohortName", cq->spec.cohort_name},
                         {"flavorFungibility",
                          {{"whenCanBorrow", cq->spec.flavor_fungibility.when_can_borrow},
                           {"whenCanPreempt", cq->spec.flavor_fungibility.when_can_preempt}}},
                         {"preemption", preemption}};
        if (cq->spec.namespace_selector_all) out_spec["namespaceSelector"] = json::object();
        return {{"clusterQueue",
                 {{"name", cq->metadata.name},
                  {"annotations", string_map_json(cq->metadata.annotations)},
                  {"labels", string_map_json(cq->metadata.labels)},
                  {"spec", out_spec}}}};
      }
      throw std::runtime_error("the first reconcile created no ClusterQueue");
    })
