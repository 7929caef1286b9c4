// Kueue's ClusterQueue readiness and resource-in-use finalizers as a pure reconciler.
#include "model/kueue/kueue_status_reconciler.h"

#include <algorithm>
#include <functional>
#include <set>

namespace chaintwin::model {
namespace {

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : std::string(sep)) + items[i];
  return out;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

bool has_finalizer(const ObjectMeta& meta) {
  return std::find(meta.finalizers.begin(), meta.finalizers.end(), kKueueResourceInUseFinalizer) !=
         meta.finalizers.end();
}

template <typename T>
T with_finalizer(T o) {
  o.metadata.finalizers.emplace_back(kKueueResourceInUseFinalizer);
  return o;
}

template <typename T>
T without_finalizer(T o) {
  auto& f = o.metadata.finalizers;
  f.erase(std::remove(f.begin(), f.end(), kKueueResourceInUseFinalizer), f.end());
  return o;
}

// Adds the finalizer to live objects and releases it from terminating ones nobody uses.
template <typename T>
void sync_finalizers(Plan& plan, std::string_view kind, const std::map<std::string, T>& objects,
                     const std::function<std::vector<std::string>(const std::string&)>& users,
                     std::string_view user_kind) {
  const std::string controller(kKueueController);
  for (const auto& [name, o] : objects) {
    const bool has = has_finalizer(o.metadata);
    const std::string what = std::string(kind) + " " + name;
    if (!o.metadata.deletion_timestamp) {
      if (!has)
        plan.writes.push_back({WriteVerb::kUpdate, with_finalizer(o), controller,
                               "Kueue protects " + what + " with " + std::string(kKueueResourceInUseFinalizer)});
      continue;
    }
    if (!has) continue;
    const auto using_it = users(name);
    if (!using_it.empty()) continue;
    plan.writes.push_back({WriteVerb::kUpdate, without_finalizer(o), controller,
                           what + " is terminating and no " + std::string(user_kind) + " uses it"});
  }
}

std::vector<std::string> referenced_flavors(const ClusterQueue& cq) {
  std::vector<std::string> out;
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& f : g.flavors) out.push_back(f.name);
  return out;
}

// Kueue's per-flavor usage list for `spec`: every flavor and covered resource of its groups,
// keeping the totals `current` reports (the simulator fills them), 0 otherwise.
std::vector<FlavorUsage> listed_usage(const ClusterQueueSpec& spec, const std::vector<FlavorUsage>& current) {
  std::vector<FlavorUsage> out;
  for (const auto& group : spec.resource_groups) {
    for (const auto& fq : group.flavors) {
      FlavorUsage u;
      u.name = fq.name;
      const auto cur = std::find_if(current.begin(), current.end(), [&](const FlavorUsage& c) { return c.name == fq.name; });
      for (const auto& resource : group.covered_resources) {
        ResourceUsage r;
        r.name = resource;
        if (cur != current.end())
          for (const auto& cr : cur->resources)
            if (cr.name == resource) r = cr;
        u.resources.push_back(std::move(r));
      }
      out.push_back(std::move(u));
    }
  }
  return out;
}

}  // namespace

bool cluster_queue_empty(const ClusterQueue& cq) {
  return cq.status.reserving_workloads == 0 && cq.status.admitted_workloads == 0;
}

std::vector<std::string> cluster_queues_using_flavor(const ClusterState& state, const std::string& flavor) {
  std::vector<std::string> out;
  for (const auto& [name, cq] : state.cluster_queues) {
    const auto flavors = referenced_flavors(cq);
    if (std::find(flavors.begin(), flavors.end(), flavor) != flavors.end()) out.push_back(name);
  }
  return out;
}

std::vector<std::string> cluster_queues_using_admission_check(const ClusterState& state, const std::string& check) {
  std::vector<std::string> out;
  for (const auto& [name, cq] : state.cluster_queues) {
    const auto& checks = cq.spec.admission_checks;
    if (std::find(checks.begin(), checks.end(), check) != checks.end()) out.push_back(name);
  }
  return out;
}

std::vector<std::string> flavors_using_topology(const ClusterState& state, const std::string& topology) {
  std::vector<std::string> out;
  for (const auto& [name, rf] : state.resource_flavors)
    if (rf.spec.topology_name == topology) out.push_back(name);
  return out;
}

