#include <catch2/catch.hpp>

#include <functional>

#include "admission_builders.h"
#include "model/admission/workload_fit_pin.h"
#include "model/catalog/label_keys.h"

using namespace admission_test;

namespace {

const std::string kQueue = "gpustack-fnv64-0123456789abcdef";

ClusterState pool(bool fit_affinity = true) {
  ClusterState c;
  c.settings.workload_fit_affinity = fit_affinity;
  LocalQueue lq;
  lq.metadata.name = kQueue;
  lq.metadata.namespace_ = "team";
  lq.cluster_queue = "gpustack--nvidia-a10g-linux-amd64";
  c.local_queues[local_queue_key("team", kQueue)] = lq;
  ClusterQueue cq;
  cq.metadata.name = lq.cluster_queue;
  cq.metadata.labels[std::string(keys::kResourceType)] = std::string(keys::kClusterQueueResType);
  c.cluster_queues[cq.metadata.name] = cq;
  InstanceType it;
  it.metadata.name = cq.metadata.name;
  it.spec.accelerator_group = "nvidia-a10g";
  c.instance_types[it.metadata.name] = it;
  return c;
}

Workload workload(std::vector<Container> containers) {
  Workload wl;
  wl.metadata.name = "wl";
  wl.metadata.namespace_ = "team";
  wl.queue_name = kQueue;
  PodSet ps;
  ps.name = "main";
  ps.template_.containers = std::move(containers);
  wl.pod_sets = {ps};
  return wl;
}

std::vector<NodeSelectorRequirement> pins(const Workload& wl) {
  const auto& terms = wl.pod_sets.at(0).template_.required_node_affinity;
  return terms.empty() ? std::vector<NodeSelectorRequirement>{} : terms.front().match_expressions;
}

}  // namespace

TEST_CASE("the Workload fit pin follows the PodSet's per-card demand", "[admission][fitpin]") {
  const std::string sliced_key = "sliced-max-free-units.fit.gpustack.ai/nvidia-a10g";
  const std::string shared_key = "shared-free-cards.fit.gpustack.ai/nvidia-a10g";
  struct Row { const char* what; std::vector<Container> containers; std::vector<NodeSelectorRequirement> want; };
  const std::vector<Row> rows = {
      {"a 50 % slice pins Gt 799999", {slice(50)}, {{sliced_key, "Gt", {"799999"}}}},
      {"shared on 2 cards pins Gt 1", {shared(2)}, {{shared_key, "Gt", {"1"}}}},
      {"shared on 1 card gets no pin", {shared(1)}, {}},
      {"exclusive gets no pin", {exclusive(4)}, {}},
      {"a partition gets no pin", {partition("3g.40gb")}, {}},
      {"two containers: the larger slice wins", {slice(20, "a"), slice(50, "b")}, {{sliced_key, "Gt", {"799999"}}}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    auto wl = workload(r.containers);
    CHECK(apply_workload_fit_pin(wl, pool()) == !r.want.empty());
    CHECK(pins(wl) == r.want);
    const auto once = wl;
    CHECK_FALSE(apply_workload_fit_pin(wl, pool()));  // idempotent
    CHECK(wl == once);
  }
}

TEST_CASE("the Workload fit pin applies only on an InstanceType queue with the setting on", "[admission][fitpin]") {
  struct Row { const char* what; std::function<void(Workload&, ClusterState&)> change; };
  const std::vector<Row> rows = {
      {"setting off", [](Workload&, ClusterState& c) { c.settings.workload_fit_affinity = false; }},
      {"foreign queue name", [](Workload& w, ClusterState&) { w.queue_name = "team-queue"; }},
      {"LocalQueue missing", [](Workload&, ClusterState& c) { c.local_queues.clear(); }},
      {"ClusterQueue not an InstanceType queue", [](Workload&, ClusterState& c) { c.cluster_queues.begin()->second.metadata.labels.clear(); }},
      {"InstanceType without accelerator group", [](Workload&, ClusterState& c) { c.instance_types.begin()->second.spec.accelerator_group.clear(); }},
      {"quota already reserved", [](Workload& w, ClusterState&) { w.status.admission = Admission{}; }},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    auto wl = workload({slice(50)});
    auto cluster = pool();
    r.change(wl, cluster);
    CHECK_FALSE(apply_workload_fit_pin(wl, cluster));
    CHECK(pins(wl).empty());
  }
}
