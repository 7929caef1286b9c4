#include <functional>
#include <tuple>

#include <catch2/catch.hpp>

#include "model/admission/accelerator_claim.h"
#include "model/kueue/scheduler/flavor_assigner.h"
#include "model/kueue/scheduler/tas_assigner.h"
#include "scheduler_fixtures.h"

using namespace chaintwin::model;
using namespace chaintwin::model::testing;

namespace {

std::vector<std::string> reserved_in_cycle(const CycleResult& r) {
  std::vector<std::string> out;
  for (const auto& t : r.transitions)
    if (t.type == TransitionType::kQuotaReserved) out.push_back(t.workload);
  return out;
}

}  // namespace

TEST_CASE("a cycle pops at most one head per ClusterQueue", "[kueue][scheduler]") {
  Fixture f;
  f.node("n1", 8);
  f.flavor("f1");
  f.queue("cq-a", {{"f1", 8}});
  f.queue("cq-b", {{"f1", 8}});
  f.submit("a1", "cq-a", 1, 1, 1);
  f.submit("a2", "cq-a", 1, 1, 2);
  f.submit("b1", "cq-b", 1, 1, 3);

  const auto first = f.cycle();
  CHECK(first.popped == 2);
  CHECK(reserved_in_cycle(first) == std::vector<std::string>{"default/a1", "default/b1"});
  CHECK(f.queues.pending("cq-a") == 1);
  const auto second = f.cycle();
  CHECK(second.popped == 1);
  CHECK(reserved_in_cycle(second) == std::vector<std::string>{"default/a2"});
  CHECK(f.cycle().popped == 0);
}

TEST_CASE("heads are ordered by priority then queue-order time then key", "[kueue][scheduler]") {
  Fixture f;
  f.node("n1", 8);
  f.flavor("f1");
  f.queue("cq", {{"f1", 8}});
  f.submit("late-low", "cq", 1, 1, 30, 0);
  f.submit("high", "cq", 1, 1, 50, 10);
  f.submit("early-low", "cq", 1, 1, 10, 0);
  f.submit("b-tie", "cq", 1, 1, 20, 0);
  f.submit("a-tie", "cq", 1, 1, 20, 0);
  CHECK(f.queues.heap_order("cq") ==
        std::vector<std::string>{"default/high", "default/early-low", "default/a-tie", "default/b-tie", "default/late-low"});
  std::vector<std::string> admitted;
  for (int i = 0; i < 5; ++i)
    for (const auto& w : reserved_in_cycle(f.cycle())) admitted.push_back(w);
  CHECK(admitted ==
        std::vector<std::string>{"default/high", "default/early-low", "default/a-tie", "default/b-tie", "default/late-low"});
}

TEST_CASE("StrictFIFO blocks behind a head that does not fit while BestEffortFIFO moves past it", "[kueue][scheduler]") {
  for (const std::string strategy : {"StrictFIFO", "BestEffortFIFO"}) {
    DYNAMIC_SECTION(strategy) {
      Fixture f;
      f.node("n1", 8);
      f.flavor("f1");
      f.queue("cq", {{"f1", 2}}, {}, strategy);
      f.submit("big", "cq", 3, 1, 1);  // 3 cards > nominal 2
      f.submit("small", "cq", 1, 1, 2);
      f.cycle();
      const auto second = f.cycle();
      CHECK(second.popped == 1);
      if (strategy == "StrictFIFO") {
        CHECK_FALSE(f.wl("small").quota_reserved());
        CHECK(f.queues.heap_order("cq").front() == "default/big");
        CHECK(f.queues.inadmissible("cq") == 0);
      } else {
        CHECK(f.wl("small").quota_reserved());
        CHECK(f.queues.inadmissible("cq") == 1);
      }
      CHECK_FALSE(f.wl("big").quota_reserved());
    }
  }
}

