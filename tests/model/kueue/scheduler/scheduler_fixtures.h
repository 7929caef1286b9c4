// Builders for the Kueue admission tests: a cluster of labelled nodes, TAS flavors, isolated
// ClusterQueues on credits.gpustack.ai/nvidia and Workloads requesting whole cards, with every
// field the test does not care about defaulted.
#pragma once

#include <string>
#include <vector>

#include "model/kueue/scheduler/admission_lifecycle.h"
#include "model/kueue/scheduler/scheduler.h"

namespace chaintwin::model::testing {

inline const std::string kCredits = "credits.gpustack.ai/nvidia";
inline const std::string kGpu = "nvidia.com/gpu";
inline constexpr int64_t kM = 1'600'000;

inline Quantity q(int64_t v) { return Quantity::from_int(v); }
inline ObjectMeta meta(const std::string& name, const std::string& ns = "") {
  ObjectMeta m;
  m.name = name;
  m.namespace_ = ns;
  return m;
}

struct Fixture {
  ClusterState cluster;
  WorkloadState state;
  QueueManager queues;
  KueueConfig config;

  Fixture() {
    cluster.topologies["t"] = Topology{meta("t"), {std::string(kHostnameLabel)}};
  }

  // A Node with `cards` GPUs, carrying pool=<pool> (the flavor's nodeLabel) and `labels`.
  Node& node(const std::string& name, int64_t cards, const std::string& pool = "p", StringMap labels = {}) {
    Node n;
    n.metadata.name = name;
    n.metadata.labels = std::move(labels);
    n.metadata.labels["pool"] = pool;
    n.metadata.labels[std::string(kHostnameLabel)] = name;
    n.status.allocatable[kGpu] = q(cards);
    n.status.allocatable["pods"] = q(110);
    return cluster.nodes[name] = n;
  }

  ResourceFlavor& flavor(const std::string& name, const std::string& pool = "p", const std::string& topology = "t") {
    ResourceFlavor rf;
    rf.metadata.name = name;
    rf.spec.node_labels = {{"pool", pool}};
    rf.spec.topology_name = topology;
    return cluster.resource_flavors[name] = rf;
  }

  // An isolated ClusterQueue covering credits, one flavor per (name, cards of nominal quota),
  // with a LocalQueue "lq-<name>" in namespace default.
  ClusterQueue& queue(const std::string& name, std::vector<std::pair<std::string, int64_t>> flavors,
                      std::vector<std::string> checks = {}, const std::string& strategy = "BestEffortFIFO") {
    ClusterQueue cq;
    cq.metadata.name = name;
    ResourceGroup g;
    g.covered_resources = {kCredits};
    for (const auto& [f, cards] : flavors) g.flavors.push_back({f, {{kCredits, q(cards * kM), {}, {}}}});
    cq.spec.resource_groups = {g};
    cq.spec.admission_checks = std::move(checks);
    cq.spec.queueing_strategy = strategy;
    cluster.local_queues["default/lq-" + name] = LocalQueue{meta("lq-" + name, "default"), name, {}};
    auto& stored = cluster.cluster_queues[name] = cq;
    queues.refresh(cluster);
    return stored;
  }

  AdmissionCheck& check(const std::string& name, bool active = true) {
    AdmissionCheck ac;
    ac.metadata.name = name;
    ac.conditions.push_back({"Active", active ? "True" : "False", active ? "Active" : "Inactive", "", 0});
    return cluster.admission_checks[name] = ac;
  }

  // A Workload of `count` Pods each requesting `cards` GPUs, submitted to lq-<queue> and queued.
  Workload& submit(const std::string& name, const std::string& queue, int64_t cards = 1, int32_t count = 1,
                   TimeUs created = 0, int32_t priority = 0) {
    Workload wl;
    wl.metadata.name = name;
    wl.metadata.namespace_ = "default";
    wl.queue_name = "lq-" + queue;
    wl.priority = priority;
    wl.creation_time = created;
    PodSet ps;
    ps.name = "main";
    ps.count = count;
    ps.template_.containers.push_back(Container{"c", {{kGpu, q(cards)}}, false});
    wl.pod_sets.push_back(ps);
    auto& stored = state.workloads["default/" + name] = wl;
    queues.add(cluster, stored);
    return stored;
  }

  Workload& wl(const std::string& name) { return state.workloads.at("default/" + name); }

  CycleResult cycle(TimeUs now = 0) { return schedule_cycle(cluster, state, queues, now, config); }

  const Condition* cond(const std::string& name, std::string_view type) {
    return find_condition(wl(name).status.conditions, type);
  }
  std::string message(const std::string& name) {
    const auto* c = cond(name, kWorkloadQuotaReserved);
    return c == nullptr ? "" : c->message;
  }
  // The hostnames (with counts) of the first PodSet's topology assignment.
  std::vector<std::pair<std::string, int32_t>> placement(const std::string& name) {
    std::vector<std::pair<std::string, int32_t>> out;
    const auto& a = wl(name).status.admission;
    if (!a || !a->pod_set_assignments.front().topology_assignment) return out;
    for (const auto& d : a->pod_set_assignments.front().topology_assignment->domains)
      out.emplace_back(d.values.back(), d.count);
    return out;
  }
};

}  // namespace chaintwin::model::testing
