// Kueue's non-TAS usage (model/kueue/scheduler/non_tas_usage.h): which Pods count on their Node's
// TAS capacity, and what they add; the Pods pods_for_admission makes for a TAS-placed PodSet are
// TAS Pods, so they never count twice.
#include <catch2/catch.hpp>

#include "model/admission/pods_for_admission.h"
#include "model/kueue/scheduler/non_tas_usage.h"

using namespace chaintwin::model;

namespace {

Pod pod_on(const std::string& node, PodPhase phase, StringMap annotations = {}, StringMap labels = {}) {
  Pod p;
  p.metadata.name = "p";
  p.metadata.namespace_ = "default";
  p.metadata.annotations = std::move(annotations);
  p.metadata.labels = std::move(labels);
  p.node_name = node;
  p.phase = phase;
  Container c;
  c.name = "main";
  c.requests["cpu"] = Quantity::parse("1500m").value();
  c.requests["nvidia.com/gpu"] = Quantity::from_int(1);
  p.spec.containers.push_back(c);
  return p;
}

}  // namespace

TEST_CASE("a Pod counts as non-TAS usage only when bound, not terminated and not a TAS Pod", "[kueue][tas]") {
  struct Row {
    const char* what;
    Pod pod;
    bool counts;
  };
  const Row rows[] = {
      {"bound and Running", pod_on("n1", PodPhase::kRunning), true},
      {"bound and Pending", pod_on("n1", PodPhase::kPending), true},
      {"not bound", pod_on("", PodPhase::kPending), false},
      {"Succeeded", pod_on("n1", PodPhase::kSucceeded), false},
      {"Failed", pod_on("n1", PodPhase::kFailed), false},
      {"required topology", pod_on("n1", PodPhase::kRunning, {{"kueue.x-k8s.io/podset-required-topology", "zone"}}),
       false},
      {"preferred topology", pod_on("n1", PodPhase::kRunning, {{"kueue.x-k8s.io/podset-preferred-topology", "zone"}}),
       false},
      {"unconstrained topology",
       pod_on("n1", PodPhase::kRunning, {{"kueue.x-k8s.io/podset-unconstrained-topology", "true"}}), false},
      {"the deprecated TAS label", pod_on("n1", PodPhase::kRunning, {}, {{"kueue.x-k8s.io/tas", "true"}}), false},
      {"a Kueue Pod placed without topology",
       pod_on("n1", PodPhase::kRunning, {{"kueue.x-k8s.io/workload", "w"}}, {{"kueue.x-k8s.io/queue-name", "q"}}),
       true},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(counts_as_non_tas_usage(r.pod) == r.counts);
    UsageSnapshot s;
    add_non_tas_pod_usage(s, r.pod);
    if (r.counts) {
      CHECK(s.nodes == NodeUsage{{"n1", {{"cpu", 1500}, {"nvidia.com/gpu", 1}, {"pods", 1}}}});
    } else {
      CHECK(s.nodes.empty());
    }
  }
}

TEST_CASE("removing a non-TAS Pod's usage gives back exactly what adding it took", "[kueue][tas]") {
  UsageSnapshot s;
  const Pod p = pod_on("n1", PodPhase::kRunning);
  add_non_tas_pod_usage(s, p, +1);
  add_non_tas_pod_usage(s, p, +1);
  CHECK(s.nodes.at("n1").at("pods") == 2);
  add_non_tas_pod_usage(s, p, -1);
  add_non_tas_pod_usage(s, p, -1);
  CHECK(same_usage(s, UsageSnapshot{}));
}

TEST_CASE("build_usage_snapshot adds bound Pods outside Kueue to the TAS usage of their Node", "[kueue][tas]") {
  WorkloadState ws;
  ws.pods["inference/ollama"] = pod_on("n1", PodPhase::kRunning);
  ws.pods["default/done"] = pod_on("n2", PodPhase::kSucceeded);
  const UsageSnapshot s = build_usage_snapshot(ws);
  CHECK(s.nodes == NodeUsage{{"n1", {{"cpu", 1500}, {"nvidia.com/gpu", 1}, {"pods", 1}}}});
}

TEST_CASE("the Pods of a PodSet placed by TAS are TAS Pods, those of a PodSet placed without topology are not",
          "[kueue][tas]") {
  Workload wl;
  wl.metadata.name = "w";
  wl.metadata.namespace_ = "default";
  PodSet tas;
  tas.name = "tas";
  PodSet zoned;
  zoned.name = "zoned";
  zoned.template_.annotations["kueue.x-k8s.io/podset-required-topology"] = "topology.kubernetes.io/zone";
  PodSet plain;
  plain.name = "plain";
  wl.pod_sets = {tas, zoned, plain};
  Admission a;
  a.cluster_queue = "cq";
  TopologyAssignment ta;
  ta.levels = {std::string(kHostnameLabel)};
  ta.domains = {{{"n1"}, 1}};
  for (const char* name : {"tas", "zoned"}) {
    PodSetAssignment psa;
    psa.name = name;
    psa.topology_assignment = ta;
    a.pod_set_assignments.push_back(psa);
  }
  PodSetAssignment none;
  none.name = "plain";
  a.pod_set_assignments.push_back(none);
  wl.status.admission = a;
  std::map<std::string, bool> tas_pod;
  std::map<std::string, std::string> unconstrained;
  for (const Pod& p : pods_for_admission(wl)) {
    tas_pod[p.metadata.name] = is_tas_pod(p);
    const auto u = p.metadata.annotations.find("kueue.x-k8s.io/podset-unconstrained-topology");
    unconstrained[p.metadata.name] = u == p.metadata.annotations.end() ? "" : u->second;
  }
  CHECK(tas_pod == std::map<std::string, bool>{{"w-plain-0", false}, {"w-tas-0", true}, {"w-zoned-0", true}});
  CHECK(unconstrained ==
        std::map<std::string, std::string>{{"w-plain-0", ""}, {"w-tas-0", "true"}, {"w-zoned-0", ""}});
}
