// Golden handlers for the queue cases of flavors.json (node_queue_test.go): resource groups,
// topology-readiness refusals and AdmissionCheck references. Each handler builds the test's
// fixture world (tests/model/stage4/node_queue_fixtures.h mirrors its builders), runs the pure
// NodeQueue reconciler as many passes as the test does, and reports what the queue became.
#include <stdexcept>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage4/node_queue_reconciler.h"
#include "model/stage4/queue_admission_checks.h"
#include "model/stage4/queue_status.h"
#include "model/stage4/resource_groups.h"
#include "model/stage4/stop_policy_migration.h"
#include "model/stage4/tas_validation.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;
#include "tests/model/stage4/node_queue_fixtures.h"

namespace {

using chaintwin::golden::json;
namespace m = chaintwin::model;
namespace fx = chaintwin::model::queue_fixtures;

constexpr const char* kArea = "flavors-and-queue-resource-groups";

json topology_ready_reason(const m::ClusterState& s, const std::string& name) {
  const m::Condition* c = fx::topology_ready(s, name);
  return c ? json(c->reason) : json(nullptr);
}

json topology_ready_bool(const m::ClusterState& s, const std::string& name) {
  const m::Condition* c = fx::topology_ready(s, name);
  if (!c || c->status == "Unknown") return nullptr;
  return c->status == "True";
}

int64_t nominal_sum(const m::ClusterQueue& cq) {
  int64_t sum = 0;
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& f : g.flavors)
      for (const auto& r : f.resources) sum += r.nominal_quota.value_ceil();
  return sum;
}

size_t flavor_count(const m::ClusterQueue& cq) { return fx::flavor_names(cq).size(); }

json covered_resources(const m::ClusterQueue& cq) {
  json out = json::array();
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& r : g.covered_resources) out.push_back(r);
  return out;
}

json admission_checks_strategy(const m::ClusterQueue& cq) {
  if (cq.spec.admission_checks.empty()) return nullptr;
  json out = json::array();
  for (const auto& name : cq.spec.admission_checks) out.push_back({{"name", name}});
  return out;
}

// The queue's groups summarised the way the flavor-limit and refusal cases read them.
json groups_summary(const m::ClusterState& s, const std::string& name) {
  const auto& cq = s.cluster_queues.at(name);
  json got;
  got["resourceGroups"] = cq.spec.resource_groups.empty() ? json("empty") : json(cq.spec.resource_groups.size());
  got["groups"] = cq.spec.resource_groups.size();
  got["flavors"] = flavor_count(cq);
  got["sumNominalCpu"] = nominal_sum(cq);
  got["topologyReady"] = topology_ready_bool(s, name);
  got["topologyReadyReason"] = topology_ready_reason(s, name);
  return got;
}

// TestNodeQueueReconciler_TASFlavorLimit: flavor i has per-node count i and capacity i.
json flavor_limit(const json& in, const json&) {
  const std::string key = "generic";
  const std::string name = fx::node_queue_name(key);
  std::vector<m::ResourceFlavor> flavors;
  for (int64_t i = 1; i <= in.at("flavorCount").get<int64_t>(); ++i)
    flavors.push_back(fx::nodes_flavor("gpustack-generic-linux-amd64-" + std::to_string(i) + "c-profile", key, i, i));
  auto s = fx::queue_world({fx::instance_type_queue(key, false)}, flavors);
  fx::reconcile_once(s, name);
  return groups_summary(s, name);
}

