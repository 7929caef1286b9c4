#include <catch2/catch.hpp>

#include "../admission_builders.h"
#include "model/admission/device_allocator.h"
#include "model/admission/gate3/node_devices_check.h"

using namespace admission_test;

namespace {

const std::string kFlavor = "gpustack--nvidia-a100-1d";

ResourceFlavor flavor(const std::string& name, const std::string& a_key) {
  ResourceFlavor f;
  f.metadata.name = name;
  f.spec.node_labels["acceleratable.feature.gpustack.ai/" + a_key] = "true";
  f.spec.node_labels["acceleratable.feature.gpustack.ai/" + a_key + ".count"] = "1";
  return f;
}

ClusterState cluster_with(std::vector<Devices> nodes) {
  ClusterState c;
  c.resource_flavors[kFlavor] = flavor(kFlavor, "nvidia-a100");
  for (auto& d : nodes) {
    Node n;
    n.metadata.name = d.metadata.name;
    n.metadata.labels["acceleratable.feature.gpustack.ai/nvidia-a100"] = "true";
    n.metadata.labels["acceleratable.feature.gpustack.ai/nvidia-a100.count"] = "1";
    c.nodes[n.metadata.name] = n;
    c.devices[d.metadata.name] = std::move(d);
  }
  return c;
}

// A Workload whose one PodSet of `count` Pods is reserved on `node` (hostname-level), or on the
// flavor pool when node is empty.
Workload reserved(const std::string& name, std::vector<Container> containers, int32_t count,
                  const std::string& node = "node-a", const std::string& flavor_name = kFlavor,
                  const std::string& pod_set = "main") {
  Workload wl;
  wl.metadata.name = name;
  wl.metadata.namespace_ = "default";
  PodSet ps;
  ps.name = pod_set;
  ps.count = count;
  ps.template_.containers = std::move(containers);
  wl.pod_sets = {ps};
  PodSetAssignment a;
  a.name = pod_set;
  a.count = count;
  a.flavors["credits.gpustack.ai/nvidia"] = flavor_name;
  if (!node.empty()) a.topology_assignment = TopologyAssignment{{"kubernetes.io/hostname"}, {{{node}, count}}};
  wl.status.admission = Admission{"cq", {a}};
  wl.status.admission_checks = {{"gpustack-node-devices", CheckState::kPending, "", 0}};
  return wl;
}

Gate3Verdict check(const ClusterState& c, std::vector<Workload> wls, const std::string& who = "wl") {
  WorkloadState ws;
  for (auto& w : wls) ws.workloads[object_key(w.metadata)] = std::move(w);
  return evaluate_node_devices(c, ws, "default/" + who);
}

Devices sliced_by(Devices d, std::vector<int32_t> percents) {
  for (size_t i = 0; i < percents.size(); ++i) {
    auto& row = d.status.groups[0].accelerators[i];
    row.mode = DeviceAllocationMode::kSliced;
    row.remaining -= pct(percents[i]);
    row.allocated += pct(percents[i]);
    row.allocated_slices += 1;
  }
  return d;
}

// node-a with one A100 card (group 0) and one T4 card (group 1, id "t4-card").
Devices a100_and_t4_node() {
  auto d = node_devices("node-a", 1);
  auto t4 = node_devices("node-a", 1);
  t4.spec.groups[0].id = t4.status.groups[0].id = "t4";
  t4.spec.groups[0].accelerators[0].id = t4.status.groups[0].accelerators[0].id = "t4-card";
  d.spec.groups.push_back(t4.spec.groups[0]);
  d.status.groups.push_back(t4.status.groups[0]);
  return d;
}

}  // namespace

TEST_CASE("two 30 % slices fit one free card but two 60 % do not", "[admission][gate3]") {
  const auto c = cluster_with({node_devices("node-a", 1)});
  CHECK(check(c, {reserved("wl", {slice(30)}, 2)}).ready());
  const auto v = check(c, {reserved("wl", {slice(60)}, 2)});
  CHECK(v.state == Gate3State::kRetry);
  CHECK(v.retry_after_seconds == kGate3RetryAfterSeconds);
  CHECK(v.message.find("role \"main\"") != std::string::npos);
  CHECK(v.message.find("node-a") != std::string::npos);
}

TEST_CASE("a Hygon card holding 4 slices refuses a 5th", "[admission][gate3]") {
  auto d = node_devices("node-a", 1, CardKind::kSliceable, "hygon", 4);
  d.status.groups[0].accelerators[0].allocated_slices = 4;
  d.status.groups[0].accelerators[0].mode = DeviceAllocationMode::kSliced;
  d.status.groups[0].accelerators[0].remaining = pct(60);
  auto c = cluster_with({d});
  c.resource_flavors[kFlavor] = flavor(kFlavor, "hygon-a100");
  const auto hygon_slice = container("main", {{"hygon.com/dcu.sliced", "1"}, {"hygon.com/dcu.sliced.units", "16000"}});
  CHECK_FALSE(check(c, {reserved("wl", {hygon_slice}, 1)}).ready());
  d.status.groups[0].accelerators[0].allocated_slices = 3;
  c.devices["node-a"] = d;
  CHECK(check(c, {reserved("wl", {hygon_slice}, 1)}).ready());
}

