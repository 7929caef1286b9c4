// Kueue's preemption under fair sharing (fair_preemption.h, following v0.14.8 preemption.go
// fairPreemptions and fairsharing/*.go): the cases of Kueue's own TestFairPreemptions, each set up
// here through the scheduler (admitted by cycles at one instant, so that the reservation times tie
// and the names decide, as Kueue's test makes its UIDs the names), then one cycle with fair sharing
// on for the incoming Workload. Kueue's test asks the preemptor directly in Preempt mode; here the
// flavor assigner asks first, so a case that wants no preemption may also end in NoFit. Quota is in
// cards with one of Kueue's cpus as 2 cards (its 0.5 cpu Workloads are 1 card).
#include <catch2/catch.hpp>

#include <functional>
#include <limits>
#include <optional>

#include "model/kueue/scheduler/admission_lifecycle.h"
#include "model/kueue/scheduler/workload_conditions.h"
#include "tests/model/kueue/scheduler/scheduler_fixtures.h"

namespace chaintwin::model::testing {
namespace {

Quantity weight(const char* text) {
  const auto w = Quantity::parse(text);
  REQUIRE(w.ok());
  return *w;
}

struct FairFixture : Fixture {
  FairFixture() {
    node("n1", 96);
    flavor("f");
  }
  ClusterQueue& cq(const std::string& name, const std::string& cohort, int64_t cards,
                   std::optional<Quantity> fair_weight = {}) {
    ClusterQueue& c = queue(name, {{"f", cards}});
    c.spec.cohort_name = cohort;
    c.spec.fair_sharing_weight = fair_weight;
    return c;
  }
  void cohort(const std::string& name, const std::string& parent, std::optional<int64_t> cards = {},
              std::optional<Quantity> fair_weight = {}) {
    Cohort co;
    co.metadata.name = name;
    co.spec.parent_name = parent;
    if (cards) {
      ResourceGroup g;
      g.covered_resources = {kCredits};
      g.flavors.push_back({"f", {{kCredits, q(*cards * kM), {}, {}}}});
      co.spec.resource_groups = {g};
    }
    co.spec.fair_sharing_weight = fair_weight;
    cluster.cohorts[name] = co;
  }
  // Kueue's baseCQs: a, b and c with 3 cpus each, preempting LowerPriority within, Any across,
  // borrowing within the cohort below priority -3; "preemptible" with none of its own.
  void base() {
    for (const std::string name : {"a", "b", "c"}) {
      auto& p = cq(name, "all", 6).spec.preemption;
      p.within_cluster_queue = "LowerPriority";
      p.reclaim_within_cohort = "Any";
      p.borrow_within_cohort_policy = "LowerPriority";
      p.max_priority_threshold = -3;
    }
    cq("preemptible", "all", 0);
  }
};

struct Admitted {
  std::string name, queue;
  int64_t cards;
  int32_t priority = 0;
};

struct Row {
  std::string name;
  std::function<void(FairFixture&)> build;
  std::vector<FairSharingStrategy> strategies;  // empty: Kueue's default, both
  std::vector<Admitted> admitted;
  Admitted incoming;
  std::map<std::string, std::string> want;  // preempted Workload → its Preempted reason
  // What Kueue v0.17's TestFairPreemptions wants, the FairSharingPreemptWithinNominal and
  // FairSharingPrioritizeNonBorrowing gates on, where it differs from v0.14.8's.
  std::optional<std::map<std::string, std::string>> want_v17 = {};
  // Changes made once the admitted Workloads are in, before the incoming one comes.
  std::function<void(FairFixture&)> before_incoming = {};
};

void base(FairFixture& f) { f.base(); }

std::vector<Admitted> units(const std::string& queue, int n, int32_t priority = 0, const std::string& prefix = "") {
  std::vector<Admitted> out;
  for (int i = 1; i <= n; ++i) out.push_back({(prefix.empty() ? queue : prefix) + std::to_string(i), queue, 2, priority});
  return out;
}
std::vector<Admitted> join(std::initializer_list<std::vector<Admitted>> parts) {
  std::vector<Admitted> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

const std::string kFair = "InCohortFairSharing";
const std::string kReclaim = "InCohortReclamation";
const std::string kWithin = "InClusterQueue";
const auto kS2a = FairSharingStrategy::kLessThanOrEqualToFinalShare;
const auto kS2b = FairSharingStrategy::kLessThanInitialShare;

// Kueue's "hierarchical preemption": ROOT(5) over LEFT(5, weight 2) with a (1, weight 2) and b
// (1), c (1) directly, and RIGHT(5) with d (1) and e (1, weight 0.99).
void hierarchy(FairFixture& f) {
  f.cohort("ROOT", "", 10);
  f.cohort("LEFT", "ROOT", 10, weight("2"));
  f.cohort("RIGHT", "ROOT", 10);
  f.cq("a", "LEFT", 2, weight("2")).spec.preemption.reclaim_within_cohort = "Any";
  f.cq("b", "LEFT", 2);
  f.cq("c", "ROOT", 2);
  f.cq("d", "RIGHT", 2);
  f.cq("e", "RIGHT", 2, weight("0.99"));
}

// Kueue's two trees with a RIGHT Cohort: ROOT (no quota) over a (5 cpu, weight 10, preempting
// LowerPriority within and `reclaim` across) and RIGHT (weight 0.1, `right_cards`) over b (no quota
// of its own, weight 0.1).
void right_tree(FairFixture& f, int64_t right_cards, const char* reclaim) {
  f.cohort("ROOT", "");
  f.cohort("RIGHT", "ROOT", right_cards, weight("0.1"));
  auto& p = f.cq("a", "ROOT", 10, weight("10")).spec.preemption;
  p.reclaim_within_cohort = reclaim;
  p.within_cluster_queue = "LowerPriority";
  f.cq("b", "RIGHT", 0, weight("0.1"));
}

std::vector<Admitted> ranked(const std::string& queue) {
  std::vector<Admitted> out;
  for (int i = 1; i <= 5; ++i) out.push_back({queue + std::to_string(i), queue, 2, i});
  return out;
}

const std::vector<Row> kRows = {
    {"reclaim nominal from user using the most", base, {}, join({units("a", 3), units("b", 5), units("c", 1)}),
     {"c_incoming", "c", 2}, {{"b1", kFair}}, {{{"b1", kReclaim}}}},
    {"can reclaim from queue using less, if taking the latest workload from user using the most isn't enough", base, {},
     {{"a1", "a", 6}, {"a2", "a", 2}, {"b1", "b", 4}, {"b2", "b", 6}}, {"c_incoming", "c", 6}, {{"a1", kFair}}, {{{"a1", kReclaim}}}},
    {"reclaim borrowable quota from user using the most", base, {}, join({units("a", 3), units("b", 5), units("c", 1)}),
     {"a_incoming", "a", 2}, {{"b1", kFair}}},
    {"preempt one from each CQ borrowing", base, {},
     {{"a1", "a", 1}, {"a2", "a", 1}, {"a3", "a", 6}, {"b1", "b", 1}, {"b2", "b", 1}, {"b3", "b", 6}},
     {"c_incoming", "c", 4}, {{"a1", kFair}, {"b1", kFair}}, {{{"a1", kReclaim}, {"b1", kReclaim}}}},
    {"can't preempt when everyone under nominal", base, {}, join({units("a", 3), units("b", 3), units("c", 3)}),
     {"c_incoming", "c", 2}, {}},
    {"can't preempt when it would switch the imbalance", base, {}, join({units("a", 3), units("b", 5)}),
     {"a_incoming", "a", 4}, {}},
    {"can preempt lower priority workloads from same CQ", base, {},
     join({units("a", 2, -1, "a_low"), {{"a3", "a", 2}, {"a4", "a", 2}}, units("b", 5)}), {"a_incoming", "a", 4},
     {{"a_low1", kWithin}, {"a_low2", kWithin}}},
    {"can preempt a combination of same CQ and highest user", base, {},
     join({{{"a_low", "a", 2, -1}, {"a2", "a", 2}, {"a3", "a", 2}}, units("b", 6)}), {"a_incoming", "a", 4},
     {{"a_low", kWithin}, {"b1", kFair}}},
    {"preempt huge workload if there is no other option, as long as the target CQ gets a lower share", base, {},
     {{"b1", "b", 18}}, {"a_incoming", "a", 4}, {{"b1", kFair}}, {{{"b1", kReclaim}}}},
    {"can't preempt huge workload if the incoming is also huge", base, {}, {{"a1", "a", 4}, {"b1", "b", 14}},
     {"a_incoming", "a", 10}, {}},
    {"can't preempt 2 smaller workloads if the incoming is huge", base, {},
     {{"b1", "b", 4}, {"b2", "b", 4}, {"b3", "b", 6}}, {"a_incoming", "a", 12}, {}},
    {"preempt from target and others even if over nominal", base, {},
     {{"a1_low", "a", 4, -1}, {"a2_low", "a", 2, -1}, {"b1", "b", 6}, {"b2", "b", 6}}, {"a_incoming", "a", 8},
     {{"a1_low", kWithin}, {"b1", kFair}}},
    {"prefer to preempt workloads that don't make the target CQ have the biggest share", base, {},
     {{"b1", "b", 4}, {"b2", "b", 2}, {"b3", "b", 4}, {"c1", "c", 2}}, {"a_incoming", "a", 7}, {{"b2", kFair}}},
    {"preempt from different cluster queues if the end result has a smaller max share", base, {},
     {{"b1", "b", 4}, {"b2", "b", 5}, {"c1", "c", 4}, {"c2", "c", 5}}, {"a_incoming", "a", 7},
     {{"b1", kFair}, {"c1", kFair}}},
    {"scenario above does not flap", base, {}, {{"a1", "a", 7}, {"b2", "b", 5}, {"c2", "c", 5}}, {"b_incoming", "b", 4},
     {}},
    {"cannot preempt if it would make the candidate CQ go under nominal after preempting one element", base, {},
     {{"b1", "b", 6}, {"b2", "b", 6}, {"c1", "c", 6}}, {"a_incoming", "a", 8}, {}},
    {"workloads under priority threshold not capriciously preempted", base, {},
     join({units("a", 3), units("b", 3), units("preemptible", 3, -3)}), {"a_incoming", "a", 4}, {}},
    {"preempt lower priority first, even if big (S2-b alone)", base, {kS2b},
     {{"a1", "a", 6}, {"b_low", "b", 10, 0}, {"b_high", "b", 2, 1}}, {"a_incoming", "a", 2}, {{"b_low", kFair}}},
    {"preempt workload that doesn't transfer the imbalance, even if high priority (S2-a alone)", base, {kS2a},
     {{"a1", "a", 6}, {"b_low", "b", 10, 0}, {"b_high", "b", 2, 1}}, {"a_incoming", "a", 2}, {{"b_high", kFair}}},
    {"CQ with higher weight can preempt more",
     [](FairFixture& f) {
       for (const std::string name : {"a", "b", "c"}) {
         auto& p = f.cq(name, "all", 6, name == "a" ? std::optional<Quantity>(weight("2")) : std::nullopt).spec.preemption;
         p.within_cluster_queue = "LowerPriority";
         p.reclaim_within_cohort = "Any";
       }
     },
     {}, join({units("a", 3), units("b", 6)}), {"a_incoming", "a", 4}, {{"b1", kFair}, {"b2", kFair}}},
    {"can preempt anything borrowing from CQ with 0 weight",
     [](FairFixture& f) {
       for (const std::string name : {"a", "b", "c"}) {
         auto& p = f.cq(name, "all", 6, name == "b" ? std::optional<Quantity>(weight("0")) : std::nullopt).spec.preemption;
         p.within_cluster_queue = "LowerPriority";
         p.reclaim_within_cohort = "Any";
       }
     },
     {}, join({units("a", 3), units("b", 6)}), {"a_incoming", "a", 6}, {{"b1", kFair}, {"b2", kFair}, {"b3", kFair}}},
    {"can't preempt nominal from CQ with 0 weight",
     [](FairFixture& f) {
       for (const std::string name : {"a", "b"}) {
         auto& p = f.cq(name, "all", 6, name == "b" ? std::optional<Quantity>(weight("0")) : std::nullopt).spec.preemption;
         p.within_cluster_queue = "LowerPriority";
         p.reclaim_within_cohort = "Any";
       }
     },
     {}, join({units("a", 3), units("b", 3)}), {"a_incoming", "a", 2}, {}},
    {"can't preempt nominal from Cohort with 0 weight",
     [](FairFixture& f) {
       f.cohort("root", "");
       f.cohort("right-cohort", "root", 2, weight("0"));
       f.cq("left-cq", "root", 0).spec.preemption.reclaim_within_cohort = "Any";
       f.cq("right-cq", "right-cohort", 0, weight("0")).spec.preemption.reclaim_within_cohort = "Any";
     },
     {}, {{"right-1", "right-cq", 2}}, {"left-1", "left-cq", 2}, {}},
    {"hierarchical preemption", hierarchy, {},
     join({ranked("b"), ranked("c"), ranked("d"), ranked("e")}), {"unit", "a", 10},
     {{"b1", kFair}, {"b2", kFair}, {"c1", kFair}, {"c2", kFair}, {"e1", kFair}}},
    {"borrowing cq in non-borrowing cohort is protected", [](FairFixture& f) { right_tree(f, 2, "Any"); },
     {}, join({units("a", 3, -1), units("b", 1, -1)}), {"unit", "a", 10},
     {{"a1", kWithin}, {"a2", kWithin}, {"a3", kWithin}}},
    {"forced to preempt within clusterqueue because borrowing workload too important",
     [](FairFixture& f) { right_tree(f, 6, "LowerPriority"); },
     {}, join({units("a", 3, -1), {{"b1", "b", 8, 100}}}), {"unit", "a", 8},
     {{"a1", kWithin}, {"a2", kWithin}, {"a3", kWithin}}},
    {"deep preemption",
     [](FairFixture& f) {
       f.cohort("ROOT", "");
       f.cohort("A", "ROOT", {}, weight("1.01"));
       f.cohort("AA", "A");
       f.cohort("AAA", "AA");
       f.cohort("B", "ROOT", {}, weight("0.99"));
       f.cohort("BB", "B");
       f.cohort("BBB", "BB");
       f.cohort("C", "ROOT");
       f.cohort("CC", "C");
       f.cohort("CCC", "CC");
       f.cohort("CCCC", "CCC", 2);
       f.cq("a", "AAA", 0).spec.preemption.reclaim_within_cohort = "Any";
       f.cq("b", "BBB", 0);
     },
     {}, {{"b1", "b", 2}}, {"a1", "a", 2}, {{"b1", kFair}}},
    {"cq with zero weight can reclaim nominal quota",
     [](FairFixture& f) {
       f.cohort("ROOT", "");
       f.cq("a", "ROOT", 2, weight("0.0")).spec.preemption.reclaim_within_cohort = "Any";
       f.cq("b", "ROOT", 0, weight("1.0"));
     },
     {}, {{"b1", "b", 2}}, {"a1", "a", 2}, {{"b1", kFair}}, {{{"b1", kReclaim}}}},
    {"cohort with zero weight can reclaim nominal quota",
     [](FairFixture& f) {
       f.cohort("ROOT", "");
       f.cohort("A", "ROOT", 2, weight("0.0"));
       f.cq("a", "A", 0, weight("0.0")).spec.preemption.reclaim_within_cohort = "Any";
       f.cq("b", "ROOT", 0, weight("1.0"));
     },
     {}, {{"b1", "b", 2}}, {"a1", "a", 2}, {{"b1", kFair}}},
    // Kueue v0.17's "nominal first" case: a holds 2 of its 3 premium cpus and borrows 5 cheap ones,
    // b borrows a's third premium cpu. a's next premium cpu is within its nominal quota: from v0.17
    // it takes b's back unconditionally; v0.14.8 measures shares (a's is the larger) and refuses,
    // and the flavor search goes on to cheap, where one cpu is left.
    {"nominal first: workload fitting within nominal can preempt despite high aggregate DRS",
     [](FairFixture& f) {
       f.node("np", 96, "premium-pool");
       f.node("nc", 96, "cheap-pool");
       f.flavor("premium", "premium-pool");
       f.flavor("cheap", "cheap-pool");
       ClusterQueue& a = f.queue("a", {{"premium", 6}, {"cheap", 0}});
       a.spec.cohort_name = "all";
       a.spec.flavor_fungibility.when_can_borrow = "MayStopSearch";
       a.spec.flavor_fungibility.when_can_preempt = "MayStopSearch";
       f.queue("b", {{"premium", 0}, {"cheap", 12}}).spec.cohort_name = "all";
     },
     {}, {{"a_prem1", "a", 2}, {"b_prem1", "b", 2}, {"a_prem2", "a", 2}, {"a_cheap1", "a", 2}, {"a_cheap2", "a", 2},
          {"a_cheap3", "a", 2}, {"a_cheap4", "a", 2}, {"a_cheap5", "a", 2}},
     {"a_incoming", "a", 2}, {}, {{{"b_prem1", kReclaim}}},
     // (a reclaims only now: while its cheap Workloads come in, it would take premium back.)
     [](FairFixture& f) { f.cluster.cluster_queues.at("a").spec.preemption.reclaim_within_cohort = "Any"; }},
    {"a queue without a cohort preempts within itself",
     [](FairFixture& f) { f.queue("a", {{"f", 2}}).spec.preemption.within_cluster_queue = "LowerPriority"; },
     {}, {{"a1", "a", 2}}, {"a_incoming", "a", 2, 1000}, {{"a1", kWithin}}},
};

}  // namespace

TEST_CASE("Fair-sharing preemption picks the victims Kueue's TestFairPreemptions names, at v0.14.8 and v0.17",
          "[kueue][fair-sharing]") {
  for (const bool v17 : {false, true})
  for (const Row& row : kRows) {
    INFO(row.name << (v17 ? " (v0.17 gates on)" : " (v0.14.8)"));
    FairFixture f;
    f.config.gates.fair_sharing_preempt_within_nominal = v17;
    f.config.gates.fair_sharing_prioritize_non_borrowing = v17;
    row.build(f);
    f.queues.refresh(f.cluster);
    for (std::size_t i = 0; i < row.admitted.size(); ++i) {
      const Admitted& a = row.admitted[i];
      f.submit(a.name, a.queue, a.cards, 1, static_cast<TimeUs>(i), a.priority);  // admitted in list order
    }
    for (std::size_t i = 0; i < row.admitted.size(); ++i) f.cycle(0);  // one head per queue a cycle
    for (const auto& a : row.admitted) REQUIRE(f.wl(a.name).status.admission.has_value());
    if (row.before_incoming) row.before_incoming(f);
    f.config.fair_sharing = true;
    if (!row.strategies.empty()) f.config.fair_preemption_strategies = row.strategies;
    f.submit(row.incoming.name, row.incoming.queue, row.incoming.cards, 1, 10, row.incoming.priority);
    const CycleResult r = f.cycle(10);
    std::map<std::string, std::string> got;
    for (const auto& a : row.admitted)
      if (const Condition* pre = f.cond(a.name, kWorkloadPreempted)) got[a.name] = pre->reason;
    const auto& want = v17 && row.want_v17 ? *row.want_v17 : row.want;
    CHECK(got == want);
    CHECK(r.preemptions == static_cast<int64_t>(want.size()));
  }
}

TEST_CASE("A fair-sharing victim's message names Fair Sharing within the cohort", "[kueue][fair-sharing]") {
  FairFixture f;
  f.base();
  f.queues.refresh(f.cluster);
  for (const auto& a : join({units("a", 3), units("b", 5), units("c", 1)})) f.submit(a.name, a.queue, a.cards, 1, 0);
  for (int i = 0; i < 9; ++i) f.cycle(0);
  f.config.fair_sharing = true;
  f.submit("c_incoming", "c", 2, 1, 10);
  f.cycle(10);
  const Condition* pre = f.cond("b1", kWorkloadPreempted);
  REQUIRE(pre != nullptr);
  CHECK(pre->message.find("due to Fair Sharing within the cohort") != std::string::npos);
  CHECK(f.message("c_incoming").find("Pending the preemption of 1 workload(s)") != std::string::npos);
}

}  // namespace chaintwin::model::testing

namespace chaintwin::model::testing {

TEST_CASE("Under fair sharing a ClusterQueue's status reports its weighted share, rounded up as Kueue's Cache.Usage",
          "[kueue][fair-sharing]") {
  FairFixture f;
  f.base();
  f.queues.refresh(f.cluster);
  for (const auto& a : join({units("a", 3), units("b", 5)})) f.submit(a.name, a.queue, a.cards, 1, 0);
  for (int i = 0; i < 5; ++i) f.cycle(0);
  const QuotaTree tree = QuotaTree::build(f.cluster);
  const auto status = cluster_queue_usage(f.cluster, f.state, f.queues, &tree);
  // b holds 10 cards against 6 nominal: 4 borrowed of the 18 the cohort could lend, 222.2 → 223.
  REQUIRE(status.count("b") == 1);
  CHECK(status.at("b").weighted_share == std::optional<int64_t>(223));
  CHECK(status.at("a").weighted_share == std::optional<int64_t>(0));  // at its nominal quota
  // With b's weight 0 it is a zero-weight borrower: the largest share there is.
  f.cluster.cluster_queues.at("b").spec.fair_sharing_weight = Quantity::from_int(0);
  const QuotaTree zero = QuotaTree::build(f.cluster);
  CHECK(cluster_queue_usage(f.cluster, f.state, f.queues, &zero).at("b").weighted_share ==
        std::optional<int64_t>(std::numeric_limits<int64_t>::max()));
  // Fair sharing off: no share is written (Kueue sets status.fairSharing to nil).
  CHECK_FALSE(cluster_queue_usage(f.cluster, f.state, f.queues).at("b").weighted_share.has_value());
}

}  // namespace chaintwin::model::testing