// TestNodeQueueReconciler_RejectsInvalidTASQueueInputs.
json rejects_invalid(const json& in, const json&) {
  const std::string key = "generic";
  const std::string name = fx::node_queue_name(key);
  const std::string setup = in.at("setup").get<std::string>();
  m::ClusterState s;
  if (setup.find("select the same Node") != std::string::npos) {
    s = fx::queue_world({fx::instance_type_queue(key, false)},
                        {fx::nodes_flavor("gpustack-generic-linux-amd64-4c-a", key, 4, 4),
                         fx::nodes_flavor("gpustack-generic-linux-amd64-4c-b", key, 4, 4)});
  } else if (setup.find("Topology object is deleted") != std::string::npos) {
    s = fx::queue_world({fx::instance_type_queue(key, false)}, {fx::nodes_flavor("gpustack-generic-linux-amd64-4c", key, 4, 4)});
    s.topologies.erase(s.resource_flavors.begin()->second.spec.topology_name);
  } else if (setup.find("selects 2 Nodes; its .capacity label is then") != std::string::npos) {
    // A flavor of count 4 over two Nodes (capacity 8), whose .capacity label is then edited.
    s = fx::queue_world({fx::instance_type_queue(key, false)}, {fx::nodes_flavor("gpustack-generic-linux-amd64-4c", key, 4, 8)});
    auto& labels = s.resource_flavors.begin()->second.metadata.labels;
    std::string capacity_key;
    for (const auto& [k, v] : labels)
      if (k.size() > 9 && k.substr(k.size() - 9) == ".capacity") capacity_key = k;
    if (capacity_key.empty()) throw std::runtime_error("the fixture flavor has no .capacity label");
    const auto to = setup.find("set to ");
    if (setup.find("is then removed") != std::string::npos) {
      labels.erase(capacity_key);
    } else if (to != std::string::npos) {
      labels[capacity_key] = setup.substr(to + 7);
    } else {
      throw std::runtime_error("unknown setup: " + setup);
    }
  } else if (setup.find("has no flavor") != std::string::npos) {
    // One flavor over its one Node, and a second managed, profiled Node of the pool with another
    // count that no flavor selects.
    s = fx::queue_world({fx::instance_type_queue(key, false)}, {fx::nodes_flavor("gpustack-generic-linux-amd64-4c", key, 4, 4)});
    const auto& rf = s.resource_flavors.begin()->second;
    m::Node extra;
    extra.metadata.name = "node-unselected";
    extra.metadata.labels = rf.spec.node_labels;
    for (auto& [k, v] : extra.metadata.labels.mut())
      if (k.size() > 6 && k.substr(k.size() - 6) == ".count") v = "8";
    extra.metadata.labels[fx::str(m::keys::kHostname)] = extra.metadata.name;
    s.nodes[extra.metadata.name] = extra;
  } else {
    throw std::runtime_error("unknown setup: " + setup);
  }
  const int64_t requeue = fx::reconcile_once(s, name);
  json got = groups_summary(s, name);
  got["requeueAfterSeconds"] = requeue;
  return got;
}

// TestValidateTASFlavors_CPUOnlyNodeMatchesFlavor: the CPU flavor of one managed 4-core node, as
// the flavor reconciler writes it with mixing off (nodeLabels pin feature.gpustack.ai/cpu-only).
json cpu_only_node(const json&, const json&) {
  m::Node node;
  node.metadata.name = "node-a";
  node.metadata.labels = {{fx::str(m::keys::kManaged), "true"},
                          {fx::str(m::keys::kOs), "linux"},
                          {fx::str(m::keys::kArch), "amd64"},
                          {fx::str(m::keys::kTopologyProfile), fx::hostname_profile()}};
  node.status.capacity["cpu"] = m::Quantity::from_int(4);
  const std::string gkey = m::extract_general_node_key(node);
  node.metadata.labels[fx::str(m::keys::kGeneralPrefix) + gkey] = "true";
  node.metadata.labels[fx::str(m::keys::kGeneralPrefix) + gkey + ".count"] = "4";
  node.metadata.labels[fx::str(m::keys::kCpuOnly)] = "true";

  m::NodeFlavor cpu;
  for (const auto& f : m::extract_node_flavors(node))
    if (!f.acceleratable) cpu = f;
  const std::string profile = fx::hostname_profile();
  m::ResourceFlavor rf = fx::nodes_flavor(m::topology_qualified_flavor_name(cpu.name, profile), gkey, cpu.count, cpu.count);
  rf.spec.node_labels = cpu.node_labels;
  rf.spec.node_labels[fx::str(m::keys::kTopologyProfile)] = profile;
  rf.spec.node_labels[fx::str(m::keys::kCpuOnly)] = "true";

  rf.metadata.labels[fx::str(m::keys::kTopologyProfile)] = profile;
  rf.spec.topology_name = m::topology_name(profile);

  m::ClusterState s;
  s.settings.instance_type_mixed_on_node = false;
  s.nodes[node.metadata.name] = node;
  s.resource_flavors[rf.metadata.name] = rf;
  s.topologies[rf.spec.topology_name].metadata.name = rf.spec.topology_name;

  const auto reason = [&]() -> json {
    const auto refusal = m::validate_tas_flavors(s, {}, {rf});
    return refusal ? json(refusal->reason) : json(nullptr);
  };
  json got;
  got["withLabel"] = reason();
  s.nodes.at("node-a").metadata.labels.erase(fx::str(m::keys::kCpuOnly));
  got["afterRemovingNodeLabel"] = reason();
  return got;
}

