// Kueue's fair sharing (v0.14.8): dominantResourceShare and CompareDRS
// (pkg/cache/scheduler/fair_sharing.go) and the admission tournament (pkg/scheduler/
// fair_sharing_iterator.go: computeDRS, runTournament, entryComparer.less). Every expected value is
// computed by hand in the comments; amounts are cpu in milli.
#include <catch2/catch.hpp>

#include "model/kueue/scheduler/fair_sharing.h"

namespace chaintwin::model {
namespace {

const std::string kFlavor = "f";
const FlavorResourceView kCpu{kFlavor, "cpu"};

ResourceGroup group(std::vector<std::pair<std::string, int64_t>> nominal) {
  ResourceGroup g;
  FlavorQuotas f{kFlavor, {}};
  for (const auto& [r, v] : nominal) {
    g.covered_resources.push_back(r);
    f.resources.push_back({r, Quantity::from_int(v), {}, {}});
  }
  g.flavors = {f};
  return g;
}

void add_queue(ClusterState& c, const std::string& name, const std::string& cohort, ResourceGroup g,
               std::optional<Quantity> weight = {}) {
  ClusterQueue cq;
  cq.metadata.name = name;
  cq.spec.cohort_name = cohort;
  cq.spec.resource_groups = {std::move(g)};
  cq.spec.fair_sharing_weight = weight;
  c.cluster_queues[name] = cq;
}

void add_cohort(ClusterState& c, const std::string& name, const std::string& parent, std::optional<ResourceGroup> g = {},
                std::optional<Quantity> weight = {}) {
  Cohort co;
  co.metadata.name = name;
  co.spec.parent_name = parent;
  if (g) co.spec.resource_groups = {*g};
  co.spec.fair_sharing_weight = weight;
  c.cohorts[name] = co;
}

// Reserved quota per ClusterQueue: {queue, {resource, whole units}}; cpu is kept in milli.
UsageSnapshot used(std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>> by_queue) {
  UsageSnapshot u;
  for (const auto& [q, amounts] : by_queue)
    for (const auto& [r, v] : amounts) u.quota[q][{kFlavor, r}] = r == "cpu" ? v * 1000 : v;
  return u;
}

DominantResourceShare drs(double weight, double ratio, std::string resource) { return {weight, ratio, std::move(resource)}; }

}  // namespace

TEST_CASE("A ClusterQueue's dominant resource share is its borrowing over what its cohort could lend, over its weight",
          "[kueue][fair-sharing]") {
  // Cohort c (implicit) over a (10 cpu, 10 GPUs' worth of "example.com/gpu", weight 1) and b (the
  // same, weight 2): SubtreeQuota(c) = 20 cpu and 20 gpu; what c could lend either queue is all of it.
  ClusterState c;
  add_queue(c, "a", "c", group({{"cpu", 10}, {"example.com/gpu", 10}}));
  add_queue(c, "b", "c", group({{"cpu", 10}, {"example.com/gpu", 10}}), Quantity::from_int(2));
  const QuotaTree t = QuotaTree::build(c);
  const auto a = t.cluster_queue("a"), b = t.cluster_queue("b");
  struct Row {
    const char* what;
    UsageSnapshot usage;
    QuotaTree::NodeId node;
    DominantResourceShare expected;
  };
  const std::vector<Row> rows = {
      {"within nominal quota: no share", used({{"a", {{"cpu", 8}}}}), a, drs(1, 0, "")},
      // cpu 15 > 10: 5,000 borrowed of 20,000 lendable → 250.
      {"borrowing cpu", used({{"a", {{"cpu", 15}}}}), a, drs(1, 250, "cpu")},
      // The same for b, whose weight 2 halves the weighted share (the ratio stays 250).
      {"borrowing cpu at weight 2", used({{"b", {{"cpu", 15}}}}), b, drs(2, 250, "cpu")},
      // cpu 12: 2,000/20,000 → 100; gpu 16: 6/20 → 300: the gpu dominates.
      {"the larger ratio dominates", used({{"a", {{"cpu", 12}, {"example.com/gpu", 16}}}}), a, drs(1, 300, "example.com/gpu")},
      // cpu 13: 3,000/20,000 → 150; gpu 13: 3/20 → 150: a tie keeps the smaller name.
      {"a tie keeps the smaller resource name", used({{"a", {{"cpu", 13}, {"example.com/gpu", 13}}}}), a, drs(1, 150, "cpu")},
      {"a root has no share", used({{"a", {{"cpu", 30}}}}), t.cohort("c"), drs(1, 0, "")},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(dominant_resource_share(t, r.node, r.usage) == r.expected);
  }
  CHECK(dominant_resource_share(t, b, used({{"b", {{"cpu", 15}}}})).weighted_share() == 125);
}

TEST_CASE("A Cohort's share counts what its subtree borrows from its parent", "[kueue][fair-sharing]") {
  // root r (cpu 10 of its own) over cohort x (weight 1; no quota) and queue d (cpu 10); x over a
  // and b (cpu 5 each). SubtreeQuota(x) = 10, SubtreeQuota(r) = 10 + 10 + 10 = 30.
  ClusterState c;
  add_cohort(c, "r", "", group({{"cpu", 10}}));
  add_cohort(c, "x", "r");
  add_queue(c, "a", "x", group({{"cpu", 5}}));
  add_queue(c, "b", "x", group({{"cpu", 5}}));
  add_queue(c, "d", "r", group({{"cpu", 10}}));
  const QuotaTree t = QuotaTree::build(c);
  // a uses 9, b 4: Usage(x) = 13 > 10: 3,000 borrowed; lendable = potentialAvailable(r) = 30,000 → 100.
  const UsageSnapshot u = used({{"a", {{"cpu", 9}}}, {"b", {{"cpu", 4}}}});
  CHECK(dominant_resource_share(t, t.cohort("x"), u) == drs(1, 100, "cpu"));
  // a alone: 4,000 over its 5; lendable = potentialAvailable(x) = 0 + potentialAvailable(r) = 30,000 → 133.33…
  CHECK(dominant_resource_share(t, t.cluster_queue("a"), u).unweighted_ratio == Approx(4000.0 * 1000 / 30000));
}

TEST_CASE("Shares compare by the weighted share, with zero-weight borrowers last", "[kueue][fair-sharing]") {
  struct Row {
    const char* what;
    DominantResourceShare a, b;
    int expected;
  };
  const std::vector<Row> rows = {
      {"lower weighted share first", drs(1, 100, "cpu"), drs(3, 240, "cpu"), 1},  // 100 > 80
      {"equal weighted shares tie", drs(2, 200, "cpu"), drs(1, 100, "cpu"), 0},
      {"a zero-weight borrower after any other", drs(0, 1, "cpu"), drs(1, 900, "cpu"), 1},
      {"a zero-weight queue that does not borrow is a zero share", drs(0, 0, ""), drs(1, 1, "cpu"), -1},
      {"two zero-weight borrowers by their unweighted ratio", drs(0, 10, "cpu"), drs(0, 20, "cpu"), -1},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(compare_drs(r.a, r.b) == r.expected);
    CHECK(compare_drs(r.b, r.a) == -r.expected);
  }
}

TEST_CASE("The tournament admits the head whose queue would show the lowest share with it admitted",
          "[kueue][fair-sharing]") {
  // Cohort research holds 40 cpu; team-a (weight 1) and team-b (weight 3) hold none. Each head asks 1 cpu.
  ClusterState c;
  add_cohort(c, "research", "", group({{"cpu", 40}}));
  add_queue(c, "team-a", "research", group({{"cpu", 0}}), Quantity::from_int(1));
  add_queue(c, "team-b", "research", group({{"cpu", 0}}), Quantity::from_int(3));
  const QuotaTree t = QuotaTree::build(c);
  const FlavorResourceAmounts one{{{kFlavor, "cpu"}, 1000}};
  const QueueEntry older{0, 1, "team-a/old", {}}, newer{0, 2, "team-b/new", {}}, high{5, 3, "team-a/high", {}},
      late{0, 9, "team-a/late", {}};
  struct Row {
    const char* what;
    UsageSnapshot usage;
    const QueueEntry *a, *b;
    std::string winner;
  };
  const std::vector<Row> rows = {
      // With its head: a 1,000 × 1000 / 40,000 = 25; b 25 / 3 = 8.3: b, although a's head is older.
      {"empty queues: the heavier weight first", used({}), &older, &newer, "team-b"},
      // a (9 + 1) → 250; b (30 + 1) → 775 / 3 = 258.3: a.
      {"b at three times a's usage: a", used({{"team-a", {{"cpu", 9}}}, {"team-b", {{"cpu", 30}}}}), &older, &newer, "team-a"},
      // a (9 + 1) → 250; b (29 + 1) → 750 / 3 = 250: a tie, the older head.
      {"equal shares: the older head", used({{"team-a", {{"cpu", 9}}}, {"team-b", {{"cpu", 29}}}}), &older, &newer, "team-a"},
      {"equal shares, b first when a's head is the newer", used({{"team-a", {{"cpu", 9}}}, {"team-b", {{"cpu", 29}}}}),
       &late, &newer, "team-b"},
      // Equal shares, a's head has the higher priority (PrioritySortingWithinCohort).
      {"equal shares: the higher priority", used({{"team-a", {{"cpu", 9}}}, {"team-b", {{"cpu", 29}}}}), &high, &newer, "team-a"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const std::vector<FairSharingHead> heads = {{t.cluster_queue("team-a"), &one, r.a}, {t.cluster_queue("team-b"), &one, r.b}};
    const std::size_t w = fair_sharing_winner(t, t.cohort("research"), heads, r.usage);
    CHECK(t.name(heads[w].cluster_queue) == r.winner);
  }
}

TEST_CASE("The tournament lets a child Cohort's winner compete by the Cohort's own share", "[kueue][fair-sharing]") {
  // root r holds 30 cpu; cohort x (no quota) over a and b; queue d beside x. Nothing is nominal
  // below r, so every admitted cpu is borrowed from r (lendable 30,000 at every level).
  ClusterState c;
  add_cohort(c, "r", "", group({{"cpu", 30}}));
  add_cohort(c, "x", "r");
  add_queue(c, "a", "x", group({{"cpu", 0}}));
  add_queue(c, "b", "x", group({{"cpu", 0}}));
  add_queue(c, "d", "r", group({{"cpu", 0}}));
  const QuotaTree t = QuotaTree::build(c);
  const FlavorResourceAmounts one{{{kFlavor, "cpu"}, 1000}};
  const QueueEntry ea{0, 1, "ns/a", {}}, eb{0, 2, "ns/b", {}}, ed{0, 3, "ns/d", {}};
  const std::vector<FairSharingHead> heads = {
      {t.cluster_queue("a"), &one, &ea}, {t.cluster_queue("b"), &one, &eb}, {t.cluster_queue("d"), &one, &ed}};
  // a holds 2, b 0, d 3. Within x: a (3) → 100, b (1) → 33.3: b wins x. At r: x with b's head is
  // Usage(x) = 3 → 100; d (4) → 133.3: x, so b.
  CHECK(t.name(heads[fair_sharing_winner(t, t.cohort("r"), heads, used({{"a", {{"cpu", 2}}}, {"d", {{"cpu", 3}}}}))]
                   .cluster_queue) == "b");
  // d holds 1: d (2) → 66.7 beats x (3) → 100 although b alone would show 33.3.
  CHECK(t.name(heads[fair_sharing_winner(t, t.cohort("r"), heads, used({{"a", {{"cpu", 2}}}, {"d", {{"cpu", 1}}}}))]
                   .cluster_queue) == "d");
}

}  // namespace chaintwin::model

namespace chaintwin::model {

TEST_CASE("FairSharingPrioritizeNonBorrowing puts a head whose queue does not borrow on what it requests first",
          "[kueue][fair-sharing]") {
  // Cohort c (implicit) over a and b, each 10 cpu and 10 "example.com/mem" units. a already borrows
  // 8 mem; b holds its whole cpu. Both heads want 1 cpu.
  ClusterState c;
  add_queue(c, "a", "c", group({{"cpu", 10}, {"example.com/mem", 10}}));
  add_queue(c, "b", "c", group({{"cpu", 10}, {"example.com/mem", 10}}));
  const QuotaTree t = QuotaTree::build(c);
  const FlavorResourceAmounts one_cpu{{{kFlavor, "cpu"}, 1000}};
  const QueueEntry ea{0, 1, "ns/a", {}}, eb{0, 2, "ns/b", {}};
  const std::vector<FairSharingHead> heads = {{t.cluster_queue("a"), &one_cpu, &ea}, {t.cluster_queue("b"), &one_cpu, &eb}};
  const UsageSnapshot usage = used({{"a", {{"cpu", 5}, {"example.com/mem", 18}}}, {"b", {{"cpu", 10}}}});
  // With its head: a shows 8 × 1000 / 20 = 400 (mem, not requested), b 1,000 × 1000 / 20,000 = 50
  // (cpu): by share, b. With the gate, a borrows nothing it requests and goes first.
  CHECK(t.name(heads[fair_sharing_winner(t, t.cohort("c"), heads, usage, false)].cluster_queue) == "b");
  CHECK(t.name(heads[fair_sharing_winner(t, t.cohort("c"), heads, usage, true)].cluster_queue) == "a");
}

}  // namespace chaintwin::model
