#include "model/kueue/scheduler/fair_preemption.h"

#include <functional>
#include <map>
#include <optional>

#include "model/kueue/scheduler/fair_sharing.h"

namespace chaintwin::model {
namespace {

using NodeId = QuotaTree::NodeId;

void subtree_cluster_queues(const QuotaTree& tree, NodeId n, std::vector<NodeId>& out) {
  if (tree.is_cluster_queue(n)) {
    out.push_back(n);
    return;
  }
  for (const NodeId child : tree.children(n)) subtree_cluster_queues(tree, child, out);
}

// cqIsBorrowing: usage above nominal on a contested pair.
bool borrows_any(const QuotaTree& tree, NodeId n, const std::set<FlavorResource>& contested, const QuotaUsage& usage) {
  if (!tree.has_parent(n)) return false;
  for (const auto& fr : contested)
    if (tree.borrowing_with(n, FlavorResourceView{fr.first, fr.second}, 0, usage)) return true;
  return false;
}

// TargetClusterQueueOrdering: which ClusterQueue gives up a Workload next, from the candidates
// still held for each queue (in candidate order).
class TargetOrdering {
 public:
  TargetOrdering(const QuotaTree& tree, NodeId preemptor, const std::vector<const CohortCandidate*>& candidates)
      : tree_(tree), preemptor_(preemptor) {
    for (NodeId up = tree.parent(preemptor); up != QuotaTree::kNone; up = tree.parent(up)) ancestors_.insert(up);
    for (const CohortCandidate* c : candidates) held_[tree.cluster_queue(c->cluster_queue)].push_back(c);
  }

  // The next target queue against `usage`, kNone once the root is pruned.
  NodeId next(const QuotaUsage& usage) {
    const NodeId root = tree_.root(preemptor_);
    while (pruned_cohorts_.count(root) == 0)
      if (const NodeId t = next_target(root, usage); t != QuotaTree::kNone) return t;
    return QuotaTree::kNone;
  }
  bool has_workload(NodeId cq) const {
    const auto it = held_.find(cq);
    return it != held_.end() && it->second.size() > taken_.at_or_zero(cq);
  }
  const CohortCandidate* pop(NodeId cq) { return held_.at(cq)[taken_.next(cq)]; }
  void drop(NodeId cq) { pruned_queues_.insert(cq); }

  // getAlmostLCAs: the preemptor's and the target's nodes just below the Cohort they share.
  std::pair<NodeId, NodeId> almost_lcas(NodeId target) const {
    NodeId lca = QuotaTree::kNone;
    for (NodeId up = tree_.parent(target); up != QuotaTree::kNone; up = tree_.parent(up))
      if (ancestors_.count(up) != 0) {
        lca = up;
        break;
      }
    return {almost_lca(preemptor_, lca), almost_lca(target, lca)};
  }

 private:
  struct Taken {
    std::map<NodeId, std::size_t> count;
    std::size_t at_or_zero(NodeId n) const {
      const auto it = count.find(n);
      return it == count.end() ? 0 : it->second;
    }
    std::size_t next(NodeId n) { return count[n]++; }
  };

  NodeId almost_lca(NodeId n, NodeId lca) const {
    NodeId below = n;
    for (NodeId up = tree_.parent(n); up != QuotaTree::kNone; up = tree_.parent(up)) {
      if (up == lca) return below;
      below = up;
    }
    return below;  // unreachable: both queues are in the tree of the preemptor's root
  }