TEST_CASE("eight half-sliced cards hold no 5 exclusive cards though credits would admit", "[admission][gate3]") {
  const auto c = cluster_with({sliced_by(node_devices("node-a", 8), {50, 50, 50, 50, 50, 50, 50, 50})});
  CHECK(check(c, {reserved("wl", {exclusive(5)}, 1)}).state == Gate3State::kRetry);
  const auto free = cluster_with({sliced_by(node_devices("node-a", 8), {50, 50, 50})});
  CHECK(check(free, {reserved("wl", {exclusive(5)}, 1)}).ready());
}

TEST_CASE("a node whose Node object is gone serves nothing", "[admission][gate3]") {
  auto c = cluster_with({node_devices("node-a", 2)});
  CHECK(check(c, {reserved("wl", {exclusive(1)}, 1)}).ready());
  c.nodes.erase("node-a");
  const auto v = check(c, {reserved("wl", {exclusive(1)}, 1)});
  CHECK(v.state == Gate3State::kRetry);
  CHECK(v.message.find("node-a") != std::string::npos);
}

TEST_CASE("a Ready Workload not yet allocated blocks the room it was promised", "[admission][gate3]") {
  const auto c = cluster_with({node_devices("node-a", 1)});
  auto other = reserved("other", {slice(60)}, 1);
  const auto mine = reserved("wl", {slice(60)}, 1);
  struct Row { const char* what; CheckState state; bool ready; };
  for (const auto& r : std::vector<Row>{{"other holds Ready", CheckState::kReady, false},
                                        {"other still Pending", CheckState::kPending, true},
                                        {"other got Retry", CheckState::kRetry, true}}) {
    INFO(r.what);
    other.status.admission_checks[0].state = r.state;
    CHECK(check(c, {other, mine}).ready() == r.ready);
  }
}

TEST_CASE("an allocated inflight Pod counts once, through the ledger", "[admission][gate3]") {
  auto c = cluster_with({node_devices("node-a", 1)});
  auto other = reserved("other", {slice(40)}, 1);
  other.status.admission_checks[0].state = CheckState::kReady;
  Pod p = pod("other-main-0", {slice(40)});
  p.metadata.labels[std::string(kPodSetLabel)] = "main";
  p.metadata.annotations[std::string(kWorkloadAnnotation)] = "other";
  auto allocated = allocate_pod(c.devices["node-a"], p);
  REQUIRE(allocated.ok());
  p.allocations = *allocated;
  WorkloadState ws;
  ws.workloads["default/other"] = other;
  ws.workloads["default/wl"] = reserved("wl", {slice(60)}, 1);
  ws.pods["default/other-main-0"] = p;
  CHECK(evaluate_node_devices(c, ws, "default/wl").ready());  // 40 % charged + 60 % fits exactly
  ws.pods["default/other-main-0"].allocations.clear();         // not yet charged: counted twice
  CHECK_FALSE(evaluate_node_devices(c, ws, "default/wl").ready());
}

TEST_CASE("each role is judged only on cards of its own flavor", "[admission][gate3]") {
  auto d = a100_and_t4_node();
  d.status.groups[0].accelerators[0].mode = DeviceAllocationMode::kExclusive;  // the A100 is taken
  d.status.groups[0].accelerators[0].remaining = 0;
  auto c = cluster_with({d});
  c.resource_flavors["t4-flavor"] = flavor("t4-flavor", "nvidia-t4");
  CHECK(check(c, {reserved("wl", {exclusive(1)}, 1, "node-a", "t4-flavor", "decode")}).ready());
  const auto v = check(c, {reserved("wl", {exclusive(1)}, 1, "node-a", kFlavor, "prefill")});
  CHECK(v.state == Gate3State::kRetry);
  CHECK(v.message.find("role \"prefill\"") != std::string::npos);
}

TEST_CASE("a PodSet without a hostname-level assignment is judged across its flavor's pool", "[admission][gate3]") {
  const auto c = cluster_with({node_devices("node-a", 1), node_devices("node-b", 1)});
  CHECK(check(c, {reserved("wl", {slice(60)}, 2, "")}).ready());
  CHECK_FALSE(check(c, {reserved("wl", {slice(60)}, 3, "")}).ready());
}