TEST_CASE("an inadmissible BestEffortFIFO head waits for an event, not for the next cycle", "[kueue][scheduler]") {
  Fixture f;
  f.node("n1", 8);
  f.flavor("f1");
  f.queue("cq", {{"f1", 2}});
  f.submit("holder", "cq", 1, 1, 1);
  f.submit("pair", "cq", 2, 1, 2);
  f.cycle();  // holder reserved
  f.cycle();  // pair does not fit: inadmissible
  CHECK(f.queues.inadmissible("cq") == 1);
  CHECK(f.queues.pending("cq") == 1);
  CHECK(f.cycle().popped == 0);

  finish_workload(f.state, f.queues, "default/holder", 10);
  CHECK(f.queues.inadmissible("cq") == 0);
  const auto after = f.cycle();
  CHECK(reserved_in_cycle(after) == std::vector<std::string>{"default/pair"});
}

TEST_CASE("quota messages name the resource, the flavor and the shortfall, as the Kueue release words them",
          "[kueue][scheduler]") {
  // fitsResourceQuota's NoFit message: v0.14.0 and v0.14.1 give the total; from v0.14.2 the earlier
  // PodSets' requests and this one's apart (0 and 4800k for a one-PodSet Workload).
  struct Row {
    KueueVersion version;
    std::string over_capacity;
  };
  const std::vector<Row> rows = {
      {{14, 1}, "request > maximum capacity (4800k > 3200k)"},
      {{14, 2}, "previously considered podsets requests (0) + current podset request (4800k) > maximum capacity (3200k)"},
      {kDefaultKueueVersion,
       "previously considered podsets requests (0) + current podset request (4800k) > maximum capacity (3200k)"},
  };
  for (const auto& row : rows) {
    INFO("Kueue v0." << row.version.minor << "." << row.version.patch);
    Fixture f;
    f.config.version = row.version;
    f.node("n1", 8);
    f.flavor("f1");
    f.queue("cq", {{"f1", 2}});
    f.submit("one", "cq", 1, 1, 1);
    f.submit("two", "cq", 2, 1, 2);
    f.submit("three", "cq", 3, 1, 3);
    f.cycle();
    const auto r = f.cycle();
    REQUIRE(r.transitions.size() == 1);
    CHECK(r.transitions[0].type == TransitionType::kPending);
    CHECK(r.transitions[0].reason == TransitionReason::kPending);
    CHECK(f.message("two") ==
          "couldn't assign flavors to pod set main: insufficient unused quota for credits.gpustack.ai/nvidia in flavor f1, "
          "1600k more needed");
    f.cycle();
    CHECK(f.message("three") ==
          "couldn't assign flavors to pod set main: insufficient quota for credits.gpustack.ai/nvidia in flavor f1, " +
              row.over_capacity);
  }
}

TEST_CASE("the second flavor is used when the first is full", "[kueue][scheduler]") {
  Fixture f;
  f.node("a1", 1, "a");
  f.node("b1", 2, "b");
  f.flavor("fa", "a");
  f.flavor("fb", "b");
  f.queue("cq", {{"fa", 1}, {"fb", 2}});
  f.submit("w1", "cq", 1, 1, 1);
  f.submit("w2", "cq", 1, 1, 2);
  f.cycle();
  f.cycle();
  CHECK(f.wl("w1").status.admission->pod_set_assignments[0].flavors.at(kCredits) == "fa");
  CHECK(f.wl("w2").status.admission->pod_set_assignments[0].flavors.at(kCredits) == "fb");
  CHECK(f.placement("w2") == std::vector<std::pair<std::string, int32_t>>{{"b1", 1}});
  const auto& usage = f.wl("w2").status.admission->pod_set_assignments[0].resource_usage;
  CHECK(usage.at(kCredits) == Quantity::from_int(kM));
  CHECK(usage.count(kGpu) == 0);
}

