// Golden handlers for the InstanceType side of queue-stop-policy.json: the created queue's shape
// (createClusterQueue) and the Inactive <-> stop-policy sync (syncInactive @f130444c). Each case
// is played the way the operator's test plays it: a ClusterState holding the InstanceType and
// its queue, reconciled by reconcile_instance_type (plans applied like an API server) until it
// converges, then reconciled twice more to see whether anything still writes.
#include <map>
#include <stdexcept>
#include <string>

#include "model/catalog/label_keys.h"
#include "model/stage3/pool_identity.h"
#include "model/stage4/instance_type_reconciler.h"
#include "model/stage4/instance_type_schedule_labels.h"
#include "model/stage4/instance_type_status.h"
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
        const auto* cq = m::object_if<m::ClusterQueue>(w.object);
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

namespace {

m::InstanceType instance_type_from(const json& spec) {
  m::InstanceType it;
  it.metadata.name = spec.value("name", "gpustack--nvidia-a10g-linux-amd64");
  it.spec.acceleratable = spec.value("acceleratable", false);
  it.spec.accelerator_group = spec.value("acceleratorGroup", "");
  it.spec.general_group = spec.value("generalGroup", "");
  it.spec.os = spec.value("os", "");
  it.spec.arch = spec.value("arch", "");
  it.spec.inactive = spec.value("inactive", false);
  if (spec.contains("finalizers")) it.metadata.finalizers = spec.at("finalizers").get<std::vector<std::string>>();
  if (spec.value("deleting", false)) it.metadata.deletion_timestamp = "2026-01-01T00:00:00Z";
  if (spec.contains("status.phase")) it.status.phase = spec.at("status.phase").get<std::string>();
  return it;
}

m::StringMap string_map_of(const json& obj, const char* key) {
  m::StringMap out;
  if (!obj.contains(key)) return out;
  for (const auto& [k, v] : obj.at(key).items()) out[k] = v.get<std::string>();
  return out;
}

m::Quantity quantity_of(const json& v) {
  auto q = v.is_number_integer() ? m::Result<m::Quantity>(m::Quantity::from_int(v.get<int64_t>()))
                                 : m::Quantity::parse(v.get<std::string>());
  if (!q.ok()) throw std::runtime_error("quantity " + v.dump() + ": " + q.error());
  return *q;
}

json view_json(const m::InstanceTypeCapacityView& v) {
  return {{"capacity", v.capacity}, {"onceMaxRequest", v.once_max_request}, {"remaining", v.remaining}};
}

json profile_counts_json(const std::map<std::string, int64_t>& counts) {
  json out = json::array();
  for (const auto& [name, count] : counts) out.push_back({{"name", name}, {"count", count}});
  return out;
}

// The backing queue as the reconciler leaves it for a type: {stopPolicy, annotations,
// hasResourceGroups (one credits group when true), deleting, labels (default: the type's own
// queue labels), cpuFlavors [{name, cpu}] (one cpu group), cpuReserved {flavor: quantity},
// active {status, message}, reservingWorkloads, admittedWorkloads}.
m::ClusterQueue cluster_queue_from(const json& c, const m::InstanceType& it, bool aware) {
  m::ClusterQueue cq = m::new_cluster_queue_for(it, aware);
  cq.metadata.annotations = string_map_of(c, "annotations");
  if (c.contains("labels")) cq.metadata.labels = string_map_of(c, "labels");
  cq.spec.stop_policy = policy_of(c.at("stopPolicy"));
  if (c.value("hasResourceGroups", false)) {
    m::ResourceGroup group;
    group.covered_resources = {"credits.gpustack.ai/nvidia"};
    group.flavors.push_back({"gpustack--generic--nvidia-a10g-linux-amd64-1d-fnv64-87bf574bea2a4f23",
                             {{"credits.gpustack.ai/nvidia", m::Quantity::from_int(1'600'000), {}, {}}}});
    cq.spec.resource_groups.push_back(group);
  }
  if (c.contains("cpuFlavors")) {
    m::ResourceGroup group;
    group.covered_resources = {"cpu"};
    for (const auto& f : c.at("cpuFlavors"))
      group.flavors.push_back({f.at("name").get<std::string>(), {{"cpu", quantity_of(f.at("cpu")), {}, {}}}});
    cq.spec.resource_groups.push_back(group);
  }
  if (c.contains("cpuReserved"))
    for (const auto& [flavor, q] : c.at("cpuReserved").items())
      cq.status.flavors_reservation.push_back({flavor, {{"cpu", quantity_of(q), m::Quantity{}}}});
  if (c.contains("active"))
    cq.status.conditions.push_back({"Active", c.at("active").at("status").get<std::string>(), "",
                                    c.at("active").value("message", ""), 0});
  cq.status.reserving_workloads = c.value("reservingWorkloads", 0);
  cq.status.admitted_workloads = c.value("admittedWorkloads", 0);
  if (c.value("deleting", false)) cq.metadata.deletion_timestamp = "2026-01-01T00:00:00Z";
  return cq;
}

const char* verb_name(m::WriteVerb verb) {
  switch (verb) {
    case m::WriteVerb::kCreate: return "Create";
    case m::WriteVerb::kUpdate: return "Update";
    case m::WriteVerb::kUpdateStatus: return "UpdateStatus";
    case m::WriteVerb::kDelete: return "Delete";
    default: return "Other";
  }
}

}  // namespace