  // nextTarget: the largest share among the Cohort's queues and child Cohorts; kNone when
  // this step only pruned.
  NodeId next_target(NodeId cohort, const QuotaUsage& usage) {
    NodeId best_cq = QuotaTree::kNone;
    std::optional<DominantResourceShare> best_cq_drs;
    NodeId best_cohort = QuotaTree::kNone;
    std::optional<DominantResourceShare> best_cohort_drs;
    for (const NodeId child : tree_.children(cohort)) {
      if (!tree_.is_cluster_queue(child)) continue;
      if (pruned_queues_.count(child) != 0) continue;
      const DominantResourceShare drs = dominant_resource_share(tree_, child, usage);
      if ((drs.is_zero() && child != preemptor_) || !has_workload(child)) {
        pruned_queues_.insert(child);
      } else if (!best_cq_drs || compare_drs(drs, *best_cq_drs) > 0) {
        best_cq = child;
        best_cq_drs = drs;
      } else if (compare_drs(drs, *best_cq_drs) == 0 && comes_first(child, best_cq)) {
        best_cq = child;
      }
    }
    // Child Cohorts in name order; on equal shares the later one is kept (Kueue: the later in its
    // unordered walk).
    for (const NodeId child : tree_.children(cohort)) {
      if (tree_.is_cluster_queue(child) || pruned_cohorts_.count(child) != 0) continue;
      const DominantResourceShare drs = dominant_resource_share(tree_, child, usage);
      if (drs.is_zero() && ancestors_.count(child) == 0) {
        pruned_cohorts_.insert(child);
      } else if (!best_cohort_drs || compare_drs(drs, *best_cohort_drs) >= 0) {
        best_cohort = child;
        best_cohort_drs = drs;
      }
    }
    if (best_cohort == QuotaTree::kNone && best_cq == QuotaTree::kNone) {
      pruned_cohorts_.insert(cohort);
      return QuotaTree::kNone;
    }
    if (best_cohort != QuotaTree::kNone && (best_cq == QuotaTree::kNone || compare_drs(*best_cohort_drs, *best_cq_drs) >= 0))
      return next_target(best_cohort, usage);
    return best_cq;
  }

  // Equal shares: the queue whose next candidate comes first in CandidatesOrdering (all the
  // candidates point into one vector in that order, so the earlier address comes first).
  bool comes_first(NodeId a, NodeId b) const {
    return std::less<const CohortCandidate*>()(held_.at(a)[taken_.at_or_zero(a)], held_.at(b)[taken_.at_or_zero(b)]);
  }

  const QuotaTree& tree_;
  NodeId preemptor_;
  std::set<NodeId> ancestors_;
  std::map<NodeId, std::vector<const CohortCandidate*>> held_;
  Taken taken_;
  std::set<NodeId> pruned_queues_, pruned_cohorts_;
};

bool passes(FairSharingStrategy s, const DominantResourceShare& preemptor_new, const DominantResourceShare& target_old,
            const DominantResourceShare& target_new) {
  switch (s) {
    case FairSharingStrategy::kLessThanOrEqualToFinalShare: return compare_drs(preemptor_new, target_new) <= 0;
    case FairSharingStrategy::kLessThanInitialShare: return compare_drs(preemptor_new, target_old) < 0;
  }
  return false;
}

// The search's state: the quota (and, for TAS, the snapshot) as the victims so far leave it.
class Search {
 public:
  Search(const QuotaTree& tree, const UsageSnapshot& usage, const QuotaUsage& bound, NodeId node,
         const FlavorResourceAmounts& request, const BeyondQuotaFits& beyond_quota)
      : tree_(tree), node_(node), request_(request), beyond_(beyond_quota), quota_(bound) {
    if (beyond_) snapshot_ = usage;
  }

  const QuotaUsage& quota() const { return quota_; }
  void take_out(const Workload& wl, int sign) {
    quota_.add(workload_usage(wl), sign);
    if (snapshot_) add_workload_usage(*snapshot_, wl, sign);
  }
  // SimulateUsageAddition / Removal of the preemptor's request in its queue.
  void add_request(int sign) {
    for (const auto& [fr, v] : request_) quota_.add(node_, FlavorResourceView{fr.first, fr.second}, sign * v);
  }
  // workloadFits with borrowing allowed, on the quota without the preemptor's request.
  bool fits() const {
    for (const auto& [fr, v] : request_)
      if (v > tree_.available(node_, FlavorResourceView{fr.first, fr.second}, quota_)) return false;
    return !beyond_ || beyond_(*snapshot_);
  }
  // workloadFitsForFairSharing: the same while the request is added.
  bool fits_while_added() {
    add_request(-1);
    const bool ok = fits();
    add_request(1);
    return ok;
  }
  // The share of `n` with `wl` taken out of its queue (ComputeTargetShareAfterRemoval).
  DominantResourceShare share_without(NodeId n, const Workload& wl) {
    quota_.add(workload_usage(wl), -1);
    const DominantResourceShare drs = dominant_resource_share(tree_, n, quota_);
    quota_.add(workload_usage(wl), 1);
    return drs;
  }

