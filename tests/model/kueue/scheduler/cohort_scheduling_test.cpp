// schedule_cycle with ClusterQueues in a cohort: borrowing up to a borrowingLimit, the maximum
// capacity message with the cohort's potential, Kueue's entry order (lower borrow height first),
// reclaim within the cohort (reclaimWithinCohort; the preemption reason and message), and
// borrowWithinCohort's maxPriorityThreshold.
#include <catch2/catch.hpp>

#include "model/kueue/scheduler/admission_lifecycle.h"
#include "model/kueue/scheduler/scheduler.h"
#include "model/kueue/scheduler/workload_conditions.h"
#include "tests/model/kueue/scheduler/scheduler_fixtures.h"

namespace chaintwin::model::testing {
namespace {

// Two queues in cohort "pool" on one TAS flavor of 16 cards, each with `nominal` cards.
struct CohortFixture : Fixture {
  CohortFixture(int64_t nominal_a = 2, std::optional<int64_t> borrow_a = {}, int64_t nominal_b = 2) {
    node("n1", 16);
    flavor("f");
    join(queue("a", {{"f", nominal_a}}), borrow_a);
    join(queue("b", {{"f", nominal_b}}), {});
    queues.refresh(cluster);
  }
  static void join(ClusterQueue& cq, std::optional<int64_t> borrow_cards) {
    cq.spec.cohort_name = "pool";
    if (borrow_cards) cq.spec.resource_groups[0].flavors[0].resources[0].borrowing_limit = q(*borrow_cards * kM);
  }
  bool reserved(const std::string& name) { return wl(name).status.admission.has_value(); }
};

}  // namespace

TEST_CASE("a queue in a cohort borrows idle quota up to its borrowingLimit", "[kueue][cohort]") {
  CohortFixture f(2, 1);
  for (int i = 0; i < 4; ++i) f.submit("w" + std::to_string(i), "a", 1, 1, i);
  for (int i = 0; i < 4; ++i) f.cycle(i);
  // 2 nominal + 1 borrowed of b's idle 2: three admitted, the fourth over the limit.
  CHECK(f.reserved("w0"));
  CHECK(f.reserved("w1"));
  CHECK(f.reserved("w2"));
  CHECK_FALSE(f.reserved("w3"));
  // potentialAvailable(a) = min(0 + 4, 2 + 1) = 3 cards; 3 used, so 1 more is short of unused quota.
  CHECK(f.message("w3") == "couldn't assign flavors to pod set main: insufficient unused quota for " + kCredits +
                               " in flavor f, 1600k more needed");
  // A Workload larger than the limit allows is over the maximum capacity.
  f.submit("big", "a", 4, 1, 10);
  f.cycle(10);
  f.cycle(11);
  CHECK(f.message("big") == "couldn't assign flavors to pod set main: insufficient quota for " + kCredits +
                                " in flavor f, previously considered podsets requests (0) + current podset request "
                                "(6400k) > maximum capacity (4800k)");
}

TEST_CASE("without a borrowingLimit a queue can take the whole cohort's idle quota", "[kueue][cohort]") {
  CohortFixture f(2, {}, 3);
  f.submit("w", "a", 5, 1, 0);
  f.cycle(0);
  CHECK(f.reserved("w"));  // 5 = 2 of its own + 3 of b's
}

TEST_CASE("the head that borrows goes after the one that does not in the same cycle", "[kueue][cohort]") {
  CohortFixture f(1, {}, 1);
  f.submit("borrower", "a", 2, 1, /*created=*/0, /*priority=*/100);  // needs 1 of b's card
  f.submit("owner", "b", 1, 1, /*created=*/5, /*priority=*/0);       // within b's own card
  f.cycle(0);
  // Kueue's entry order puts the lower borrow height first whatever the priority: b's head takes
  // its card, and a's no longer fits.
  CHECK(f.reserved("owner"));
  CHECK_FALSE(f.reserved("borrower"));
}

TEST_CASE("a queue reclaims its lent quota by preempting the borrower's newest Workloads", "[kueue][cohort]") {
  CohortFixture f(2, {}, 2);
  f.cluster.cluster_queues.at("b").spec.preemption.reclaim_within_cohort = "Any";
  for (int i = 0; i < 4; ++i) f.submit("a" + std::to_string(i), "a", 1, 1, i);
  for (int i = 0; i < 4; ++i) f.cycle(i);
  for (int i = 0; i < 4; ++i) REQUIRE(f.reserved("a" + std::to_string(i)));  // a borrows b's 2 cards
  f.submit("mine", "b", 2, 1, 10, /*priority=*/-5);  // any priority: Any reclaims regardless
  const CycleResult r = f.cycle(10);
  CHECK(r.preemptions == 2);
  // The most recently reserved go first: a3 and a2.
  for (const std::string name : {"a3", "a2"}) {
    const Condition* pre = f.cond(name, kWorkloadPreempted);
    REQUIRE(pre != nullptr);
    CHECK(pre->reason == "InCohortReclamation");
    CHECK(pre->message.find("due to reclamation within the cohort") != std::string::npos);
  }
  CHECK(f.cond("a1", kWorkloadPreempted) == nullptr);
  CHECK(f.message("mine").find("Pending the preemption of 2 workload(s)") != std::string::npos);
}

TEST_CASE("reclaimWithinCohort LowerPriority leaves a borrower of equal priority alone", "[kueue][cohort]") {
  CohortFixture f(2, {}, 2);
  f.cluster.cluster_queues.at("b").spec.preemption.reclaim_within_cohort = "LowerPriority";
  for (int i = 0; i < 4; ++i) f.submit("a" + std::to_string(i), "a", 1, 1, i);
  for (int i = 0; i < 4; ++i) f.cycle(i);
  f.submit("mine", "b", 2, 1, 10, 0);
  const CycleResult r = f.cycle(10);
  CHECK(r.preemptions == 0);
  CHECK_FALSE(f.reserved("mine"));
  CHECK(f.message("mine") == "couldn't assign flavors to pod set main: insufficient unused quota for " + kCredits +
                                 " in flavor f, 3200k more needed");
}

TEST_CASE("borrowWithinCohort lets a borrower preempt below maxPriorityThreshold only", "[kueue][cohort]") {
  // The cohort holds 4 cards: a 1, b 1, an idle c 2. a borrows 2 more at priority 10; b then wants
  // 3 (its own card and 2 borrowed), so it must preempt a's two borrowed ones while borrowing
  // itself, which borrowWithinCohort allows only for candidates at or below the threshold.
  for (const auto& [threshold, expected] : std::vector<std::pair<int32_t, int64_t>>{{20, 2}, {10, 2}, {5, 0}}) {
    CohortFixture f(1, {}, 1);
    CohortFixture::join(f.queue("c", {{"f", 2}}), {});
    f.queues.refresh(f.cluster);
    ClusterQueue& b = f.cluster.cluster_queues.at("b");
    b.spec.preemption.reclaim_within_cohort = "LowerPriority";
    b.spec.preemption.borrow_within_cohort_policy = "LowerPriority";
    b.spec.preemption.max_priority_threshold = threshold;
    for (int i = 0; i < 3; ++i) {
      f.submit("a" + std::to_string(i), "a", 1, 1, i, 10);
      f.cycle(i);
    }
    REQUIRE(f.reserved("a2"));
    f.submit("mine", "b", 3, 1, 10, 100);
    const CycleResult r = f.cycle(10);
    INFO("maxPriorityThreshold " << threshold);
    CHECK(r.preemptions == expected);
    for (const std::string name : {"a1", "a2"}) {
      const Condition* pre = f.cond(name, kWorkloadPreempted);
      CHECK((pre != nullptr) == (expected > 0));
      if (pre != nullptr) CHECK(pre->reason == "InCohortReclaimWhileBorrowing");
    }
    CHECK(f.cond("a0", kWorkloadPreempted) == nullptr);
  }
}

}  // namespace chaintwin::model::testing