// teardownInstanceType: one pass over a type being deleted. `clusterQueue` is "absent",
// "present" or "terminating" (the name-identical queue); `instanceType` {name, finalizers,
// status.phase}. The answer: the status the pass writes (null when none), whether it deletes the
// queue, the finalizers the type is left with, and the requeue.
GOLDEN_HANDLER(Spec("queue-stop-policy", "teardownInstanceType").alias("InstanceTypeReconciler.teardownInstanceType")
                   .in({"instanceType", "clusterQueue"})
                   .out({"statusUpdate", "deletesClusterQueue", "finalizers", "requeueAfterSeconds"}),
               [](const json& in, const json&) -> json {
                 m::ClusterState state;
                 json spec = in.at("instanceType");
                 spec["deleting"] = true;
                 const m::InstanceType it = instance_type_from(spec);
                 state.instance_types[it.metadata.name] = it;
                 const std::string queue = in.at("clusterQueue").get<std::string>();
                 if (queue != "absent") {
                   if (queue != "present" && queue != "terminating")
                     throw std::runtime_error("clusterQueue must be absent, present or terminating");
                   m::ClusterQueue cq = m::new_cluster_queue_for(it, false);
                   if (queue == "terminating") cq.metadata.deletion_timestamp = "2026-01-01T00:00:00Z";
                   state.cluster_queues[cq.metadata.name] = cq;
                 }
                 const m::Plan plan = m::teardown_instance_type(state, it);
                 json status = nullptr;
                 bool deletes = false;
                 std::vector<std::string> finalizers = it.metadata.finalizers;
                 for (const auto& w : plan.writes) {
                   if (const auto* t = m::object_if<m::InstanceType>(w.object)) {
                     if (w.verb == m::WriteVerb::kUpdateStatus)
                       status = {{"phase", t->status.phase}, {"phaseMessage", t->status.phase_message},
                                 {"entrance", t->status.entrance}};
                     else if (w.verb == m::WriteVerb::kUpdate) finalizers = t->metadata.finalizers;
                     else throw std::runtime_error(std::string("unexpected ") + verb_name(w.verb) + " of the type");
                   } else if (m::object_if<m::ClusterQueue>(w.object) != nullptr && w.verb == m::WriteVerb::kDelete) {
                     deletes = true;
                   } else {
                     throw std::runtime_error("unexpected write: " + w.reason);
                   }
                 }
                 int64_t requeue = 0;
                 for (const auto& r : plan.requeues) requeue = r.after_seconds;
                 return {{"statusUpdate", status}, {"deletesClusterQueue", deletes}, {"finalizers", finalizers},
                         {"requeueAfterSeconds", requeue}};
               })

// instanceTypeScheduleLabels: the labels from the type's spec identity and the awareness setting.
GOLDEN_HANDLER(Spec("queue-stop-policy", "instanceTypeScheduleLabels")
                   .in({"spec", "instanceTypeAwareCPUManufacturer"}).out({"labels"}),
               [](const json& in, const json&) -> json {
                 const m::InstanceType it = instance_type_from(in.at("spec"));
                 return {{"labels", string_map_json(m::instance_type_schedule_labels(
                                        it, in.at("instanceTypeAwareCPUManufacturer").get<bool>()))}};
               })

// computeStatus without Devices: the type {name, acceleratable, generalGroup, acceleratorGroup,
// os, arch}, its backing queue (see cluster_queue_from; labels default to the type's), the
// operator ResourceFlavors [{name, labels, annotations}] the detail is looked up in. No node
// backs the pool, so the accelerator views are not asked; the CPU view, phase, entrance and
// detail are.
GOLDEN_HANDLER(Spec("queue-stop-policy", "computeStatus").alias("InstanceTypeReconciler.computeStatus")
                   .in({"instanceType", "clusterQueue"}).opt({"resourceFlavors", "instanceTypeAwareCPUManufacturer"})
                   .out({"phase", "phaseMessage", "entrance", "cpu", "detail"}),
               [](const json& in, const json&) -> json {
                 m::ClusterState state;
                 const bool aware = in.value("instanceTypeAwareCPUManufacturer", false);
                 state.settings.instance_type_aware_cpu_manufacturer = aware;
                 const m::InstanceType it = instance_type_from(in.at("instanceType"));
                 const m::ClusterQueue cq = cluster_queue_from(in.at("clusterQueue"), it, aware);
                 if (in.contains("resourceFlavors"))
                   for (const auto& f : in.at("resourceFlavors")) {
                     m::ResourceFlavor rf;
                     rf.metadata.name = f.at("name").get<std::string>();
                     rf.metadata.labels = string_map_of(f, "labels");
                     rf.metadata.annotations = string_map_of(f, "annotations");
                     state.resource_flavors[rf.metadata.name] = rf;
                   }
                 state.instance_types[it.metadata.name] = it;
                 state.cluster_queues[cq.metadata.name] = cq;
                 const auto computed = m::compute_instance_type_status(state, it, cq);
                 const auto& st = computed.status;
                 const auto& d = st.detail;
                 return {{"phase", st.phase},
                         {"phaseMessage", st.phase_message},
                         {"entrance", st.entrance},
                         {"cpu", view_json(st.cpu)},
                         {"detail",
                          {{"manufacturer", d.manufacturer},
                           {"product", d.product},
                           {"family", d.family},
                           {"memory", d.memory},
                           {"cores", d.cores},
                           {"cpu", d.cpu}}}};
               })