// TestNodeQueueReconciler_DoesNotRewriteExistingQueue / _RejectsDuplicateCoveredResource.
json existing_groups(const json& in, const json&) {
  const std::string key = "generic";
  const std::string name = fx::node_queue_name(key);
  m::ClusterQueue cq;
  if (in.contains("existingGroups")) {
    cq = fx::instance_type_queue(key, false, {fx::cpu_resource_group("first", 2), fx::cpu_resource_group("second", 2)});
  } else {
    cq = fx::instance_type_queue(key, false, {fx::cpu_resource_group("legacy-non-tas", 4)});
    if (in.value("queueAnnotation topology.gpustack.ai/tas-queue", "") == "absent")
      cq.metadata.annotations.erase(fx::str(m::keys::kTasQueue));
  }
  const auto original = cq.spec.resource_groups;
  auto s = fx::queue_world({cq}, {fx::nodes_flavor("gpustack-generic-linux-amd64-4c", key, 4, 4)});
  fx::reconcile_once(s, name);
  const auto& after = s.cluster_queues.at(name).spec.resource_groups;
  json got;
  got["resourceGroupsUnchanged"] = after == original;
  got["groupsUnchanged"] = after == original ? json(after.size()) : json("changed");
  got["topologyReadyReason"] = topology_ready_reason(s, name);
  return got;
}

json queue_result(const m::ClusterState& s, const std::string& name) {
  const auto& cq = s.cluster_queues.at(name);
  json got;
  got["coveredResources"] = covered_resources(cq);
  got["flavorCount"] = flavor_count(cq);
  got["flavors"] = fx::flavor_names(cq);
  got["sumNominalCredits"] = nominal_sum(cq);
  got["admissionChecksStrategy"] = admission_checks_strategy(cq);
  return got;
}

// TestNodeQueueReconciler_GenericCollapsedFillsFromAllCPUFlavors / _AwareGenericExcludesAcceleratedFlavor.
json generic_queue(const json& in, const json&) {
  const auto& labels = in.at("queueLabels");
  std::string general_group;
  for (const auto& [k, v] : labels.items())
    if (k.rfind(fx::str(m::keys::kGeneralPrefix), 0) == 0 && v == "true") general_group = k.substr(m::keys::kGeneralPrefix.size());
  const std::string name = general_group.empty() ? "gpustack--generic-linux-amd64" : "gpustack--" + general_group + "-linux-amd64";
  std::vector<m::ResourceFlavor> flavors;
  if (general_group.empty()) {
    flavors = {fx::nodes_flavor("gpustack--amd-epyc-7763-linux-amd64-8c", "amd-epyc-7763", 8, 8),
               fx::nodes_flavor("gpustack--intel-xeon-8358-linux-amd64-4c", "intel-xeon-8358", 4, 4)};
  } else {
    // A same-CPU accelerated flavor carries the paired general.<gKey> presence plus acceleratable=true.
    flavors = {fx::nodes_flavor("gpustack--" + general_group + "-linux-amd64-8c", general_group, 8, 8),
               fx::nodes_flavor("gpustack--" + general_group + "--nvidia-a10g-linux-amd64-1d", "nvidia-a10g", 1, 4,
                                "nvidia", general_group)};
  }
  auto s = fx::queue_world({fx::collapsed_generic_queue(name, general_group)}, flavors);
  fx::reconcile_n(s, name, 2);
  return queue_result(s, name);
}

