// Kueue's cohort tree of quota (pkg/cache/scheduler: resource_node.go, cohort.go,
// clusterqueue_snapshot.go; and FindHeightOfLowestSubtreeThatFits, preemption/classical/
// hierarchical_preemption.go — the same code from v0.14.8 to v0.20-devel): ClusterQueues that name
// a cohort are leaves under it; Cohort objects add their own quota and may have a parent; a cohort
// named without an object is an implicit root with no quota. Per (flavor, resource):
//
//   localQuota(n)        = lendingLimit ? max(0, SubtreeQuota − lendingLimit) : 0   (never lent)
//   SubtreeQuota(CQ)     = nominal
//   SubtreeQuota(cohort) = nominal + Σ_child (SubtreeQuota(child) − localQuota(child))
//   Usage(cohort)        = Σ_child max(0, Usage(child) − localQuota(child))
//   available(root)      = SubtreeQuota − Usage
//   available(n)         = max(0, localQuota − Usage)
//                          + min(available(parent), borrowingLimit ? SubtreeQuota − localQuota
//                                − max(0, Usage − localQuota) + borrowingLimit : ∞)
//   potentialAvailable   = root ? SubtreeQuota : min(localQuota + potentialAvailable(parent),
//                                                    borrowingLimit ? SubtreeQuota + borrowingLimit : ∞)
//
// A ClusterQueue without a cohort is its own root: available = nominal − usage, potentialAvailable
// = nominal, exactly the isolated arithmetic the operator's queues use. The tree holds the specs
// only; usage is read from a UsageSnapshot's per-ClusterQueue amounts at each question, so the
// tree stays valid while only reservations move. Cohorts in a parent cycle are left out, and the
// ClusterQueues under them are reported (Kueue marks them inactive). Pure and deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/cluster_state.h"
#include "model/kueue/scheduler/usage_snapshot.h"

namespace chaintwin::model {

class QuotaTree;

// The usage of every node of a QuotaTree, read from a UsageSnapshot once (QuotaTree::bind): a
// nomination asks the tree many questions, each of which would otherwise look each ClusterQueue's
// usage up by name in the snapshot and sum the cohorts again. Adding to a ClusterQueue updates its
// cohorts as Kueue's resource nodes do. It reads its snapshot for pairs no quota of the tree names,
// so it must not outlive that snapshot; changes made to the snapshot after binding are not seen.
class QuotaUsage {
 public:
  using NodeId = int32_t;
  int64_t of(NodeId n, FlavorResourceView fr) const;
  // Adds `v` of `fr` to ClusterQueue node `cq` (negative: takes it out).
  void add(NodeId cq, FlavorResourceView fr, int64_t v);
  // Adds (sign +1) or takes out (sign -1) a Workload's reserved quota, at its ClusterQueue's node.
  void add(const WorkloadUsage& usage, int sign);

 private:
  friend class QuotaTree;
  const QuotaTree* tree_ = nullptr;
  const UsageSnapshot* base_ = nullptr;
  std::vector<int64_t> used_;  // node × pair id
  int32_t root_ = -1;          // bound for this root's tree only; -1: every tree
  // Pairs no quota of the tree names: what was added to each ClusterQueue since binding.
  std::map<std::pair<NodeId, std::pair<std::string, std::string>>, int64_t> other_added_;
};

class QuotaTree {
 public:
  using NodeId = int32_t;
  static constexpr NodeId kNone = -1;

  // The tree of every ClusterQueue and Cohort of `cluster`.
  static QuotaTree build(const ClusterState& cluster);

  // Whether any ClusterQueue has a cohort (else every question has the isolated answer).
  bool has_cohorts() const { return has_cohorts_; }
  // The node of a ClusterQueue, kNone for an unknown one.
  NodeId cluster_queue(const std::string& name) const;
  // The node of a cohort (an object or an implicit one), kNone when nothing names it.
  NodeId cohort(const std::string& name) const;
  bool has_parent(NodeId n) const { return nodes_[n].parent != kNone; }
  NodeId parent(NodeId n) const { return nodes_[n].parent; }
  bool is_cluster_queue(NodeId n) const { return nodes_[n].is_cluster_queue; }
  const std::string& name(NodeId n) const { return nodes_[n].name; }
  const std::vector<NodeId>& children(NodeId n) const { return nodes_[n].children; }
  // The root of n's tree (n itself without a parent).
  NodeId root(NodeId n) const;
  // ClusterQueues whose cohort chain has a cycle: Kueue does not schedule them.
  const std::vector<std::string>& in_cycle() const { return in_cycle_; }
  // The ClusterQueues sharing a tree with `cluster_queue` (itself included), in name order; just
  // itself when it has no cohort.
  std::vector<std::string> tree_members(const std::string& cluster_queue) const;

  // spec.fairSharing.weight as a number (1 when absent; Kueue's parseFairWeight, AsFloat64Slow).
  double fair_weight(NodeId n) const { return nodes_[n].weight; }
  // The (flavor, resource) pairs of n's SubtreeQuota, in name order (a root's hold every pair of
  // its tree, zeros included, as Kueue's accumulateFromChild keeps them).
  std::vector<FlavorResourceView> subtree_flavor_resources(NodeId n) const;

  // The usage of every node as `snapshot` reserves it (see QuotaUsage); with `within`, of the nodes
  // of within's tree only (the others are read from the snapshot at each question).
  QuotaUsage bind(const UsageSnapshot& snapshot, NodeId within = kNone) const;