// publishPartitionProfileNames over a status: {detail: {manufacturer, slicedDetail: {physical:
// {profiles: [{name, count, memoryMib}]}}}, acceleratorPartitioned: {remainingProfiles,
// allocatedProfiles: [{name, count}]}}; the answer is the same shape after the pass.
GOLDEN_HANDLER(Spec("queue-stop-policy", "publishPartitionProfileNames").in({"status"}).out({"status"}),
               [](const json& in, const json&) -> json {
                 const json& s = in.at("status");
                 m::InstanceTypeStatus st;
                 const json detail = s.value("detail", json::object());
                 st.detail.manufacturer = detail.value("manufacturer", "");
                 if (detail.contains("slicedDetail"))
                   for (const auto& p : detail.at("slicedDetail").at("physical").at("profiles"))
                     st.detail.sliced_detail.physical.profiles.push_back(
                         {p.at("name").get<std::string>(), p.value("count", 0), p.value("memoryMib", int64_t{0})});
                 const json part = s.value("acceleratorPartitioned", json::object());
                 for (const auto& [key, target] : {std::pair{"remainingProfiles", &st.accelerator_partitioned.remaining_profiles},
                                                   std::pair{"allocatedProfiles", &st.accelerator_partitioned.allocated_profiles}}) {
                   if (!part.contains(key)) continue;
                   for (const auto& p : part.at(key)) {
                     const auto name = p.at("name").get<std::string>();
                     if (!target->emplace(name, p.at("count").get<int64_t>()).second)
                       throw std::runtime_error(std::string(key) + " lists " + name + " twice");
                   }
                 }
                 m::publish_partition_profile_names(st);
                 json profiles = json::array();
                 for (const auto& p : st.detail.sliced_detail.physical.profiles)
                   profiles.push_back({{"name", p.name}, {"count", p.count}, {"memoryMib", p.memory_mib}});
                 return {{"status",
                          {{"detail",
                            {{"manufacturer", st.detail.manufacturer},
                             {"slicedDetail", {{"physical", {{"profiles", profiles}}}}}}},
                           {"acceleratorPartitioned",
                            {{"remainingProfiles", profile_counts_json(st.accelerator_partitioned.remaining_profiles)},
                             {"allocatedProfiles", profile_counts_json(st.accelerator_partitioned.allocated_profiles)}}}}}};
               })

// InstanceTypeReconciler.Reconcile, one pass: the type {name, acceleratable, generalGroup,
// acceleratorGroup, os, arch, inactive, finalizers, deleting, status.phase} and, when present, its
// queue (see cluster_queue_from). The answer: the writes in order as "<Verb> <Kind>", and the
// requeue (0 when none).
GOLDEN_HANDLER(Spec("queue-stop-policy", "InstanceTypeReconciler.Reconcile").alias("InstanceTypeReconciler")
                   .setup("one pass over a type and its queue")
                   .in({"instanceType"}).opt({"clusterQueue", "instanceTypeAwareCPUManufacturer"})
                   .out({"writes", "requeueAfterSeconds"}),
               [](const json& in, const json&) -> json {
                 m::ClusterState state;
                 const bool aware = in.value("instanceTypeAwareCPUManufacturer", false);
                 state.settings.instance_type_aware_cpu_manufacturer = aware;
                 const m::InstanceType it = instance_type_from(in.at("instanceType"));
                 state.instance_types[it.metadata.name] = it;
                 if (in.contains("clusterQueue") && !in.at("clusterQueue").is_null()) {
                   const m::ClusterQueue cq = cluster_queue_from(in.at("clusterQueue"), it, aware);
                   state.cluster_queues[cq.metadata.name] = cq;
                 }
                 const m::Plan plan = m::reconcile_instance_type(state, it.metadata.name);
                 json writes = json::array();
                 for (const auto& w : plan.writes) {
                   const char* kind = m::object_if<m::InstanceType>(w.object) != nullptr   ? "InstanceType"
                                      : m::object_if<m::ClusterQueue>(w.object) != nullptr ? "ClusterQueue"
                                                                                          : "other";
                   writes.push_back(std::string(verb_name(w.verb)) + " " + kind);
                 }
                 int64_t requeue = 0;
                 for (const auto& r : plan.requeues) requeue = r.after_seconds;
                 return {{"writes", writes}, {"requeueAfterSeconds", requeue}};
               })
