#include <catch2/catch.hpp>

#include <functional>

#include "model/kueue/scheduler/nomination_memo.h"
#include "model/kueue/scheduler/workload_conditions.h"
#include "scheduler_fixtures.h"

using namespace chaintwin::model;
using namespace chaintwin::model::testing;

namespace {
const WorkloadRef kW{0, 1};      // "default/w" as a QueueManager would hold it
const WorkloadRef kOther{1, 1};  // another Workload
}  // namespace

TEST_CASE("a remembered verdict holds until something it read changes", "[kueue][scheduler][memo]") {
  struct Row {
    const char* change;
    std::function<void(NominationMemo&)> apply;
    bool still_remembered;
  };
  const std::vector<Row> rows = {
      {"nothing", [](NominationMemo&) {}, true},
      {"another queue's quota", [](NominationMemo& m) { m.invalidate_cluster_queue("cq-b"); }, true},
      {"its own queue's quota", [](NominationMemo& m) { m.invalidate_cluster_queue("cq-a"); }, false},
      {"a Node of a flavor the search read", [](NominationMemo& m) { m.invalidate_flavor("f1"); }, false},
      {"a Node of a flavor the search never reached", [](NominationMemo& m) { m.invalidate_flavor("f9"); }, true},
      {"anything else Kueue reads", [](NominationMemo& m) { m.invalidate_all(); }, false},
      {"the Workload is forgotten", [](NominationMemo& m) { m.forget(kW); }, false},
  };
  for (const auto& row : rows) {
    SECTION(row.change) {
      NominationMemo memo;
      memo.remember_failure(kW, "cq-a", "does not fit", {"f1", "f2"});
      row.apply(memo);
      const auto got = memo.failure(kW, "cq-a");
      CHECK(got.has_value() == row.still_remembered);
      if (got) CHECK(*got == "does not fit");
    }
  }
}

TEST_CASE("a verdict is remembered only for the queue it was found in", "[kueue][scheduler][memo]") {
  NominationMemo memo;
  memo.remember_failure(kW, "cq-a", "does not fit", {});
  CHECK(memo.failure(kW, "cq-b") == std::nullopt);
  CHECK(memo.failure(kOther, "cq-a") == std::nullopt);
}

TEST_CASE("a verdict is not handed to the next Workload that takes over the slot", "[kueue][scheduler][memo]") {
  NominationMemo memo;
  memo.remember_failure(kW, "cq-a", "does not fit", {});
  const WorkloadRef next{kW.slot, kW.incarnation + 1};
  CHECK(memo.failure(next, "cq-a") == std::nullopt);
  memo.forget(next);  // forgetting the newcomer leaves the old verdict alone
  CHECK(memo.size() == 1);
  memo.remember_failure(next, "cq-a", "still does not fit", {});
  CHECK(memo.failure(kW, "cq-a") == std::nullopt);
  CHECK(memo.failure(next, "cq-a") == "still does not fit");
  CHECK(memo.size() == 1);
}

TEST_CASE("a Workload tracked again in place keeps its ref; one removed and re-added does not", "[kueue][scheduler][queues]") {
  Fixture f;
  f.node("n1", 8);
  f.flavor("f1");
  f.queue("cq", {{"f1", 8}});
  f.submit("a", "cq", 1, 1, 1);
  f.submit("b", "cq", 1, 1, 2);
  const auto a = f.queues.ref_of("default/a");
  const auto b = f.queues.ref_of("default/b");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->slot != b->slot);
  f.queues.add(f.cluster, f.state.workloads.at("default/a"));  // tracked again: same Workload
  CHECK(f.queues.ref_of("default/a") == a);
  f.queues.remove("default/a");
  CHECK_FALSE(f.queues.ref_of("default/a"));
  f.submit("c", "cq", 1, 1, 3);  // takes over a's slot
  const auto c = f.queues.ref_of("default/c");
  REQUIRE(c);
  CHECK(c->slot == a->slot);
  CHECK(c->incarnation != a->incarnation);
  // A popped entry whose Workload left meanwhile is not requeued onto the slot's new holder.
  QueueEntry stale = queue_entry(f.state.workloads.at("default/a"));
  stale.ref = *a;
  f.queues.requeue(stale, /*inadmissible=*/true);
  CHECK(f.queues.place_of("default/c") == QueueManager::Place::kHeap);
}