TEST_CASE("a nodeSelector that contradicts a flavor's nodeLabels skips that flavor", "[kueue][scheduler]") {
  Fixture f;
  f.node("a1", 4, "a");
  f.node("b1", 4, "b", {{"unrelated", "x"}});  // a key no flavor carries: ignored for flavors, kept for nodes
  f.flavor("fa", "a");
  f.flavor("fb", "b");
  f.queue("cq", {{"fa", 4}, {"fb", 4}});
  f.submit("to-b", "cq").pod_sets[0].template_.node_selector = {{"pool", "b"}, {"unrelated", "x"}};
  f.cycle();
  REQUIRE(f.wl("to-b").quota_reserved());
  CHECK(f.wl("to-b").status.admission->pod_set_assignments[0].flavors.at(kCredits) == "fb");

  f.submit("nowhere", "cq").pod_sets[0].template_.node_selector = {{"pool", "c"}};
  f.cycle();
  CHECK(f.message("nowhere") ==
        "couldn't assign flavors to pod set main: flavor fa doesn't match node affinity, flavor fb doesn't match node affinity");
}

TEST_CASE("TAS fills the node with the least free capacity first", "[kueue][scheduler][tas]") {
  Fixture f;
  f.node("roomy", 4);
  f.node("tight", 2);
  f.flavor("f1");
  f.queue("cq", {{"f1", 6}});
  for (int i = 0; i < 4; ++i) f.submit("w" + std::to_string(i), "cq", 1, 1, i);
  for (int i = 0; i < 4; ++i) f.cycle();
  CHECK(f.placement("w0") == std::vector<std::pair<std::string, int32_t>>{{"tight", 1}});
  CHECK(f.placement("w1") == std::vector<std::pair<std::string, int32_t>>{{"tight", 1}});
  CHECK(f.placement("w2") == std::vector<std::pair<std::string, int32_t>>{{"roomy", 1}});

  Fixture best;
  best.config.tas_placement = TasPlacement::kBestFit;
  best.node("roomy", 4);
  best.node("tight", 2);
  best.flavor("f1");
  best.queue("cq", {{"f1", 6}});
  best.submit("w0", "cq", 1, 3);  // three Pods: BestFit takes the tightest single node that holds them
  best.cycle();
  CHECK(best.placement("w0") == std::vector<std::pair<std::string, int32_t>>{{"roomy", 3}});
}

TEST_CASE("the fit pin steers TAS to the node with a large enough free slice", "[kueue][scheduler][tas]") {
  // operator-domain §9.4: node A's cards have 640000 units free, node B's 1600000; a 50 % slice.
  const std::string pin_key = "sliced-max-free-units.fit.gpustack.ai/g";
  const auto run = [&](const std::string& a_free, const std::string& b_free) {
    Fixture f;
    f.node("node-a", 4, "p", {{pin_key, a_free}}).status.allocatable["nvidia.com/gpu.sliced.units"] = q(4 * kM);
    f.node("node-b", 4, "p", {{pin_key, b_free}}).status.allocatable["nvidia.com/gpu.sliced.units"] = q(4 * kM);
    f.flavor("f1");
    f.queue("cq", {{"f1", 8}});
    auto& w = f.submit("slice", "cq");
    w.pod_sets[0].template_.containers[0].requests = {{"nvidia.com/gpu.sliced.units", q(800000)}};
    w.pod_sets[0].template_.required_node_affinity = {NodeSelectorTerm{{{pin_key, "Gt", {"799999"}}}, {}}};
    f.queues.add(f.cluster, w);  // the update reaches the queues, as Kueue's update event does
    f.cycle();
    return f;
  };
  auto admitted = run("640000", "1600000");
  CHECK(admitted.placement("slice") == std::vector<std::pair<std::string, int32_t>>{{"node-b", 1}});
  CHECK(admitted.wl("slice").status.admission->pod_set_assignments[0].resource_usage.at(kCredits) == q(800000));

  auto pending = run("640000", "640000");
  CHECK_FALSE(pending.wl("slice").quota_reserved());
  CHECK(pending.message("slice") ==
        "couldn't assign flavors to pod set main: topology \"t\" doesn't allow to fit any of 1 pod(s). "
        "Total nodes: 2; excluded: affinity: 2");
}

