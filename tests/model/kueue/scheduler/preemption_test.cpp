// Kueue's priority preemption inside a ClusterQueue (model/kueue/scheduler/preemption*.h):
// candidate order, the minimal victim set, withinClusterQueue Never, TAS-aware victims and
// flavorFungibility.whenCanPreempt.
#include <catch2/catch.hpp>

#include "model/kueue/scheduler/preemption.h"
#include "model/kueue/scheduler/workload_conditions.h"
#include "scheduler_fixtures.h"

using namespace chaintwin::model;
using namespace chaintwin::model::testing;

namespace {

ClusterQueue& preempting(ClusterQueue& cq, const std::string& policy = "LowerPriority",
                         const std::string& when_can_preempt = "MayStopSearch") {
  cq.spec.preemption.reclaim_within_cohort = "Never";
  cq.spec.preemption.borrow_within_cohort_policy = "Never";
  cq.spec.preemption.within_cluster_queue = policy;
  cq.spec.flavor_fungibility.when_can_borrow = "TryNextFlavor";
  cq.spec.flavor_fungibility.when_can_preempt = when_can_preempt;
  return cq;
}

std::vector<std::string> of_type(const CycleResult& r, const std::string& type) {
  std::vector<std::string> out;
  for (const auto& t : r.transitions)
    if (transition_type_name(t.type) == type) out.push_back(t.workload);
  return out;
}

}  // namespace

TEST_CASE("preemption candidates are ordered evicted first, then lower priority, then most recently reserved, then UID",
          "[kueue][preemption]") {
  struct Row {
    std::string what;
    PreemptionCandidate a, b;
    bool a_first;
  };
  const std::vector<Row> rows{
      {"an evicted one before a lower priority", {"x", true, 5, 10, "x", "", {}}, {"y", false, 1, 10, "y", "", {}}, true},
      {"a lower priority before a more recent one", {"x", false, 1, 10, "x", "", {}}, {"y", false, 2, 99, "y", "", {}}, true},
      {"the more recently reserved at equal priority", {"x", false, 1, 20, "x", "", {}}, {"y", false, 1, 10, "y", "", {}}, true},
      {"the smaller UID at equal time", {"x", false, 1, 10, "b", "", {}}, {"y", false, 1, 10, "a", "", {}}, false},
      {"a non-evicted one after an evicted one", {"x", false, 0, 10, "x", "", {}}, {"y", true, 9, 10, "y", "", {}}, false},
      {"admission fair sharing: the higher LocalQueue usage first, whatever the priority",
       {"x", false, 5, 10, "x", "ns/a", 3.0}, {"y", false, 1, 10, "y", "ns/b", 1.0}, true},
      {"admission fair sharing: the same LocalQueue's candidates by priority",
       {"x", false, 5, 10, "x", "ns/a", 3.0}, {"y", false, 1, 10, "y", "ns/a", 3.0}, false},
      {"admission fair sharing: equal usages of two LocalQueues fall through to priority",
       {"x", false, 1, 10, "x", "ns/a", 2.0}, {"y", false, 2, 10, "y", "ns/b", 2.0}, true},
      {"admission fair sharing: an evicted one still first", {"x", true, 5, 10, "x", "ns/a", 0.0},
       {"y", false, 1, 10, "y", "ns/b", 9.0}, true},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(candidate_before(r.a, r.b) == r.a_first);
    CHECK(candidate_before(r.b, r.a) == !r.a_first);
  }
}