TEST_CASE("queue managers that went through different slot histories compare by what they hold", "[kueue][scheduler][queues]") {
  Fixture f;
  f.node("n1", 8);
  f.flavor("f1");
  f.queue("cq", {{"f1", 8}});
  Fixture g = f;
  f.submit("a", "cq", 1, 1, 1);
  f.submit("b", "cq", 1, 1, 2);
  g.submit("b", "cq", 1, 1, 2);
  g.submit("a", "cq", 1, 1, 1);
  CHECK(f.queues.ref_of("default/a")->slot != g.queues.ref_of("default/a")->slot);
  CHECK(f.queues == g.queues);
  g.queues.remove("default/b");
  CHECK_FALSE(f.queues == g.queues);
}

TEST_CASE("a head that did not fit comes back with the same message without a new search", "[kueue][scheduler][memo]") {
  Fixture f;
  f.node("n1", 8);
  f.flavor("f1");
  f.queue("cq", {{"f1", 2}});
  f.submit("holder", "cq", 1, 1, 1);
  f.submit("pair", "cq", 2, 1, 2);
  NominationMemo memo;
  memo.verify = true;
  auto cycle = [&] { return schedule_cycle(f.cluster, f.state, f.queues, 0, f.config, {nullptr, nullptr, &memo}); };
  cycle();  // holder reserves
  cycle();  // pair does not fit: remembered
  REQUIRE(memo.size() == 1);
  const std::string first = f.message("pair");
  f.queues.release_inadmissible();
  CHECK(cycle().popped == 1);
  CHECK(f.message("pair") == first);
  CHECK(memo.mismatch().empty());
}

TEST_CASE("verify catches a remembered verdict the owner forgot to invalidate", "[kueue][scheduler][memo]") {
  Fixture f;
  f.node("n1", 1);
  f.flavor("f1");
  f.queue("cq", {{"f1", 8}});
  f.submit("pair", "cq", 2, 1, 1);
  NominationMemo memo;
  memo.verify = true;
  auto cycle = [&] { return schedule_cycle(f.cluster, f.state, f.queues, 0, f.config, {nullptr, nullptr, &memo}); };
  cycle();  // one card on the only node: TAS cannot place 2 cards
  REQUIRE(memo.size() == 1);
  f.node("n2", 8);  // a Node joins the flavor, and nobody tells the memo
  f.queues.release_inadmissible();
  cycle();
  CHECK_FALSE(memo.mismatch().empty());
}

TEST_CASE("idle cycles park remembered heads exactly as that many scheduling cycles would", "[kueue][scheduler][memo]") {
  Fixture f;
  f.node("n1", 1);
  f.flavor("f1");
  f.queue("cq", {{"f1", 8}});
  for (int i = 0; i < 4; ++i) f.submit("pair-" + std::to_string(i), "cq", 2, 1, i);
  NominationMemo memo;
  const std::set<std::string> active = active_cluster_queues(f.cluster);
  const KeptCycleState kept{nullptr, nullptr, &memo, &active};
  // Every head fails once (and is remembered), then a requeue event brings them all back.
  for (int i = 0; i < 4; ++i) schedule_cycle(f.cluster, f.state, f.queues, 0, f.config, kept);
  REQUIRE(memo.size() == 4);
  f.queues.release_inadmissible();

  Fixture g = f;  // the same state, driven one cycle at a time
  NominationMemo g_memo = memo;
  const KeptCycleState g_kept{nullptr, nullptr, &g_memo, &active};

  CHECK(run_idle_cycles(f.cluster, f.queues, kept, 3) == 3);
  for (int i = 0; i < 3; ++i) CHECK(schedule_cycle(g.cluster, g.state, g.queues, 0, g.config, g_kept).transitions.empty());
  CHECK(f.queues == g.queues);
  CHECK(f.state == g.state);
  // One head is left; a fourth idle cycle parks it, a fifth would pop nothing.
  CHECK(run_idle_cycles(f.cluster, f.queues, kept, 10) == 1);
  CHECK(f.queues.inadmissible("cq") == 4);
}

