// Kueue's fair sharing between the ClusterQueues and Cohorts of one cohort tree (v0.14.8, the same
// through v0.16): the dominant resource share of a node (pkg/cache/scheduler/fair_sharing.go) and
// the tournament that picks the next head to admit (pkg/scheduler/fair_sharing_iterator.go).
//
//   borrowed[res] = Σ_{fr of res} max(0, Usage(n, fr) − SubtreeQuota(n, fr))
//   lendable[res] = Σ_{fr of the root} potentialAvailable(parent(n), fr)
//   DRS(n)        = max_res borrowed·1000 / lendable (0 at a root; ties: the smaller resource name)
//   weighted      = DRS / weight   (weight 0 and borrowing: after every other node)
//
// The tournament, at each pop: every head of the tree adds its assignment's usage in turn and
// records the DRS of its ClusterQueue and of each Cohort on the way up, each under its parent;
// then, from the root down, each Cohort's children (a child Cohort by its own winner) compete by
// that DRS, then by priority (PrioritySortingWithinCohort), then by the earlier queue-order time
// (the twin adds the Workload key as the last tie-break, where Kueue's is undefined). Pure.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "model/kueue/scheduler/queue_manager.h"
#include "model/kueue/scheduler/quota_tree.h"
#include "model/kueue/scheduler/usage_snapshot.h"

namespace chaintwin::model {

struct DominantResourceShare {
  double weight = 1;
  double unweighted_ratio = 0;  // borrowed × 1000 / lendable, of the dominant resource
  std::string dominant_resource;
  bool is_zero() const { return unweighted_ratio == 0; }
  bool zero_weight_borrows() const { return weight == 0 && !is_zero(); }
  // The ratio over the weight (0 when not borrowing); meaningless when zero_weight_borrows().
  double weighted_share() const { return is_zero() ? 0 : unweighted_ratio / weight; }
  bool operator==(const DominantResourceShare&) const = default;
};

// Kueue's roundedWeightedShare, what status.fairSharing.weightedShare shows: the weighted share
// rounded up, INT64_MAX for a zero-weight borrower.
int64_t rounded_weighted_share(const DominantResourceShare& drs);

// Kueue's CompareDRS: -1, 0 or 1. Zero-weight borrowers after all others (among themselves by the
// unweighted ratio); the rest by the weighted share.
int compare_drs(const DominantResourceShare& a, const DominantResourceShare& b);

// The DRS of node `n` against the quota reserved in `usage`.
DominantResourceShare dominant_resource_share(const QuotaTree& tree, QuotaTree::NodeId n, const UsageSnapshot& usage);
DominantResourceShare dominant_resource_share(const QuotaTree& tree, QuotaTree::NodeId n, const QuotaUsage& usage);

// One head competing in a tournament: its ClusterQueue's node, the quota its assignment takes, and
// its queue-order entry (priority, time, key).
struct FairSharingHead {
  QuotaTree::NodeId cluster_queue = QuotaTree::kNone;
  const FlavorResourceAmounts* assignment = nullptr;  // may be null: no usage (a head that does not fit)
  const QueueEntry* entry = nullptr;
};

// runTournament from `root` over `heads` (every one in root's tree, at most one per ClusterQueue):
// the index of the winner, against the quota reserved in `usage`. `prioritize_non_borrowing`
// (FairSharingPrioritizeNonBorrowing, v0.17): at each Cohort, a child whose subtree, with the head
// admitted, does not borrow on a (flavor, resource) the head requests goes before one that does,
// ahead of the share.
std::size_t fair_sharing_winner(const QuotaTree& tree, QuotaTree::NodeId root, const std::vector<FairSharingHead>& heads,
                                const UsageSnapshot& usage, bool prioritize_non_borrowing = false);

}  // namespace chaintwin::model