// TestNodeQueueReconciler_AggregatesCapacity: the flavors of one key (nvidia-a10g, or the generic CPU
// key when not acceleratable), each with its count, capacity and extra labels.
json aggregates(const json& in, const json&) {
  const bool accelerated = in.value("acceleratable", true);
  const std::string key = accelerated ? "nvidia-a10g" : "generic";
  std::vector<m::ResourceFlavor> flavors;
  for (const auto& f : in.at("flavors")) {
    auto rf = fx::nodes_flavor(f.at("name"), key, f.at("count"), f.at("capacity"), accelerated ? "nvidia" : "");
    const json labels = f.value("labels", json::object());
    for (const auto& [k, v] : labels.items()) rf.metadata.labels[k] = v.get<std::string>();
    flavors.push_back(std::move(rf));
  }
  const std::string name = fx::node_queue_name(key);
  auto s = fx::queue_world({fx::instance_type_queue(key, accelerated)}, flavors);
  fx::reconcile_n(s, name, 2);
  json got = queue_result(s, name);
  const auto& cq = s.cluster_queues.at(name);
  json quotas = json::array();
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& fq : g.flavors)
      for (const auto& r : fq.resources) quotas.push_back(r.nominal_quota.to_string());
  got["nominalQuotas"] = quotas;
  got["sumNominalCpu"] = accelerated ? json(nullptr) : json(nominal_sum(cq));
  got["topologyReadyReason"] = topology_ready_reason(s, name);
  return got;
}

// TestNodeQueueReconciler_IgnoresTerminatingFlavor / partial pool: count = capacity = the name's count.
json terminating_flavor(const json& in, const json&) {
  const std::string key = "generic";
  const std::string live = in.at("live"), dead = in.at("terminating");
  const int64_t live_count = m::parse_node_flavor_count(live), dead_count = m::parse_node_flavor_count(dead);
  auto s = fx::queue_world({fx::instance_type_queue(key, false)},
                           {fx::nodes_flavor(live, key, live_count, live_count),
                            fx::terminating(fx::nodes_flavor(dead, key, dead_count, dead_count))});
  fx::reconcile_n(s, fx::node_queue_name(key), 2);
  return queue_result(s, fx::node_queue_name(key));
}

// TestNodeQueueReconciler_ReferencesAdmissionCheckWhenActive / _ReferencesTheJointCheckFromEveryQueue /
// _TheJointCheckWaitsForActive.
json admission_checks(const json& in, const json& want) {
  const bool accelerated = in.at("acceleratable").get<bool>();
  const std::string key = accelerated ? "nvidia-a10g" : "generic";
  std::vector<m::AdmissionCheck> checks;
  if (in.contains("admissionCheckActive"))
    checks.push_back(fx::admission_check(fx::str(m::kNodeDevicesAdmissionCheckName),
                                         fx::str(m::kNodeDevicesAdmissionCheckController), in.at("admissionCheckActive")));
  if (in.contains("jointCheckActive"))
    checks.push_back(fx::admission_check(fx::str(m::kJointAdmissionCheckName), "worker.gpustack.ai/model-deployment-joint",
                                         in.at("jointCheckActive")));
  const std::string flavor = accelerated ? "gpustack-nvidia-a10g-linux-amd64-1d" : "gpustack-generic-linux-amd64-1d";
  auto s = fx::queue_world({fx::instance_type_queue(key, accelerated)},
                           {fx::nodes_flavor(flavor, key, 1, 4, accelerated ? "nvidia" : "")}, checks);
  s.settings.instance_type_derived_from_node = in.at("instance-type-derived-from-node").get<bool>();
  fx::reconcile_n(s, fx::node_queue_name(key), 2);
  json got = queue_result(s, fx::node_queue_name(key));
  // admissionChecksContains: the named check when the queue lists it, else the whole list.
  const auto& listed = s.cluster_queues.at(fx::node_queue_name(key)).spec.admission_checks;
  got["admissionChecksContains"] = json(listed);
  if (want.contains("admissionChecksContains"))
    for (const auto& c : listed)
      if (c == want.at("admissionChecksContains")) got["admissionChecksContains"] = c;
  return got;
}

GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueueReconciler.Reconcile").setup("n flavors for one queue (TAS flavor limit)").in({"flavorCount", "queue"}).out({"resourceGroups", "groups", "flavors", "sumNominalCpu", "topologyReady", "topologyReadyReason"}), flavor_limit);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueueReconciler.Reconcile").setup("an invalid TAS setup").in({"setup"}).out({"resourceGroups", "groups", "flavors", "sumNominalCpu", "topologyReady", "topologyReadyReason", "requeueAfterSeconds"}), rejects_invalid);
GOLDEN_HANDLER(Spec(kArea, "validateTASFlavors").in({"flavorNodeLabels includes"}).out({"withLabel", "afterRemovingNodeLabel"}), cpu_only_node);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueueReconciler.Reconcile").setup("a queue that already has groups").opt({"queueAnnotation topology.gpustack.ai/tas-queue", "queueHasGroups", "existingGroups"}).out({"resourceGroupsUnchanged", "groupsUnchanged", "topologyReadyReason"}), existing_groups);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueueReconciler.Reconcile").setup("a generic queue over CPU and accelerated flavors").in({"flavors", "queueLabels"}).out({"coveredResources", "flavorCount", "flavors", "sumNominalCredits", "admissionChecksStrategy"}), generic_queue);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueueReconciler.Reconcile").setup("flavors of one key, each with count and capacity").in({"flavors"}).opt({"acceleratable"}).out({"coveredResources", "flavorCount", "flavors", "sumNominalCredits", "admissionChecksStrategy", "nominalQuotas", "sumNominalCpu", "topologyReadyReason"}), aggregates);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueueReconciler.Reconcile").setup("a live and a terminating flavor").in({"live", "terminating"}).out({"coveredResources", "flavorCount", "flavors", "sumNominalCredits", "admissionChecksStrategy"}), terminating_flavor);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueueReconciler.Reconcile").alias("admissionCheckActive").setup("AdmissionChecks active or not").in({"acceleratable", "instance-type-derived-from-node"}).opt({"admissionCheckActive", "jointCheckActive"}).out({"admissionChecksStrategy", "admissionChecksContains", "coveredResources", "flavorCount", "flavors", "sumNominalCredits"}), admission_checks);

// A ResourceFlavor of a case: {name, labels, nodeLabels}.
m::ResourceFlavor case_flavor(const json& in) {
  m::ResourceFlavor rf;
  rf.metadata.name = in.at("name").get<std::string>();
  const json labels = in.value("labels", json::object()), node_labels = in.value("nodeLabels", json::object());
  for (const auto& [k, v] : labels.items()) rf.metadata.labels[k] = v.get<std::string>();
  for (const auto& [k, v] : node_labels.items()) rf.spec.node_labels[k] = v.get<std::string>();
  return rf;
}

json groups_json(const std::vector<m::ResourceGroup>& groups) {
  json out = json::array();
  for (const auto& g : groups) {
    json flavors = json::array();
    for (const auto& f : g.flavors) {
      json resources = json::array();
      for (const auto& r : f.resources) {
        json rj = {{"name", r.name}, {"nominalQuota", r.nominal_quota.to_string()}};
        if (r.borrowing_limit) rj["borrowingLimit"] = r.borrowing_limit->to_string();
        if (r.lending_limit) rj["lendingLimit"] = r.lending_limit->to_string();
        resources.push_back(rj);
      }
      flavors.push_back({{"name", f.name}, {"resources", resources}});
    }
    out.push_back({{"coveredResources", g.covered_resources}, {"flavors", flavors}});
  }
  return out;
}

// buildResourceGroups(flavors, acceleratable, manufacturer) over the flavors in the order
// fillClusterQueue hands them over (smallest per-node count first, then name); with `presorted`
// true, in the order the case lists them (buildResourceGroups alone keeps its input order).
GOLDEN_HANDLER(Spec(kArea, "buildResourceGroups").in({"flavors", "acceleratable", "manufacturer"}).opt({"presorted"})
                   .out({"resourceGroups", "flavorOrder"}),
               [](const json& in, const json&) -> json {
  std::vector<m::ResourceFlavor> flavors;
  for (const auto& f : in.at("flavors")) flavors.push_back(case_flavor(f));
  if (!in.value("presorted", false)) m::sort_by_per_node_count(flavors);
  json order = json::array();
  for (const auto& rf : flavors) order.push_back(rf.metadata.name);
  const auto groups = m::build_resource_groups(flavors, in.at("acceleratable").get<bool>(),
                                               in.at("manufacturer").get<std::string>());
  return {{"resourceGroups", groups_json(groups)}, {"flavorOrder", order}};
});