TEST_CASE("a required zone holds the whole PodSet or nothing", "[kueue][scheduler][tas]") {
  // operator-domain §9.5: four nodes, two per zone.
  Fixture f;
  f.cluster.topologies["t"].levels = {"topology.kubernetes.io/zone", std::string(kHostnameLabel)};
  f.node("z1-a", 1, "p", {{"topology.kubernetes.io/zone", "z1"}});
  f.node("z1-b", 1, "p", {{"topology.kubernetes.io/zone", "z1"}});
  f.node("z2-a", 1, "p", {{"topology.kubernetes.io/zone", "z2"}});
  f.node("z2-b", 1, "p", {{"topology.kubernetes.io/zone", "z2"}});
  f.flavor("f1");
  f.queue("cq", {{"f1", 4}});
  f.submit("three", "cq", 1, 3, 1).pod_sets[0].required_topology_level = "topology.kubernetes.io/zone";
  f.cycle();
  CHECK_FALSE(f.wl("three").quota_reserved());
  CHECK(f.message("three") == "couldn't assign flavors to pod set main: topology \"t\" allows to fit only 2 out of 3 pod(s)");

  f.submit("two", "cq", 1, 2, 2).pod_sets[0].required_topology_level = "topology.kubernetes.io/zone";
  f.cycle();
  REQUIRE(f.wl("two").quota_reserved());
  const auto& ta = *f.wl("two").status.admission->pod_set_assignments[0].topology_assignment;
  CHECK(ta.levels == std::vector<std::string>{std::string(kHostnameLabel)});
  CHECK(f.placement("two") == std::vector<std::pair<std::string, int32_t>>{{"z1-a", 1}, {"z1-b", 1}});
}

TEST_CASE("a node's TAS capacity is shared across ClusterQueues within one cycle", "[kueue][scheduler][tas]") {
  Fixture f;
  f.node("only", 1);
  f.flavor("f1");
  f.queue("cq-a", {{"f1", 1}});
  f.queue("cq-b", {{"f1", 1}});
  f.submit("first", "cq-b", 1, 1, 1);
  f.submit("second", "cq-a", 1, 1, 2);
  const auto r = f.cycle();
  CHECK(r.popped == 2);
  CHECK(f.wl("first").quota_reserved());
  CHECK_FALSE(f.wl("second").quota_reserved());
  CHECK(f.message("second") ==
        "couldn't assign flavors to pod set main: topology \"t\" doesn't allow to fit any of 1 pod(s). "
        "Total nodes: 1; excluded: resource \"nvidia.com/gpu\": 1");
  // It fitted at nomination, so it goes straight back to the heap rather than the inadmissible set.
  CHECK(f.queues.inadmissible("cq-a") == 0);
}

TEST_CASE("a reservation without checks is admitted at once and one with checks waits", "[kueue][scheduler]") {
  Fixture f;
  f.node("n1", 4);
  f.flavor("f1");
  f.check("gpustack-node-devices");
  f.queue("plain", {{"f1", 2}});
  f.queue("checked", {{"f1", 2}}, {"gpustack-node-devices"});
  f.submit("p", "plain");
  f.submit("c", "checked");
  const auto r = f.cycle();
  CHECK(f.wl("p").admitted());
  CHECK(f.cond("p", kWorkloadAdmitted)->status == "True");
  CHECK(f.wl("c").quota_reserved());
  CHECK_FALSE(f.wl("c").admitted());
  REQUIRE(f.wl("c").status.admission_checks.size() == 1);
  CHECK(f.wl("c").status.admission_checks[0].state == CheckState::kPending);
  std::vector<std::string> types;
  for (const auto& t : r.transitions) types.push_back(t.workload + " " + std::string(transition_type_name(t.type)));
  CHECK(types == std::vector<std::string>{"default/c QuotaReserved", "default/p QuotaReserved", "default/p Admitted"});
}