TEST_CASE("an idle cycle stops at a head whose verdict is not remembered", "[kueue][scheduler][memo]") {
  Fixture f;
  f.node("n1", 1);
  f.flavor("f1");
  f.queue("cq", {{"f1", 8}});
  f.submit("pair", "cq", 2, 1, 1);
  f.submit("single", "cq", 1, 1, 2);
  NominationMemo memo;
  const std::set<std::string> active = active_cluster_queues(f.cluster);
  const KeptCycleState kept{nullptr, nullptr, &memo, &active};
  schedule_cycle(f.cluster, f.state, f.queues, 0, f.config, kept);  // pair fails, remembered
  // `single` is next and was never searched: a real cycle must run for it.
  CHECK(run_idle_cycles(f.cluster, f.queues, kept, 5) == 0);
  CHECK(f.queues.heap_order("cq") == std::vector<std::string>{"default/single"});
}

TEST_CASE("idle cycles over several queues stop where the first of them could do more than park", "[kueue][scheduler][memo]") {
  // Queues a and b are BestEffortFIFO, s is StrictFIFO. A "remembered" Workload failed once (its
  // verdict is in the memo); a "fresh" one was never searched, so a real cycle must run for it.
  struct Row {
    int a_remembered, a_fresh, b_remembered;
    bool strict_head;
    int64_t max_cycles;
    int64_t expected;
    const char* why;
  };
  const Row rows[] = {
      {3, 0, 5, false, 10, 5, "every head parks; the sixth cycle would pop nothing"},
      {3, 0, 5, true, 10, 10, "a remembered StrictFIFO head makes every later cycle the same"},
      {3, 1, 5, false, 10, 3, "a's fourth head was never searched"},
      {3, 1, 5, true, 10, 3, "a's fourth head stops the run even with a StrictFIFO head"},
      {3, 1, 5, false, 2, 2, "the cycles due before the next event come first"},
      {0, 1, 5, false, 10, 0, "a's first head was never searched"},
      {0, 0, 0, true, 7, 7, "only a StrictFIFO head: all the cycles due"},
      {0, 0, 0, false, 7, 0, "no head anywhere"},
  };
  for (const auto& row : rows) {
    INFO(row.why);
    Fixture f;
    f.node("n1", 1);
    f.flavor("f1");
    f.queue("a", {{"f1", 8}});
    f.queue("b", {{"f1", 8}});
    f.queue("s", {{"f1", 8}}, {}, "StrictFIFO");
    int t = 0;
    for (int i = 0; i < row.a_remembered; ++i) f.submit("a-" + std::to_string(i), "a", 2, 1, ++t);
    for (int i = 0; i < row.b_remembered; ++i) f.submit("b-" + std::to_string(i), "b", 2, 1, ++t);
    if (row.strict_head) f.submit("s-0", "s", 2, 1, ++t);
    NominationMemo memo;
    const std::set<std::string> active = active_cluster_queues(f.cluster);
    const KeptCycleState kept{nullptr, nullptr, &memo, &active};
    for (int i = 0; i < std::max(row.a_remembered, row.b_remembered) + 1; ++i)
      schedule_cycle(f.cluster, f.state, f.queues, 0, f.config, kept);
    for (int i = 0; i < row.a_fresh; ++i) f.submit("a-fresh-" + std::to_string(i), "a", 2, 1, ++t);
    f.queues.release_inadmissible();

    Fixture g = f;  // the same state, driven one cycle at a time
    NominationMemo g_memo = memo;
    const KeptCycleState g_kept{nullptr, nullptr, &g_memo, &active};
    const int64_t ran = run_idle_cycles(f.cluster, f.queues, kept, row.max_cycles);
    CHECK(ran == row.expected);
    // Cycle by cycle, the same number of scheduling cycles leaves the same queues and Workloads
    // (up to the point where every later cycle is the same one again).
    const int64_t by_hand = std::min<int64_t>(ran, 6);
    for (int64_t i = 0; i < by_hand; ++i)
      CHECK(schedule_cycle(g.cluster, g.state, g.queues, 0, g.config, g_kept).transitions.empty());
    CHECK(f.queues == g.queues);
    CHECK(f.state == g.state);
  }
}