namespace chaintwin::model::testing {

TEST_CASE("quota freed in one queue of a cohort requeues the inadmissible Workloads of the whole cohort",
          "[kueue][cohort]") {
  CohortFixture f(1, {}, 1);
  f.submit("a0", "a", 2, 1, 0);  // takes a's card and b's
  f.cycle(0);
  REQUIRE(f.reserved("a0"));
  f.submit("b0", "b", 1, 1, 1);
  f.cycle(1);
  REQUIRE_FALSE(f.reserved("b0"));
  CHECK(f.queues.inadmissible("b") == 1);
  finish_workload(f.state, f.queues, "default/a0", 2);
  CHECK(f.queues.inadmissible("b") == 0);  // released by a's quota coming free
  f.cycle(2);
  CHECK(f.reserved("b0"));
}

}  // namespace chaintwin::model::testing

namespace chaintwin::model::testing {

TEST_CASE("a preempting head holds its quota for the rest of the cycle, so a later head of the cohort "
          "does not take the room it counts on", "[kueue][cohort]") {
  // a (2 cards) borrows 2 of b's 3; c has no quota of its own. One card of the cohort's 5 is free.
  CohortFixture f(2, {}, 3);
  CohortFixture::join(f.queue("c", {{"f", 0}}), {});
  f.queues.refresh(f.cluster);
  f.cluster.cluster_queues.at("b").spec.preemption.reclaim_within_cohort = "Any";
  for (int i = 0; i < 4; ++i) {
    f.submit("a" + std::to_string(i), "a", 1, 1, i);
    f.cycle(i);
  }
  REQUIRE(f.reserved("a3"));
  // b's head wants its 3 cards (1 free + 2 reclaimed from a); c's head wants the free card and
  // borrows, so it comes after b's in the cycle.
  f.submit("mine", "b", 3, 1, 10);
  f.submit("other", "c", 1, 1, 11);
  const CycleResult r = f.cycle(10);
  CHECK(r.preemptions == 2);
  CHECK_FALSE(f.reserved("other"));
  CHECK(f.message("other") == "couldn't assign flavors to pod set main: insufficient unused quota for " + kCredits +
                                  " in flavor f, 1600k more needed");
  // The hold ends with the cycle: the queues' reserved quota is the Workloads' again.
  const UsageSnapshot after = build_usage_snapshot(f.state);
  CHECK(amount_of(after.quota.count("b") ? after.quota.at("b") : FlavorResourceAmounts{}, {"f", kCredits}) == 0);
}

}  // namespace chaintwin::model::testing