TEST_CASE("a Ready Workload not yet allocated holds room only on cards of its own flavor", "[admission][gate3]") {
  // One A100 and one T4 card on one Node; the other Workload, Ready but not yet allocated, was
  // promised one exclusive card of its flavor there.
  auto d = a100_and_t4_node();
  auto c = cluster_with({d});
  c.resource_flavors["t4-flavor"] = flavor("t4-flavor", "nvidia-t4");
  struct Row {
    const char* what;
    std::string other_flavor, my_flavor;
    bool ready;
  };
  for (const auto& r : std::vector<Row>{{"other on the T4, mine on the A100", "t4-flavor", kFlavor, true},
                                        {"other on the A100, mine on the T4", kFlavor, "t4-flavor", true},
                                        {"both on the A100", kFlavor, kFlavor, false},
                                        {"both on the T4", "t4-flavor", "t4-flavor", false}}) {
    INFO(r.what);
    auto other = reserved("other", {exclusive(1)}, 1, "node-a", r.other_flavor);
    other.status.admission_checks[0].state = CheckState::kReady;
    const auto mine = reserved("wl", {exclusive(1)}, 1, "node-a", r.my_flavor);
    CHECK(check(c, {other, mine}).ready() == r.ready);
  }
}

TEST_CASE("a Ready Workload spread over Nodes holds on each Node only the Pods assigned there", "[admission][gate3]") {
  const auto c = cluster_with({node_devices("node-a", 2), node_devices("node-b", 2)});
  struct Row {
    const char* what;
    int32_t other_on_a, other_on_b;
    bool ready;
  };
  for (const auto& r : std::vector<Row>{{"one of three Pods on my Node", 1, 2, true},
                                        {"two of three Pods on my Node", 2, 1, false},
                                        {"none on my Node", 0, 2, true}}) {
    INFO(r.what);
    auto other = reserved("other", {exclusive(1)}, r.other_on_a + r.other_on_b, "node-a");
    auto& ta = other.status.admission->pod_set_assignments[0].topology_assignment;
    TopologyAssignment spread = *ta;  // the assignment is a value: a new one replaces it
    spread.domains.clear();
    if (r.other_on_a > 0) spread.domains.push_back({{"node-a"}, r.other_on_a});
    spread.domains.push_back({{"node-b"}, r.other_on_b});
    ta = spread;
    other.status.admission_checks[0].state = CheckState::kReady;
    const auto mine = reserved("wl", {exclusive(1)}, 1, "node-a");
    CHECK(check(c, {other, mine}).ready() == r.ready);
  }
}

TEST_CASE("a Workload has Pods to allocate until each assigned Pod holds its cards on its own Node",
          "[admission][gate3]") {
  struct Row {
    const char* what;
    std::vector<std::pair<std::string, bool>> pods;  // Node bound to, allocation complete
    bool hostname_level;
    bool to_allocate;
  };
  const std::vector<Row> rows = {
      {"no Pod exists yet", {}, true, true},
      {"one of two Pods holds its card", {{"node-a", true}}, true, true},
      {"both Pods hold their cards", {{"node-a", true}, {"node-b", true}}, true, false},
      {"one Pod bound without its allocation", {{"node-a", true}, {"node-b", false}}, true, true},
      {"both Pods on one Node, one assigned elsewhere", {{"node-a", true}, {"node-a", true}}, true, true},
      {"no hostname-level assignment", {}, false, false},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    auto c = cluster_with({node_devices("node-a", 2), node_devices("node-b", 2)});
    auto other = reserved("other", {exclusive(1)}, 2, r.hostname_level ? "node-a" : "");
    if (r.hostname_level)
      other.status.admission->pod_set_assignments[0].topology_assignment = TopologyAssignment{
          other.status.admission->pod_set_assignments[0].topology_assignment->levels, {{{"node-a"}, 1}, {{"node-b"}, 1}}};
    other.status.admission_checks[0].state = CheckState::kReady;
    WorkloadState ws;
    PodSlotsByNode by_node;
    for (std::size_t i = 0; i < r.pods.size(); ++i) {
      const auto& [node, complete] = r.pods[i];
      Pod p = pod("other-main-" + std::to_string(i), {exclusive(1)});
      p.node_name = node;
      p.metadata.labels[std::string(kPodSetLabel)] = "main";
      p.metadata.annotations[std::string(kWorkloadAnnotation)] = "other";
      if (complete) {
        auto allocated = allocate_pod(c.devices[node], p);
        REQUIRE(allocated.ok());
        p.allocations = *allocated;
      }
      const auto placed = ws.pods.insert_or_assign(object_key(p.metadata), p).first;
      by_node.try_emplace(node).first->push_back(placed.slot());
    }
    ws.workloads["default/other"] = other;
    std::vector<const Pod*> all;
    for (const auto& [key, p] : ws.pods) all.push_back(&p);
    CHECK(has_pods_to_allocate(other, all) == r.to_allocate);
    // Fewer Pods looked at can only leave more to allocate.
    if (!all.empty()) CHECK(has_pods_to_allocate(other, {all.begin(), all.end() - 1}) == r.hostname_level);
    // Where it has none, leaving it out of the inflight candidates changes no verdict.
    ws.workloads["default/wl"] = reserved("wl", {exclusive(1)}, 1, "node-a");
    if (!r.to_allocate) {
      const std::set<std::string> without_other = {"default/wl"};
      CHECK(evaluate_node_devices(c, ws, "default/wl", &without_other, &by_node) ==
            evaluate_node_devices(c, ws, "default/wl"));
    }
  }
}