Condition cluster_queue_active_condition(const ClusterQueue& cq, const ClusterState& state) {
  Condition c;
  c.type = std::string(kClusterQueueActiveCondition);
  c.observed_generation = cq.metadata.generation;
  if (cq.metadata.deletion_timestamp) {
    c.status = "False";
    c.reason = "Terminating";
    c.message = "Can't admit new workloads; clusterQueue is terminating";
    return c;
  }
  std::vector<std::string> reasons, messages;
  if (cq.stop_policy() != StopPolicy::kNone) {
    reasons.emplace_back("Stopped");
    messages.emplace_back("is stopped");
  }
  std::vector<std::string> missing_flavors;
  std::vector<std::pair<std::string, std::string>> missing_topologies;  // (topology, flavor)
  for (const auto& f : referenced_flavors(cq)) {
    const auto it = state.resource_flavors.find(f);
    if (it == state.resource_flavors.end()) {
      missing_flavors.push_back(f);
      continue;
    }
    const std::string& topology = it->second.spec.topology_name;
    if (!topology.empty() && state.topologies.count(topology) == 0) missing_topologies.emplace_back(topology, f);
  }
  if (!missing_flavors.empty()) {
    reasons.emplace_back("FlavorNotFound");
    messages.push_back("references missing ResourceFlavor(s): " + join(missing_flavors, ","));
  }
  std::set<std::string> missing_checks, inactive_checks;
  for (const auto& name : cq.spec.admission_checks) {
    const auto it = state.admission_checks.find(name);
    if (it == state.admission_checks.end()) missing_checks.insert(name);
    else if (!it->second.active()) inactive_checks.insert(name);
  }
  if (!missing_checks.empty()) {
    reasons.emplace_back("AdmissionCheckNotFound");
    messages.push_back("references missing AdmissionCheck(s): " +
                       join({missing_checks.begin(), missing_checks.end()}, ","));
  }
  if (!inactive_checks.empty()) {
    reasons.emplace_back("AdmissionCheckInactive");
    messages.push_back("references inactive AdmissionCheck(s): " +
                       join({inactive_checks.begin(), inactive_checks.end()}, ","));
  }
  for (const auto& [topology, flavor] : missing_topologies) {
    reasons.emplace_back("TopologyNotFound");
    messages.push_back("there is no Topology " + quoted(topology) + " for TAS flavor " + quoted(flavor));
  }
  if (reasons.empty()) {
    c.status = "True";
    c.reason = "Ready";
    c.message = "Can admit new workloads";
    return c;
  }
  c.status = "False";
  c.reason = reasons.front();
  c.message = "Can't admit new workloads: " + join(messages, ", ") + ".";
  return c;
}

Plan reconcile_kueue(const ClusterState& state) {
  Plan plan;
  sync_finalizers<ResourceFlavor>(
      plan, "ResourceFlavor", state.resource_flavors,
      [&](const std::string& n) { return cluster_queues_using_flavor(state, n); }, "ClusterQueue");
  sync_finalizers<AdmissionCheck>(
      plan, "AdmissionCheck", state.admission_checks,
      [&](const std::string& n) { return cluster_queues_using_admission_check(state, n); }, "ClusterQueue");
  sync_finalizers<Topology>(
      plan, "Topology", state.topologies, [&](const std::string& n) { return flavors_using_topology(state, n); },
      "ResourceFlavor");

  const std::string controller(kKueueController);
  for (const auto& [name, cq] : state.cluster_queues) {
    const bool has = has_finalizer(cq.metadata);
    if (cq.metadata.deletion_timestamp && has) {
      // Kueue releases a terminating queue only once it is empty, and reports nothing meanwhile.
      if (cluster_queue_empty(cq))
        plan.writes.push_back({WriteVerb::kUpdate, without_finalizer(cq), controller,
                               "ClusterQueue " + name + " is terminating and holds no workload"});
      continue;
    }
    if (!cq.metadata.deletion_timestamp && !has)
      plan.writes.push_back({WriteVerb::kUpdate, with_finalizer(cq), controller,
                             "Kueue protects ClusterQueue " + name + " with " +
                                 std::string(kKueueResourceInUseFinalizer)});
    ClusterQueue reported = cq;
    const Condition active = cluster_queue_active_condition(cq, state);
    const bool condition_changed = set_condition(reported.status.conditions, active);
    // Kueue lists every flavor × covered resource of the queue's groups, at 0 while idle.
    reported.status.flavors_reservation = listed_usage(cq.spec, cq.status.flavors_reservation);
    reported.status.flavors_usage = listed_usage(cq.spec, cq.status.flavors_usage);
    if (!condition_changed && reported.status == cq.status) continue;
    plan.writes.push_back({WriteVerb::kUpdateStatus, std::move(reported), controller,
                           "ClusterQueue " + name + " is " + (active.status == "True" ? "active" : "inactive") +
                               " (" + active.reason + ")"});
  }
  return plan;
}

}  // namespace chaintwin::model