TEST_CASE("the same submissions give the same cycles, states and queues", "[kueue][scheduler]") {
  const auto run = [] {
    Fixture f;
    f.node("n1", 3);
    f.node("n2", 2, "p", {{"extra", "1"}});
    f.flavor("f1");
    f.queue("cq-a", {{"f1", 3}});
    f.queue("cq-b", {{"f1", 3}}, {}, "StrictFIFO");
    for (int i = 0; i < 6; ++i) f.submit("w" + std::to_string(i), i % 2 == 0 ? "cq-a" : "cq-b", 1 + i % 2, 1, 6 - i, i % 3);
    std::vector<CycleResult> cycles;
    for (int i = 0; i < 5; ++i) cycles.push_back(f.cycle(i));
    return std::make_tuple(cycles, f.state, f.queues);
  };
  CHECK(run() == run());
}

TEST_CASE("a flavor with an untolerated taint is skipped with Kueue's message", "[kueue][scheduler]") {
  Fixture f;
  f.node("n1", 2);
  f.flavor("f1").spec.node_taints = {Taint{"dedicated", "ml", "NoSchedule"}};
  f.queue("cq", {{"f1", 2}});
  f.submit("w", "cq");
  f.cycle();
  CHECK(f.message("w") == "couldn't assign flavors to pod set main: untolerated taint dedicated=ml:NoSchedule in flavor f1");
  f.wl("w").pod_sets[0].template_.tolerations = {Toleration{"dedicated", "Equal", "ml", "NoSchedule"}};
  f.queues.release_inadmissible();
  f.cycle();
  CHECK(f.wl("w").admitted());
}

TEST_CASE("the queues keep each Workload's per-Pod requests from when it was tracked, and say when they went stale", "[kueue][scheduler]") {
  struct Row {
    const char* change;
    std::function<void(Fixture&)> apply;
    std::string says;  // a fragment of info_mismatch ("" = every kept WorkloadInfo agrees)
  };
  const std::vector<Row> rows = {
      {"nothing", [](Fixture&) {}, ""},
      {"a PodSet's request changed behind the queues' back",
       [](Fixture& f) { f.wl("b").pod_sets[0].template_.containers[0].requests[kGpu] = q(2); },
       "Workload default/b has PodSets other than the ones it was tracked with"},
      {"a PodSet added behind the queues' back",
       [](Fixture& f) { f.wl("a").pod_sets.push_back(f.wl("a").pod_sets[0]); },
       "Workload default/a has PodSets other than"},
      {"a changed Workload tracked again",
       [](Fixture& f) {
         f.wl("b").pod_sets[0].template_.containers[0].requests[kGpu] = q(2);
         f.queues.add(f.cluster, f.wl("b"));
       },
       ""},
      {"a Workload deleted without leaving the queues (the cycle drops it unread)",
       [](Fixture& f) { f.state.workloads.erase("default/a"); }, ""},
  };
  for (const auto& row : rows) {
    SECTION(row.change) {
      Fixture f;
      f.node("n1", 4);
      f.flavor("f1");
      f.queue("cq", {{"f1", 8}});
      f.submit("a", "cq", 1);
      f.submit("b", "cq", 1);
      const auto ref = f.queues.ref_of("default/a");
      REQUIRE(ref.has_value());
      REQUIRE(f.queues.info(*ref) != nullptr);
      REQUIRE(f.queues.info(*ref)->pod_sets.size() == 1);
      CHECK(f.queues.info(*ref)->pod_sets[0].requests == ResourceList{{kGpu, q(1)}});
      CHECK(f.queues.info(*ref)->pod_sets[0].tas_shape == tas_shape_key(f.wl("a").pod_sets[0], {{kGpu, q(1)}}));
      row.apply(f);
      const std::string got = f.queues.info_mismatch(f.state);
      if (row.says.empty()) CHECK(got.empty());
      else CHECK_THAT(got, Catch::Matchers::StartsWith(row.says));
    }
  }
}