TEST_CASE("a queued head with a remembered verdict carries the Pending condition that verdict writes", "[kueue][scheduler][memo]") {
  // remembered_heads_mismatch is what lets run_idle_cycles park a head without reading its
  // Workload. Cycles keep it true; a writer that changes a queued Workload's QuotaReserved condition
  // behind the memo's back breaks it, and the check names that Workload.
  struct Row {
    const char* change;
    std::function<void(Fixture&)> apply;
    std::string says;  // a fragment of what the check reports ("" = it holds)
  };
  const std::vector<Row> rows = {
      {"nothing after the cycles", [](Fixture&) {}, ""},
      {"the heads come back to the heap", [](Fixture& f) { f.queues.release_inadmissible(); }, ""},
      {"another message written on a queued head",
       [](Fixture& f) {
         f.queues.release_inadmissible();
         set_pending(f.state.workloads.at("default/pair-1"), "Pending", "something else", 0);
       },
       "Workload default/pair-1 is queued in ClusterQueue cq with the remembered verdict"},
      {"the same message under another reason",
       [](Fixture& f) {
         f.queues.release_inadmissible();
         const std::string was = f.message("pair-0");
         set_pending(f.state.workloads.at("default/pair-0"), "Inadmissible", was, 0);
       },
       "Workload default/pair-0 is queued"},
      {"a changed condition on a parked head (not in a heap: nothing an idle cycle reads)",
       [](Fixture& f) { set_pending(f.state.workloads.at("default/pair-1"), "Pending", "something else", 0); }, ""},
      {"a queued Workload deleted without leaving the queue",
       [](Fixture& f) {
         f.queues.release_inadmissible();
         f.state.workloads.erase("default/pair-2");
       },
       "Workload default/pair-2 is queued in ClusterQueue cq with a remembered verdict but does not exist"},
  };
  for (const auto& row : rows) {
    SECTION(row.change) {
      Fixture f;
      f.node("n1", 1);
      f.flavor("f1");
      f.queue("cq", {{"f1", 8}});
      for (int i = 0; i < 3; ++i) f.submit("pair-" + std::to_string(i), "cq", 2, 1, i);
      NominationMemo memo;
      const std::set<std::string> active = active_cluster_queues(f.cluster);
      const KeptCycleState kept{nullptr, nullptr, &memo, &active};
      for (int i = 0; i < 3; ++i) schedule_cycle(f.cluster, f.state, f.queues, 0, f.config, kept);
      REQUIRE(memo.size() == 3);
      row.apply(f);
      const std::string got = remembered_heads_mismatch(f.state, f.queues, memo);
      if (row.says.empty()) CHECK(got.empty());
      else CHECK_THAT(got, Catch::Matchers::StartsWith(row.says));
    }
  }
}