  // Per (flavor, resource), against the reserved quota in `usage` (by ClusterQueue), or bound:
  int64_t nominal(NodeId n, FlavorResourceView fr) const;
  int64_t subtree_quota(NodeId n, FlavorResourceView fr) const;
  int64_t usage(NodeId n, FlavorResourceView fr, const UsageSnapshot& usage) const;
  int64_t local_quota(NodeId n, FlavorResourceView fr) const;
  int64_t local_available(NodeId n, FlavorResourceView fr, const UsageSnapshot& usage) const;
  // Kueue's Available: max(0, available(n)).
  int64_t available(NodeId n, FlavorResourceView fr, const UsageSnapshot& usage) const;
  int64_t potential_available(NodeId n, FlavorResourceView fr) const;
  // Usage + v > nominal (a ClusterQueue) or > SubtreeQuota (a cohort): Kueue's BorrowingWith.
  bool borrowing_with(NodeId n, FlavorResourceView fr, int64_t v, const UsageSnapshot& usage) const;
  // Usage ≤ SubtreeQuota for every fr: IsWithinNominalInResources.
  bool within_nominal(NodeId n, const std::vector<FlavorResourceView>& frs, const UsageSnapshot& usage) const;
  int64_t usage(NodeId n, FlavorResourceView fr, const QuotaUsage& bound) const { return bound.of(n, fr); }
  int64_t local_available(NodeId n, FlavorResourceView fr, const QuotaUsage& usage) const;
  int64_t available(NodeId n, FlavorResourceView fr, const QuotaUsage& usage) const;
  bool borrowing_with(NodeId n, FlavorResourceView fr, int64_t v, const QuotaUsage& usage) const;
  bool within_nominal(NodeId n, const std::vector<FlavorResourceView>& frs, const QuotaUsage& usage) const;

  // FindHeightOfLowestSubtreeThatFits for `val` of fr more in ClusterQueue `cq`: the height of the
  // lowest subtree (0 for the queue itself; a cohort's height is the distance to its furthest
  // leaf cohort, at least 1 when it has children) whose quota covers it, and whether that subtree
  // is below the root (so that reclaiming within it is possible).
  struct BorrowHeight {
    int height = 0;
    bool may_reclaim = false;
    bool operator==(const BorrowHeight&) const = default;
  };
  BorrowHeight lowest_subtree_that_fits(NodeId cq, FlavorResourceView fr, int64_t val, const UsageSnapshot& usage) const;
  BorrowHeight lowest_subtree_that_fits(NodeId cq, FlavorResourceView fr, int64_t val, const QuotaUsage& usage) const;

  bool operator==(const QuotaTree&) const = default;

 private:
  struct Limits {
    int64_t nominal = 0;
    std::optional<int64_t> borrowing_limit;
    std::optional<int64_t> lending_limit;
    bool operator==(const Limits&) const = default;
  };
  using FlavorResourceKey = std::pair<std::string, std::string>;
  struct Node {
    std::string name;
    bool is_cluster_queue = false;
    NodeId parent = kNone;
    std::vector<NodeId> children;  // cohorts first, then ClusterQueues, each in name order
    std::map<FlavorResourceKey, Limits, FlavorResourceLess> quotas;
    std::map<FlavorResourceKey, int64_t, FlavorResourceLess> subtree_quota;
    // Per pair, everything the questions read of the specs, found with one lookup (made at build).
    struct Cell {
      Limits limits;  // zeros and no limits when the node names no quota for the pair
      int64_t subtree_quota = 0;
      int64_t local_quota = 0;
      bool operator==(const Cell&) const = default;
    };
    std::map<FlavorResourceKey, Cell, FlavorResourceLess> cells;
    double weight = 1;
    bool operator==(const Node&) const = default;
  };
  friend class QuotaUsage;
  const Limits* limits(NodeId n, FlavorResourceView fr) const;
  // The node's cell of `fr`, null when the node's subtree holds no quota of it.
  const Node::Cell* cell(NodeId n, FlavorResourceView fr) const;
  // The id of a pair some quota of the tree names, -1 for any other.
  int pair_id(FlavorResourceView fr) const;
  // The questions, for any reader of a node's usage of one pair: used(NodeId) -> int64_t.
  template <typename Used>
  int64_t available_raw_t(NodeId n, FlavorResourceView fr, const Used& used) const;
  template <typename Used>
  BorrowHeight lowest_subtree_that_fits_t(NodeId cq, FlavorResourceView fr, int64_t val, const Used& used) const;
  template <typename Used>
  bool borrowing_with_t(NodeId n, FlavorResourceView fr, int64_t v, const Used& used) const;
  int height(NodeId cohort) const;
  void accumulate(NodeId n);

  std::vector<Node> nodes_;
  std::map<FlavorResourceKey, int, FlavorResourceLess> pair_ids_;  // every pair some node's subtree holds
  std::vector<int64_t> local_quota_by_id_;  // node × pair id
  std::vector<NodeId> post_order_;          // children before their parents
  std::vector<NodeId> root_of_;             // each node's root
  std::map<std::string, NodeId> cluster_queues_, cohorts_;
  std::vector<std::string> in_cycle_;
  bool has_cohorts_ = false;
};

}  // namespace chaintwin::model