TEST_CASE("a nomination from the kept requests gives what one from the Pod templates gives", "[kueue][scheduler]") {
  // The same heads, cycle by cycle, once with the QueueManager's WorkloadInfo and once with it
  // left out (assign_flavors / assign_topology then derive the requests themselves).
  Fixture f;
  f.node("n1", 2);
  f.node("n2", 1);
  f.flavor("f1");
  f.queue("cq", {{"f1", 8}});
  f.submit("pair", "cq", 2, 1, 1);
  f.submit("triple", "cq", 1, 3, 2);
  f.submit("single", "cq", 1, 1, 3);
  for (const auto& ps : f.wl("triple").pod_sets) {
    const ResourceList derived = pod_effective_requests(ps.template_);
    CHECK(f.queues.info(*f.queues.ref_of("default/triple"))->pod_sets.front().requests == derived);
  }
  const ResourceFlavor& flavor = f.cluster.resource_flavors.at("f1");
  const UsageSnapshot usage = build_usage_snapshot(f.state);
  for (const char* name : {"pair", "triple", "single"}) {
    INFO(name);
    const Workload& wl = f.wl(name);
    const WorkloadInfo* info = f.queues.info(*f.queues.ref_of(std::string("default/") + name));
    REQUIRE(info != nullptr);
    const ClusterQueue& cq = f.cluster.cluster_queues.at("cq");
    const auto quota = usage.quota.count("cq") ? usage.quota.at("cq") : FlavorResourceAmounts{};
    CHECK(assign_flavors(f.cluster, cq, wl, quota, f.config, nullptr, info) ==
          assign_flavors(f.cluster, cq, wl, quota, f.config, nullptr, nullptr));
    CHECK(assign_topology(f.cluster, flavor, wl.pod_sets[0], usage.nodes, f.config.tas_placement, nullptr, nullptr,
                          &info->pod_sets[0]) ==
          assign_topology(f.cluster, flavor, wl.pod_sets[0], usage.nodes, f.config.tas_placement));
  }
}

TEST_CASE("a TAS shape key tells apart exactly the PodSets a Node could judge differently", "[kueue][scheduler][tas]") {
  PodSet base;
  base.name = "main";
  base.count = 2;
  base.template_.containers.push_back(Container{"c", {{"cpu", q(2)}, {kGpu, q(1)}}, false});
  const ResourceList base_requests = pod_effective_requests(base.template_);
  struct Row {
    const char* change;
    std::function<void(PodSet&)> apply;
    bool same_key;
  };
  const std::vector<Row> rows = {
      {"nothing", [](PodSet&) {}, true},
      {"another name and Pod count (a Node's verdict is per Pod)",
       [](PodSet& p) {
         p.name = "other";
         p.count = 5;
       },
       true},
      {"another cpu request", [](PodSet& p) { p.template_.containers[0].requests["cpu"] = q(3); }, false},
      {"one more resource", [](PodSet& p) { p.template_.containers[0].requests["memory"] = q(1024); }, false},
      {"a nodeSelector", [](PodSet& p) { p.template_.node_selector["zone"] = "a"; }, false},
      {"a required affinity",
       [](PodSet& p) { p.template_.required_node_affinity = {NodeSelectorTerm{{{"zone", "In", {"a"}}}, {}}}; },
       false},
  };
  for (const auto& row : rows) {
    INFO(row.change);
    PodSet changed = base;
    row.apply(changed);
    const bool same = tas_shape_key(changed, pod_effective_requests(changed.template_)) == tas_shape_key(base, base_requests);
    CHECK(same == row.same_key);
  }
}