TEST_CASE("a failure remembered for one head answers another head of the same shape, and only such a head",
          "[kueue][scheduler][memo]") {
  Workload first;
  first.priority = 5;
  PodSet ps;
  ps.name = "main";
  ps.count = 2;
  ps.template_.containers.push_back(Container{"c", {{"nvidia.com/gpu", *Quantity::parse("1")}}, false});
  first.pod_sets = {ps};
  struct Row {
    const char* what;
    std::function<void(Workload&)> change;
    bool share;  // the head is passed as shareable
    const char* queue;
    std::function<void(NominationMemo&)> after;
    bool answered;
  };
  const auto none = [](Workload&) {};
  const auto nothing = [](NominationMemo&) {};
  const std::vector<Row> rows = {
      {"same PodSets and priority", none, true, "cq-a", nothing, true},
      {"same shape, not passed as shareable", none, false, "cq-a", nothing, false},
      {"same shape, another queue", none, true, "cq-b", nothing, false},
      {"same shape after its queue moved", none, true, "cq-a", [](NominationMemo& m) { m.invalidate_cluster_queue("cq-a"); }, false},
      {"same shape after a flavor it read moved", none, true, "cq-a", [](NominationMemo& m) { m.invalidate_flavor("f1"); }, false},
      {"same shape after anything else moved", none, true, "cq-a", [](NominationMemo& m) { m.invalidate_all(); }, false},
      {"another priority", [](Workload& w) { w.priority = 6; }, true, "cq-a", nothing, false},
      {"another Pod count", [](Workload& w) { w.pod_sets[0].count = 3; }, true, "cq-a", nothing, false},
      {"another request", [](Workload& w) { w.pod_sets[0].template_.containers[0].requests["cpu"] = *Quantity::parse("1"); }, true, "cq-a", nothing, false},
      {"another PodSet name", [](Workload& w) { w.pod_sets[0].name = "decode"; }, true, "cq-a", nothing, false},
      {"another node selector", [](Workload& w) { w.pod_sets[0].template_.node_selector["zone"] = "a"; }, true, "cq-a", nothing, false},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    NominationMemo memo;
    memo.remember_failure(kW, "cq-a", "does not fit", {"f1"}, &first);
    r.after(memo);
    Workload second = first;
    r.change(second);
    const auto got = memo.failure(kOther, r.queue, r.share ? &second : nullptr);
    CHECK(got.has_value() == r.answered);
    if (got) {
      CHECK(*got == "does not fit");
      CHECK(memo.failure(kOther, r.queue) == "does not fit");  // now the head's own, for idle cycles
      memo.invalidate_flavor("f1");
      CHECK(memo.failure(kOther, r.queue) == std::nullopt);  // with the shared one's generations
    }
  }
}

TEST_CASE("a queue whose preemption reads a head's timestamps searches each head of a shape itself",
          "[kueue][scheduler][memo]") {
  // Two heads of one shape that cannot be placed; then a Node joins the flavor and nobody tells the
  // memo. A head answered from the shared verdict keeps the stale answer; one searched itself fits.
  struct Row {
    const char* policy;
    bool second_searched;
  };
  for (const auto& r : std::vector<Row>{{"LowerPriority", false}, {"Never", false}, {"LowerOrNewerEqualPriority", true}}) {
    INFO(r.policy);
    Fixture f;
    f.node("n1", 1);
    f.flavor("f1");
    f.queue("cq", {{"f1", 8}}).spec.preemption.within_cluster_queue = r.policy;
    f.submit("a", "cq", 1, 2, 0);
    f.submit("b", "cq", 1, 2, 1);
    NominationMemo memo;
    auto cycle = [&] { return schedule_cycle(f.cluster, f.state, f.queues, 0, f.config, {nullptr, nullptr, &memo}); };
    cycle();  // a: two Pods, one card: remembered
    f.node("n2", 8);
    cycle();  // b
    CHECK(f.wl("b").status.admission.has_value() == r.second_searched);
    CHECK_FALSE(f.wl("a").status.admission.has_value());
  }
}
