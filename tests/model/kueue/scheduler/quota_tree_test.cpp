// Kueue's cohort quota arithmetic (pkg/cache/scheduler/resource_node.go: available,
// potentialAvailable, localQuota, accumulateFromChild; hierarchical_preemption.go:
// FindHeightOfLowestSubtreeThatFits), each expected value computed by hand in the comments.
#include <catch2/catch.hpp>

#include "model/kueue/scheduler/quota_tree.h"

namespace chaintwin::model {
namespace {

const std::string kFlavor = "f";
const std::string kCpu = "cpu";
const FlavorResourceView kFr{kFlavor, kCpu};

ResourceGroup cpu_group(int64_t nominal, std::optional<int64_t> borrowing = {}, std::optional<int64_t> lending = {}) {
  ResourceQuota r{kCpu, Quantity::from_int(nominal), {}, {}};
  if (borrowing) r.borrowing_limit = Quantity::from_int(*borrowing);
  if (lending) r.lending_limit = Quantity::from_int(*lending);
  ResourceGroup g;
  g.covered_resources = {kCpu};
  g.flavors = {{kFlavor, {r}}};
  return g;
}

void add_queue(ClusterState& c, const std::string& name, const std::string& cohort, ResourceGroup g) {
  ClusterQueue cq;
  cq.metadata.name = name;
  cq.spec.cohort_name = cohort;
  cq.spec.resource_groups = {std::move(g)};
  c.cluster_queues[name] = cq;
}

void add_cohort(ClusterState& c, const std::string& name, const std::string& parent, std::optional<ResourceGroup> g = {}) {
  Cohort co;
  co.metadata.name = name;
  co.spec.parent_name = parent;
  if (g) co.spec.resource_groups = {*g};
  c.cohorts[name] = co;
}

UsageSnapshot used(std::vector<std::pair<std::string, int64_t>> by_queue) {
  UsageSnapshot u;
  for (const auto& [q, v] : by_queue) u.quota[q][{kFlavor, kCpu}] = v * 1000;  // cpu in milli
  return u;
}

}  // namespace

TEST_CASE("a flat cohort shares its members' quota, each limited by its borrowingLimit", "[kueue][cohort]") {
  ClusterState c;
  add_queue(c, "a", "c", cpu_group(20, 100));
  add_queue(c, "b", "c", cpu_group(20));
  const QuotaTree t = QuotaTree::build(c);
  REQUIRE(t.has_cohorts());
  const auto a = t.cluster_queue("a"), b = t.cluster_queue("b");
  const UsageSnapshot u = used({{"a", 10}, {"b", 25}});
  // SubtreeQuota(c) = 20 + 20 = 40; Usage(c) = 10 + 25 = 35.
  CHECK(t.subtree_quota(t.cohort("c"), kFr) == 40'000);
  CHECK(t.usage(t.cohort("c"), kFr, u) == 35'000);
  // available(a) = 0 + min(40 − 35, 20 − 10 + 100) = 5; b has no limit: 5.
  CHECK(t.available(a, kFr, u) == 5'000);
  CHECK(t.available(b, kFr, u) == 5'000);
  // potentialAvailable(a) = min(0 + 40, 20 + 100) = 40.
  CHECK(t.potential_available(a, kFr) == 40'000);
  CHECK(t.potential_available(b, kFr) == 40'000);
  // 10 + 5 ≤ 20: not borrowing, height 0, reclaim possible (a has a parent).
  CHECK(t.lowest_subtree_that_fits(a, kFr, 5'000, u) == QuotaTree::BorrowHeight{0, true});
  // 10 + 15 > 20 and 35 + 15 > 40: nothing fits, the root's height (1), no reclaim.
  CHECK(t.lowest_subtree_that_fits(a, kFr, 15'000, u) == QuotaTree::BorrowHeight{1, false});
  // With b at 0: Usage(c) = 10, 10 + 15 ≤ 40 at the cohort: height 1, the root (no reclaim).
  CHECK(t.lowest_subtree_that_fits(a, kFr, 15'000, used({{"a", 10}})) == QuotaTree::BorrowHeight{1, false});
  CHECK(t.tree_members("a") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("a lendingLimit keeps the rest of a queue's quota to itself", "[kueue][cohort]") {
  ClusterState c;
  add_queue(c, "a", "c", cpu_group(20, {}, 5));  // lends at most 5: localQuota 15
  add_queue(c, "b", "c", cpu_group(20));
  const QuotaTree t = QuotaTree::build(c);
  const auto a = t.cluster_queue("a"), b = t.cluster_queue("b");
  const UsageSnapshot u = used({{"a", 10}, {"b", 12}});
  CHECK(t.local_quota(a, kFr) == 15'000);
  // SubtreeQuota(c) = (20 − 15) + 20 = 25; Usage(c) = max(0, 10 − 15) + 12 = 12.
  CHECK(t.subtree_quota(t.cohort("c"), kFr) == 25'000);
  CHECK(t.usage(t.cohort("c"), kFr, u) == 12'000);
  // available(a) = (15 − 10) + (25 − 12) = 18; available(b) = 0 + 13 = 13.
  CHECK(t.available(a, kFr, u) == 18'000);
  CHECK(t.available(b, kFr, u) == 13'000);
  // potentialAvailable(a) = 15 + 25 = 40; (b) = 0 + 25 = 25.
  CHECK(t.potential_available(a, kFr) == 40'000);
  CHECK(t.potential_available(b, kFr) == 25'000);
}

TEST_CASE("hierarchical Cohorts add their own quota and a cohort's borrowingLimit caps its subtree", "[kueue][cohort]") {
  ClusterState c;
  add_cohort(c, "r", "", cpu_group(10));
  add_cohort(c, "c", "r", cpu_group(0, 5));  // c may take at most 5 more than its subtree holds
  add_queue(c, "a", "c", cpu_group(10));
  add_queue(c, "b", "r", cpu_group(0));
  const QuotaTree t = QuotaTree::build(c);
  const auto a = t.cluster_queue("a");
  const auto r = t.cohort("r"), co = t.cohort("c");
  REQUIRE(t.parent(co) == r);
  const UsageSnapshot u = used({{"a", 12}, {"b", 3}});
  // SubtreeQuota: c = 0 + 10 = 10; r = 10 + 10 + 0 = 20. Usage: c = 12; r = 12 + 3 = 15.
  CHECK(t.subtree_quota(co, kFr) == 10'000);
  CHECK(t.subtree_quota(r, kFr) == 20'000);
  CHECK(t.usage(r, kFr, u) == 15'000);
  // available(c) = 0 + min(20 − 15, 10 − 12 + 5) = 3; available(a) = 0 + 3.
  CHECK(t.available(a, kFr, u) == 3'000);
  // potentialAvailable(c) = min(0 + 20, 10 + 5) = 15 = potentialAvailable(a).
  CHECK(t.potential_available(a, kFr) == 15'000);
  // 12 + 1 > 10 at a and at c; 15 + 1 ≤ 20 at r: r's height (c below it: 2), the root.
  CHECK(t.lowest_subtree_that_fits(a, kFr, 1'000, u) == QuotaTree::BorrowHeight{2, false});
  // A second queue under c with 5 of quota: c holds 15 and 12 + 1 fits there, height 1, below the root.
  add_queue(c, "d", "c", cpu_group(5));
  const QuotaTree t2 = QuotaTree::build(c);
  CHECK(t2.lowest_subtree_that_fits(t2.cluster_queue("a"), kFr, 1'000, u) == QuotaTree::BorrowHeight{1, true});
  CHECK(t2.tree_members("b") == std::vector<std::string>{"a", "b", "d"});
}

TEST_CASE("a ClusterQueue without a cohort keeps the isolated arithmetic", "[kueue][cohort]") {
  ClusterState c;
  add_queue(c, "solo", "", cpu_group(8));
  const QuotaTree t = QuotaTree::build(c);
  CHECK_FALSE(t.has_cohorts());
  const auto s = t.cluster_queue("solo");
  CHECK_FALSE(t.has_parent(s));
  CHECK(t.available(s, kFr, used({{"solo", 5}})) == 3'000);
  CHECK(t.available(s, kFr, used({{"solo", 9}})) == 0);  // in debt: Available is 0
  CHECK(t.potential_available(s, kFr) == 8'000);
  CHECK(t.lowest_subtree_that_fits(s, kFr, 9'000, used({})) == QuotaTree::BorrowHeight{0, false});
  CHECK(t.tree_members("solo") == std::vector<std::string>{"solo"});
}

TEST_CASE("a cohort whose parents form a cycle takes its queues out of every tree", "[kueue][cohort]") {
  ClusterState c;
  add_cohort(c, "x", "y");
  add_cohort(c, "y", "x");
  add_queue(c, "q", "x", cpu_group(4));
  add_queue(c, "fine", "z", cpu_group(4));
  const QuotaTree t = QuotaTree::build(c);
  CHECK(t.in_cycle() == std::vector<std::string>{"q"});
  CHECK_FALSE(t.has_parent(t.cluster_queue("q")));
  CHECK(t.has_parent(t.cluster_queue("fine")));
}

}  // namespace chaintwin::model

namespace chaintwin::model {

TEST_CASE("a bound usage answers every question as the snapshot does, and follows additions as a rebinding would",
          "[kueue][cohort]") {
  // root r (10 of its own) over cohort x (lends at most 4 of its subtree) and queue d (lends at
  // most 3 of 8); x over a (5, lends at most 2) and b (5, borrowingLimit 1). Usages cross every
  // localQuota, so each clamp is exercised.
  ClusterState c;
  add_cohort(c, "r", "", cpu_group(10));
  add_cohort(c, "x", "r", cpu_group(0, {}, 4));
  add_queue(c, "a", "x", cpu_group(5, {}, 2));
  add_queue(c, "b", "x", cpu_group(5, 1));
  add_queue(c, "d", "r", cpu_group(8, {}, 3));
  add_queue(c, "lonely", "", cpu_group(3));
  const QuotaTree t = QuotaTree::build(c);
  const std::vector<std::string> queues = {"a", "b", "d", "lonely"};
  std::vector<QuotaTree::NodeId> nodes;
  for (const auto& q : queues) nodes.push_back(t.cluster_queue(q));
  nodes.push_back(t.cohort("x"));
  nodes.push_back(t.cohort("r"));
  const FlavorResourceView other{"g", "memory"};  // a pair no quota names
  for (const auto& u : {used({}), used({{"a", 2}, {"b", 7}}), used({{"a", 9}, {"b", 1}, {"d", 12}, {"lonely", 4}}),
                        used({{"a", 4}, {"d", 2}})}) {
    for (const QuotaTree::NodeId within : {QuotaTree::kNone, t.cluster_queue("a"), t.cluster_queue("lonely")}) {
      const QuotaUsage bound = t.bind(u, within);
      for (const auto n : nodes) {
        INFO("node " << t.name(n) << ", bound within " << (within == QuotaTree::kNone ? "all" : t.name(within)));
        CHECK(t.usage(n, kFr, bound) == t.usage(n, kFr, u));
        CHECK(t.available(n, kFr, bound) == t.available(n, kFr, u));
        CHECK(t.local_available(n, kFr, bound) == t.local_available(n, kFr, u));
        CHECK(t.borrowing_with(n, kFr, 3'000, bound) == t.borrowing_with(n, kFr, 3'000, u));
        CHECK(t.within_nominal(n, {kFr}, bound) == t.within_nominal(n, {kFr}, u));
        CHECK(t.usage(n, other, bound) == t.usage(n, other, u));
        if (t.is_cluster_queue(n))
          for (const int64_t v : {1'000, 6'000, 20'000})
            CHECK(t.lowest_subtree_that_fits(n, kFr, v, bound) == t.lowest_subtree_that_fits(n, kFr, v, u));
      }
      // Adding and taking out, by ClusterQueue, against the snapshot changed the same way.
      QuotaUsage moved = bound;
      UsageSnapshot changed = u;
      for (const auto& [q, v] : std::vector<std::pair<std::string, int64_t>>{{"a", 3'000}, {"b", -1'000}, {"d", 5'000}, {"a", -4'000}, {"lonely", 2'000}}) {
        moved.add(t.cluster_queue(q), kFr, v);
        moved.add(t.cluster_queue(q), other, v);
        add_amount(changed.quota[q], kFr, v);
        add_amount(changed.quota[q], other, v);
        for (const auto n : nodes) {
          INFO("after adding " << v << " to " << q << ", node " << t.name(n));
          CHECK(moved.of(n, kFr) == t.usage(n, kFr, changed));
          CHECK(moved.of(n, other) == t.usage(n, other, changed));
          CHECK(t.available(n, kFr, moved) == t.available(n, kFr, changed));
        }
      }
    }
  }
}

}  // namespace chaintwin::model