TEST_CASE("preemption candidates are the lower-priority Workloads of the queue that use the contested flavor",
          "[kueue][preemption]") {
  Fixture f;
  f.node("n1", 8);
  f.flavor("f1");
  preempting(f.queue("cq", {{"f1", 8}}));
  f.submit("low-old", "cq", 1, 1, 1, 0);
  f.cycle(10);
  f.submit("low-new", "cq", 1, 1, 2, 0);
  f.cycle(20);
  f.submit("mid", "cq", 1, 1, 3, 5);
  f.cycle(30);
  f.submit("same", "cq", 1, 1, 9, 10);  // newer than the preemptor
  f.cycle(40);
  Workload& pre = f.submit("pre", "cq", 1, 1, 5, 10);
  const std::set<FlavorResource> contested{{"f1", kCredits}};
  const auto keys = [](const std::vector<const Workload*>& ws) {
    std::vector<std::string> out;
    for (const Workload* w : ws) out.push_back(object_key(w->metadata));
    return out;
  };
  const ClusterQueue& cq = f.cluster.cluster_queues.at("cq");
  CHECK(keys(preemption_candidates(cq, pre, contested, f.state)) ==
        std::vector<std::string>{"default/low-new", "default/low-old", "default/mid"});
  CHECK(preemption_candidates(cq, pre, {{"other", kCredits}}, f.state).empty());
  ClusterQueue newer = cq;
  newer.spec.preemption.within_cluster_queue = "LowerOrNewerEqualPriority";
  CHECK(keys(preemption_candidates(newer, pre, contested, f.state)) ==
        std::vector<std::string>{"default/low-new", "default/low-old", "default/mid", "default/same"});
  ClusterQueue never = cq;
  never.spec.preemption.within_cluster_queue = "Never";
  CHECK(preemption_candidates(never, pre, contested, f.state).empty());

  // The runner's kept keys (unordered, a superset) give what the whole table gives; keys that
  // name no Workload, and Workloads that hold nothing, are passed over.
  struct Row {
    std::string what;
    ReservingKeys reserving;
    std::vector<std::string> expected;
  };
  const std::vector<Row> rows{
      {"every holder", {"default/mid", "default/low-old", "default/same", "default/low-new"},
       {"default/low-new", "default/low-old", "default/mid"}},
      {"a superset with a gone key and the preemptor",
       {"default/gone", "default/pre", "default/low-old", "default/mid", "default/low-new"},
       {"default/low-new", "default/low-old", "default/mid"}},
      {"only some holders", {"default/mid", "default/low-old"}, {"default/low-old", "default/mid"}},
      {"none", {}, {}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(keys(preemption_candidates(cq, pre, contested, f.state, &r.reserving)) == r.expected);
  }
}

TEST_CASE("the minimal victim set gives back every victim the preemptor can do without", "[kueue][preemption]") {
  struct Row {
    std::string what;
    int64_t big, small, wanted;  // cards; the queue has 4
    std::vector<std::string> victims;
  };
  const std::vector<Row> rows{
      {"3 wanted, 1 free: small alone is not enough, big alone is", 2, 1, 3, {"default/big"}},
      {"2 wanted, 1 free: small, the most recent, suffices", 2, 1, 2, {"default/small"}},
      {"4 wanted: both go, in candidate order", 2, 1, 4, {"default/small", "default/big"}},
      {"1 wanted, 1 free: it fits, nobody goes", 2, 1, 1, {}},
  };
  for (const auto& r : rows) {
    DYNAMIC_SECTION(r.what) {
      Fixture f;
      f.node("n1", 4);
      f.flavor("f1");
      preempting(f.queue("cq", {{"f1", 4}}));
      f.submit("big", "cq", r.big, 1, 1);
      f.cycle(10);
      f.submit("small", "cq", r.small, 1, 2);
      f.cycle(20);
      f.submit("wide", "cq", r.wanted, 1, 3, 1000);
      const auto result = f.cycle(30);
      CHECK(of_type(result, "Evicted") == r.victims);
      CHECK(result.preemptions == static_cast<int32_t>(r.victims.size()));
      CHECK(f.wl("wide").quota_reserved() == r.victims.empty());
    }
  }
}

TEST_CASE("a preempted Workload keeps its quota until released, then is requeued and the preemptor admitted",
          "[kueue][preemption]") {
  Fixture f;
  f.node("n1", 1);
  f.flavor("f1");
  preempting(f.queue("cq", {{"f1", 1}}));
  f.submit("low", "cq", 1, 1, 1, 0);
  f.cycle(10);
  Workload& high = f.submit("high", "cq", 1, 1, 2, 1000);
  const auto result = f.cycle(20);
  CHECK(of_type(result, "Evicted") == std::vector<std::string>{"default/low"});
  CHECK(of_type(result, "Preempted") == std::vector<std::string>{"default/low"});
  const std::string why =
      "Preempted to accommodate a workload (UID: UNKNOWN, JobUID: UNKNOWN) due to prioritization in the ClusterQueue";
  CHECK(*f.cond("low", kWorkloadEvicted) == Condition{"Evicted", "True", "Preempted", why, 0});
  CHECK(*f.cond("low", kWorkloadPreempted) == Condition{"Preempted", "True", "InClusterQueue", why, 0});
  CHECK(f.wl("low").quota_reserved());
  CHECK(f.message("high") ==
        "couldn't assign flavors to pod set main: insufficient unused quota for credits.gpustack.ai/nvidia in flavor "
        "f1, 1600k more needed. Pending the preemption of 1 workload(s)");
  CHECK(f.queues.place_of("default/high") == QueueManager::Place::kHeap);
  // Next cycle: the victim still holds quota; nothing new is evicted.
  const auto waiting = f.cycle(30);
  CHECK(waiting.preemptions == 0);
  CHECK_FALSE(high.quota_reserved());
  // Its Pods are gone: quota released, Requeued=True at once, back in its queue.
  const auto released = release_preempted(f.cluster, f.state, f.queues, "default/low", 40);
  REQUIRE(released.size() == 2);
  CHECK(released[0].type == TransitionType::kQuotaReleased);
  CHECK(released[1] == WorkloadTransition{"default/low", "cq", TransitionType::kRequeued, TransitionReason::kPreempted, why});
  CHECK_FALSE(f.wl("low").quota_reserved());
  CHECK(f.cond("low", kWorkloadRequeued)->status == "True");
  CHECK(f.queues.contains("default/low"));
  CHECK(of_type(f.cycle(50), "QuotaReserved") == std::vector<std::string>{"default/high"});
  // Re-admitted later, Evicted and Preempted turn False.
  finish_workload(f.state, f.queues, "default/high", 60);
  f.cycle(70);
  REQUIRE(f.wl("low").quota_reserved());
  CHECK(*f.cond("low", kWorkloadEvicted) == Condition{"Evicted", "False", "QuotaReserved", "Previously: " + why, 0});
  CHECK(f.wl("low").status.quota_reserved_time == 70);
}

TEST_CASE("withinClusterQueue Never and equal priorities keep the preemptor waiting exactly as without preemption",
          "[kueue][preemption]") {
  struct Row {
    std::string policy;
    int32_t low_priority;
  };
  const std::vector<Row> rows{{"", 0}, {"Never", 0}, {"LowerPriority", 1000}, {"LowerOrNewerEqualPriority", 1000}};
  const auto run = [](const std::string& policy, int32_t low_priority) {
    Fixture f;
    f.node("n1", 1);
    f.flavor("f1");
    auto& cq = f.queue("cq", {{"f1", 1}});
    if (!policy.empty()) preempting(cq, policy);
    f.submit("low", "cq", 1, 1, 1, low_priority);
    std::vector<CycleResult> out{f.cycle(10)};
    f.submit("high", "cq", 1, 1, 2, 1000);
    out.push_back(f.cycle(20));
    out.push_back(f.cycle(30));
    return std::make_pair(out, f.state);
  };
  const auto baseline = run("", 0);
  for (const auto& r : rows) {
    INFO(r.policy << " with the running one at priority " << r.low_priority);
    auto got = run(r.policy, r.low_priority);
    CHECK(got.first == baseline.first);
    // The Workloads differ only in the running one's priority.
    got.second.workloads.each_unordered(
        [&](const std::string& k, Workload& wl) { wl.priority = baseline.second.workloads.at(k).priority; });
    CHECK(got.second == baseline.second);
  }
}

TEST_CASE("a TAS preemptor evicts only a victim whose Node then holds it", "[kueue][preemption]") {
  // Quota for 4 cards over two 2-card Nodes; one card used on each. A 2-card Pod fits the quota but
  // no Node: Kueue turns the TAS failure into Preempt mode and removes victims until it fits.
  Fixture f;
  f.node("n1", 2);
  f.node("n2", 2);
  f.flavor("f1");
  preempting(f.queue("cq", {{"f1", 4}}));
  // Pinned by hostname, so that each Node holds one (TAS would otherwise pack them on one Node).
  f.submit("a", "cq", 1, 1, 1).pod_sets[0].template_.node_selector[std::string(kHostnameLabel)] = "n1";
  f.cycle(10);
  f.submit("b", "cq", 1, 1, 2).pod_sets[0].template_.node_selector[std::string(kHostnameLabel)] = "n2";
  f.cycle(20);
  REQUIRE(f.placement("a") == std::vector<std::pair<std::string, int32_t>>{{"n1", 1}});
  REQUIRE(f.placement("b") == std::vector<std::pair<std::string, int32_t>>{{"n2", 1}});
  f.submit("pair", "cq", 2, 1, 3, 1000);
  const auto result = f.cycle(30);
  // b was reserved last: it goes first, and its Node alone then holds the pair.
  CHECK(of_type(result, "Evicted") == std::vector<std::string>{"default/b"});
  CHECK(f.message("pair") ==
        "couldn't assign flavors to pod set main: topology \"t\" doesn't allow to fit any of 1 pod(s). Total nodes: 2; "
        "excluded: resource \"nvidia.com/gpu\": 2. Pending the preemption of 1 workload(s)");
  // Without a lower priority the TAS failure stays what it was.
  Fixture g;
  g.node("n1", 2);
  g.node("n2", 2);
  g.flavor("f1");
  preempting(g.queue("cq", {{"f1", 4}}));
  g.submit("a", "cq", 1, 1, 1, 1000).pod_sets[0].template_.node_selector[std::string(kHostnameLabel)] = "n1";
  g.cycle(10);
  g.submit("b", "cq", 1, 1, 2, 1000).pod_sets[0].template_.node_selector[std::string(kHostnameLabel)] = "n2";
  g.cycle(20);
  g.submit("pair", "cq", 2, 1, 3, 1000);
  CHECK(of_type(g.cycle(30), "Evicted").empty());
  CHECK(g.message("pair").find("Pending the preemption") == std::string::npos);
}

TEST_CASE("whenCanPreempt decides between preempting on the first flavor and taking a later free one",
          "[kueue][preemption]") {
  struct Row {
    std::string when_can_preempt;
    int32_t low_priority;
    std::string flavor;                // where `high` is reserved, "" when it preempts
    std::vector<std::string> evicted;
  };
  const std::vector<Row> rows{
      {"MayStopSearch", 0, "", {"default/low"}},
      {"Preempt", 0, "", {"default/low"}},
      {"TryNextFlavor", 0, "f2", {}},
      {"", 0, "f2", {}},
      // No candidates on f1 (equal priority): the next flavor is tried whatever the policy.
      {"MayStopSearch", 1000, "f2", {}},
  };
  for (const auto& r : rows) {
    DYNAMIC_SECTION("whenCanPreempt '" << r.when_can_preempt << "', running priority " << r.low_priority) {
      Fixture f;
      f.node("n1", 1, "p1");
      f.node("n2", 1, "p2");
      f.flavor("f1", "p1");
      f.flavor("f2", "p2");
      preempting(f.queue("cq", {{"f1", 1}, {"f2", 1}}), "LowerPriority", r.when_can_preempt);
      f.submit("low", "cq", 1, 1, 1, r.low_priority);
      f.cycle(10);
      REQUIRE(f.wl("low").status.admission->pod_set_assignments.front().flavors.at(kCredits) == "f1");
      f.submit("high", "cq", 1, 1, 2, 1000);
      const auto result = f.cycle(20);
      CHECK(of_type(result, "Evicted") == r.evicted);
      if (r.flavor.empty()) {
        CHECK_FALSE(f.wl("high").quota_reserved());
      } else {
        REQUIRE(f.wl("high").quota_reserved());
        CHECK(f.wl("high").status.admission->pod_set_assignments.front().flavors.at(kCredits) == r.flavor);
      }
    }
  }
}