// parseResourceFlavorCapacity(rf): the pooled capacity read from the flavor's metadata labels.
GOLDEN_HANDLER(Spec(kArea, "parseResourceFlavorCapacity").in({"labels"}).out({"capacity"}),
               [](const json& in, const json&) -> json {
  m::ResourceFlavor rf;
  for (const auto& [k, v] : in.at("labels").items()) rf.metadata.labels[k] = v.get<std::string>();
  return {{"capacity", m::resource_flavor_capacity(rf)}};
});

// drainOrEmptyClusterQueue(cq) for an operator queue of the generic CPU pool whose pool has no live
// flavor left: the queue's stop policy ("unset" for none), its resource groups (one group covering
// cpu, one flavor of nominal 4 per listed name), its annotations, the workloads Kueue reports
// admitted, and Kueue's Active condition at the queue's generation ("Stopped" → False/Stopped,
// "Ready" → True/Ready, absent → none). Out: the queue after the one write (or as it was), whether
// there was a write, and the requeue.
GOLDEN_HANDLER(Spec(kArea, "drainOrEmptyClusterQueue")
                   .in({"stopPolicy", "resourceGroupFlavors", "admittedWorkloads", "instance-type-drain-when-no-flavors"})
                   .opt({"annotations", "kueueActive"})
                   .out({"stopPolicy", "resourceGroupFlavors", "annotations", "updated", "requeueAfterSeconds"}),
               [](const json& in, const json&) -> json {
  m::ClusterQueue cq = fx::instance_type_queue("generic", false);
  const auto policy = m::decode_stop_policy(in.at("stopPolicy").get<std::string>());
  if (!policy.ok()) throw std::runtime_error(policy.error());
  cq.spec.stop_policy = *policy;
  cq.metadata.annotations.clear();
  const json annotations_in = in.value("annotations", json::object());
  for (const auto& [k, v] : annotations_in.items()) cq.metadata.annotations[k] = v.get<std::string>();
  if (!in.at("resourceGroupFlavors").empty()) {
    m::ResourceGroup g;
    g.covered_resources = {"cpu"};
    for (const auto& name : in.at("resourceGroupFlavors"))
      g.flavors.push_back({name.get<std::string>(), {m::ResourceQuota{"cpu", m::Quantity::from_int(4), {}, {}}}});
    cq.spec.resource_groups = {g};
  }
  cq.status.admitted_workloads = in.at("admittedWorkloads").get<int32_t>();
  if (in.contains("kueueActive")) {
    const std::string active = in.at("kueueActive");
    if (active == "Stopped") {
      m::set_condition(cq.status.conditions, {std::string(m::kClusterQueueActiveCondition), "False",
                                              std::string(m::kClusterQueueActiveReasonStopped), "", cq.metadata.generation});
    } else if (active == "Ready") {
      m::set_condition(cq.status.conditions,
                       {std::string(m::kClusterQueueActiveCondition), "True", "Ready", "", cq.metadata.generation});
    } else {
      throw std::runtime_error("kueueActive is Stopped or Ready, not " + active);
    }
  }
  m::ClusterState state;
  state.settings.instance_type_drain_when_no_flavors = in.at("instance-type-drain-when-no-flavors").get<bool>();
  state.cluster_queues[cq.metadata.name] = cq;

  const m::NodeQueueDecision d = m::drain_or_empty_cluster_queue(state, cq);
  const m::ClusterQueue& after = d.update ? *d.update : cq;
  json annotations = json::object();
  for (const auto& [k, v] : after.metadata.annotations) annotations[k] = v;
  return {{"stopPolicy", m::encode_stop_policy(after.spec.stop_policy)},
          {"resourceGroupFlavors", fx::flavor_names(after)},
          {"annotations", annotations},
          {"updated", d.update.has_value()},
          {"requeueAfterSeconds", d.requeue_after_seconds}};
});

}  // namespace