 private:
  const QuotaTree& tree_;
  NodeId node_;
  const FlavorResourceAmounts& request_;
  const BeyondQuotaFits& beyond_;
  QuotaUsage quota_;
  std::optional<UsageSnapshot> snapshot_;
};

struct Chosen {
  const CohortCandidate* candidate;
  TransitionReason reason;
};

// runFirstFsStrategy: whether the preemptor fits; `chosen` and `retry` filled on the way.
// `within_nominal`: FairSharingPreemptWithinNominal holds for this preemptor.
bool run_first(const QuotaTree& tree, NodeId node, Search& search, const std::vector<const CohortCandidate*>& candidates,
               FairSharingStrategy strategy, bool within_nominal, std::vector<Chosen>& chosen,
               std::vector<const CohortCandidate*>& retry) {
  TargetOrdering ordering(tree, node, candidates);
  for (NodeId target = ordering.next(search.quota()); target != QuotaTree::kNone; target = ordering.next(search.quota())) {
    if (target == node) {
      const CohortCandidate* c = ordering.pop(target);
      search.take_out(*c->workload, -1);
      chosen.push_back({c, TransitionReason::kInClusterQueue});
      if (search.fits_while_added()) return true;
      continue;
    }
    if (within_nominal) {
      const CohortCandidate* c = ordering.pop(target);
      search.take_out(*c->workload, -1);
      chosen.push_back({c, TransitionReason::kInCohortReclamation});
      if (search.fits_while_added()) return true;
      continue;
    }
    const auto [preemptor_at, target_at] = ordering.almost_lcas(target);
    const DominantResourceShare preemptor_new = dominant_resource_share(tree, preemptor_at, search.quota());
    const DominantResourceShare target_old = dominant_resource_share(tree, target_at, search.quota());
    while (ordering.has_workload(target)) {
      const CohortCandidate* c = ordering.pop(target);
      const DominantResourceShare target_new = search.share_without(target_at, *c->workload);
      if (passes(strategy, preemptor_new, target_old, target_new)) {
        search.take_out(*c->workload, -1);
        chosen.push_back({c, TransitionReason::kInCohortFairSharing});
        if (search.fits_while_added()) return true;
        break;  // the shares moved: choose the target again
      }
      retry.push_back(c);
    }
  }
  return false;
}

// runSecondFsStrategy (S2-b): at most the first retry candidate of each queue.
bool run_second(const QuotaTree& tree, NodeId node, Search& search, const std::vector<const CohortCandidate*>& retry,
                std::vector<Chosen>& chosen) {
  TargetOrdering ordering(tree, node, retry);
  for (NodeId target = ordering.next(search.quota()); target != QuotaTree::kNone; target = ordering.next(search.quota())) {
    const auto [preemptor_at, target_at] = ordering.almost_lcas(target);
    const DominantResourceShare preemptor_new = dominant_resource_share(tree, preemptor_at, search.quota());
    const DominantResourceShare target_old = dominant_resource_share(tree, target_at, search.quota());
    if (passes(FairSharingStrategy::kLessThanInitialShare, preemptor_new, target_old, {})) {
      const CohortCandidate* c = ordering.pop(target);
      search.take_out(*c->workload, -1);
      chosen.push_back({c, TransitionReason::kInCohortFairSharing});
      if (search.fits_while_added()) return true;
    }
    ordering.drop(target);
  }
  return false;
}

}  // namespace

std::vector<CohortCandidate> fair_preemption_candidates(const QuotaTree& tree, const QuotaUsage& bound,
                                                        const ClusterQueue& cq, const Workload& preemptor,
                                                        const std::set<FlavorResource>& contested,
                                                        const WorkloadState& workloads,
                                                        const ReservingByQueue* reserving,
                                                        const LocalQueueUsageFn* afs) {
  std::vector<CohortCandidate> out;
  const NodeId node = tree.cluster_queue(cq.metadata.name);
  if (node == QuotaTree::kNone) return out;
  const std::string self = object_key(preemptor.metadata);
  const auto from_queue = [&](const std::string& name, const std::string& policy) {
    for (const auto& [key, wl] : quota_holders(name, workloads, reserving)) {
      if (*key == self || !preemption_policy_allows(policy, preemptor, *wl) || !uses_any_of(*wl, contested)) continue;
      out.push_back({wl, *key, name, QuotaTree::kNone, PreemptionVariant::kWithinClusterQueue});
    }
  };
  if (preempts_within_cluster_queue(cq)) from_queue(cq.metadata.name, cq.spec.preemption.within_cluster_queue);
  const std::string& reclaim = cq.spec.preemption.reclaim_within_cohort;
  if (tree.has_parent(node) && !reclaim.empty() && reclaim != "Never") {
    std::vector<NodeId> members;
    subtree_cluster_queues(tree, tree.root(node), members);
    for (const NodeId other : members)
      if (other != node && borrows_any(tree, other, contested, bound)) from_queue(tree.name(other), reclaim);
  }
  order_cohort_candidates(out, cq.metadata.name, afs);
  return out;
}

std::vector<PreemptionTarget> fair_preemption_targets(const QuotaTree& tree, const UsageSnapshot& usage,
                                                      const QuotaUsage& bound, const ClusterQueue& cq,
                                                      const std::vector<CohortCandidate>& candidates,
                                                      const std::set<FlavorResource>& contested,
                                                      const FlavorResourceAmounts& request,
                                                      const std::vector<FairSharingStrategy>& strategies,
                                                      const BeyondQuotaFits& beyond_quota, bool preempt_within_nominal) {
  const NodeId node = tree.cluster_queue(cq.metadata.name);
  if (node == QuotaTree::kNone || candidates.empty() || strategies.empty()) return {};
  std::vector<const CohortCandidate*> all;
  all.reserve(candidates.size());
  for (const auto& c : candidates) all.push_back(&c);
  Search search(tree, usage, bound, node, request, beyond_quota);
  search.add_request(1);  // every share counts the incoming Workload
  // queueWithinNominalInResourcesNeedingPreemption, the request added.
  bool within_nominal = preempt_within_nominal;
  for (const auto& fr : contested)
    if (within_nominal && tree.borrowing_with(node, FlavorResourceView{fr.first, fr.second}, 0, search.quota()))
      within_nominal = false;
  std::vector<Chosen> chosen;
  std::vector<const CohortCandidate*> retry;
  bool fits = run_first(tree, node, search, all, strategies.front(), within_nominal, chosen, retry);
  if (!fits && strategies.size() > 1) fits = run_second(tree, node, search, retry, chosen);
  search.add_request(-1);
  if (!fits) return {};
  // fillBackWorkloads, borrowing allowed: from the second-to-last back to the first.
  for (std::size_t n = chosen.size(); n >= 2; --n) {
    const std::size_t i = n - 2;
    search.take_out(*chosen[i].candidate->workload, 1);
    if (search.fits()) {
      chosen[i] = chosen.back();
      chosen.pop_back();
    } else {
      search.take_out(*chosen[i].candidate->workload, -1);
    }
  }
  std::vector<PreemptionTarget> out;
  out.reserve(chosen.size());
  for (const auto& c : chosen) out.push_back({c.candidate->key, c.reason});
  return out;
}

}  // namespace chaintwin::model
