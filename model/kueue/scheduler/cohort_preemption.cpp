#include "model/kueue/scheduler/cohort_preemption.h"

#include <algorithm>
#include <optional>

namespace chaintwin::model {
namespace {

std::vector<FlavorResourceView> views(const std::set<FlavorResource>& frs) {
  std::vector<FlavorResourceView> out;
  for (const auto& fr : frs) out.emplace_back(fr.first, fr.second);
  return out;
}

// QuantitiesFitInQuota: whether Usage + v ≤ SubtreeQuota for every fr of `request`, and what is
// left of each once the node's never-lent quota is used.
std::pair<bool, FlavorResourceAmounts> fit_in_quota(const QuotaTree& tree, QuotaTree::NodeId n,
                                                    const FlavorResourceAmounts& request, const QuotaUsage& usage) {
  bool fits = true;
  FlavorResourceAmounts remaining;
  for (const auto& [fr, v] : request) {
    const FlavorResourceView view{fr.first, fr.second};
    if (tree.usage(n, view, usage) + v > tree.subtree_quota(n, view)) fits = false;
    remaining[fr] = std::max<int64_t>(0, v - tree.local_available(n, view, usage));
  }
  return {fits, std::move(remaining)};
}

struct Gathering {
  const QuotaTree& tree;
  const QuotaUsage& usage;
  const ClusterQueue& cq;
  QuotaTree::NodeId cq_node;
  const Workload& preemptor;
  const std::set<FlavorResource>& contested;
  std::vector<FlavorResourceView> contested_views;
  const WorkloadState& workloads;
  const ReservingByQueue* reserving;
  std::string self;  // the preemptor's key

  // classifyPreemptionVariant; nullopt for Never.
  std::optional<PreemptionVariant> classify(const std::string& candidate_queue, const Workload& wl, bool advantage) const {
    if (!uses_any_of(wl, contested)) return std::nullopt;
    const bool same = candidate_queue == cq.metadata.name;
    const std::string& policy = same ? cq.spec.preemption.within_cluster_queue : cq.spec.preemption.reclaim_within_cohort;
    if (!preemption_policy_allows(policy, preemptor, wl)) return std::nullopt;
    if (same) return PreemptionVariant::kWithinClusterQueue;
    if (advantage) return PreemptionVariant::kHierarchicalReclaim;
    const std::string& borrow = cq.spec.preemption.borrow_within_cohort_policy;
    if (borrow.empty() || borrow == "Never") return PreemptionVariant::kReclaimWithoutBorrowing;
    if (wl.priority >= preemptor.priority) return PreemptionVariant::kReclaimWithoutBorrowing;
    const auto& threshold = cq.spec.preemption.max_priority_threshold;
    if (threshold && wl.priority > *threshold) return PreemptionVariant::kReclaimWithoutBorrowing;
    return PreemptionVariant::kReclaimWhileBorrowing;
  }

  void from_queue(const std::string& name, QuotaTree::NodeId lca, bool advantage, std::vector<CohortCandidate>& out) const {
    for (const auto& [key, wl] : quota_holders(name, workloads, reserving)) {
      if (*key == self) continue;
      if (const auto v = classify(name, *wl, advantage)) out.push_back({wl, *key, name, lca, *v});
    }
  }

  void in_subtree(QuotaTree::NodeId current, QuotaTree::NodeId subtree_root, QuotaTree::NodeId skip, bool advantage,
                  std::vector<CohortCandidate>& out) const {
    for (const QuotaTree::NodeId child : tree.children(current)) {
      if (child == skip || child == cq_node) continue;
      if (tree.within_nominal(child, contested_views, usage)) continue;
      if (tree.is_cluster_queue(child)) from_queue(tree.name(child), subtree_root, advantage, out);
      else in_subtree(child, subtree_root, skip, advantage, out);
    }
  }
};

}  // namespace

std::vector<std::pair<const std::string*, const Workload*>> quota_holders(const std::string& cluster_queue,
                                                                     const WorkloadState& workloads,
                                                                     const ReservingByQueue* reserving) {
  std::vector<std::pair<const std::string*, const Workload*>> out;
  const auto holds = [&](const Workload& wl) {
    return wl.status.admission && wl.status.admission->cluster_queue == cluster_queue && !wl.finished();
  };
  if (reserving != nullptr) {
    const auto r = reserving->find(cluster_queue);
    if (r == reserving->end()) return out;
    for (const auto& key : r->second)
      if (const auto it = workloads.workloads.find(key); it != workloads.workloads.end() && holds(it->second))
        out.emplace_back(&it->first, &it->second);
    return out;
  }
  for (const auto* kv : workloads.workloads.in_key_order())
    if (holds(kv->second)) out.emplace_back(&kv->first, &kv->second);
  return out;
}

void order_cohort_candidates(std::vector<CohortCandidate>& list, const std::string& own_queue,
                             const LocalQueueUsageFn* afs) {
  std::vector<std::pair<PreemptionCandidate, std::size_t>> keyed;
  keyed.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i)
    keyed.emplace_back(preemption_candidate(*list[i].workload, list[i].cluster_queue == own_queue ? afs : nullptr), i);
  std::sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
    if (a.first.evicted != b.first.evicted) return a.first.evicted;
    const bool a_own = list[a.second].cluster_queue == own_queue, b_own = list[b.second].cluster_queue == own_queue;
    if (a_own != b_own) return b_own;
    return candidate_before(a.first, b.first);
  });
  std::vector<CohortCandidate> out;
  out.reserve(list.size());
  for (const auto& [c, i] : keyed) out.push_back(std::move(list[i]));
  list = std::move(out);
}

TransitionReason preemption_reason(PreemptionVariant v) {
  switch (v) {
    case PreemptionVariant::kWithinClusterQueue: return TransitionReason::kInClusterQueue;
    case PreemptionVariant::kHierarchicalReclaim:
    case PreemptionVariant::kReclaimWithoutBorrowing: return TransitionReason::kInCohortReclamation;
    case PreemptionVariant::kReclaimWhileBorrowing: return TransitionReason::kInCohortReclaimWhileBorrowing;
  }
  return TransitionReason::kInClusterQueue;
}

CohortCandidates cohort_preemption_candidates(const QuotaTree& tree, const UsageSnapshot& usage, const ClusterQueue& cq,
                                              const Workload& preemptor, const std::set<FlavorResource>& contested,
                                              const FlavorResourceAmounts& request, const WorkloadState& workloads,
                                              const ReservingByQueue* reserving, const QuotaUsage* bound,
                                              const LocalQueueUsageFn* afs) {
  CohortCandidates out;
  const QuotaTree::NodeId node = tree.cluster_queue(cq.metadata.name);
  if (node == QuotaTree::kNone || contested.empty()) return out;
  std::optional<QuotaUsage> own;
  if (bound == nullptr) bound = &own.emplace(tree.bind(usage, node));
  const Gathering g{tree, *bound, cq, node, preemptor, contested, views(contested), workloads, reserving,
                    object_key(preemptor.metadata)};
  std::vector<CohortCandidate> same, hierarchy, priority;
  if (preempts_within_cluster_queue(cq)) g.from_queue(cq.metadata.name, QuotaTree::kNone, false, same);
  const std::string& reclaim = cq.spec.preemption.reclaim_within_cohort;
  if (tree.has_parent(node) && !reclaim.empty() && reclaim != "Never") {
    auto [advantage, remaining] = fit_in_quota(tree, node, request, *bound);
    QuotaTree::NodeId previous = QuotaTree::kNone;
    for (QuotaTree::NodeId at = tree.parent(node); at != QuotaTree::kNone; at = tree.parent(at)) {
      g.in_subtree(at, at, previous, advantage, advantage ? hierarchy : priority);
      auto [fits, left] = fit_in_quota(tree, at, remaining, *bound);
      remaining = std::move(left);
      advantage = advantage || fits;
      previous = at;
    }
  }
  out.none_from_other_queues = hierarchy.empty() && priority.empty();
  out.none_for_hierarchical_reclaim = hierarchy.empty();
  for (auto* list : {&same, &hierarchy, &priority}) order_cohort_candidates(*list, cq.metadata.name, afs);
  // Evicted ones of each list first, then the rest: hierarchy, priority, same queue.
  for (const bool evicted : {true, false})
    for (auto* list : {&hierarchy, &priority, &same})
      for (const auto& c : *list)
        if (preemption_candidate(*c.workload).evicted == evicted) out.ordered.push_back(c);
  return out;
}

std::vector<PreemptionTarget> cohort_preemption_targets(const QuotaTree& tree, const UsageSnapshot& usage,
                                                        const ClusterQueue& cq, const CohortCandidates& candidates,
                                                        const std::set<FlavorResource>& contested,
                                                        const FlavorResourceAmounts& request,
                                                        const BeyondQuotaFits& beyond_quota, const QuotaUsage* bound) {
  const QuotaTree::NodeId node = tree.cluster_queue(cq.metadata.name);
  if (node == QuotaTree::kNone || candidates.ordered.empty()) return {};
  // The quota as the victims leave it; the whole snapshot only when TAS must fit too.
  QuotaUsage trial_quota = bound != nullptr ? *bound : tree.bind(usage, node);
  std::optional<UsageSnapshot> trial;
  if (beyond_quota) trial = usage;
  const auto take_out = [&](const Workload& wl, int sign) {
    trial_quota.add(workload_usage(wl), sign);
    if (trial) add_workload_usage(*trial, wl, sign);
  };
  const std::vector<FlavorResourceView> contested_views = views(contested);
  const std::string& borrow_policy = cq.spec.preemption.borrow_within_cohort_policy;
  const bool forbidden = borrow_policy.empty() || borrow_policy == "Never";
  bool under_nominal = true;  // queueUnderNominalInResourcesNeedingPreemption
  for (const auto& fr : contested_views)
    if (trial_quota.of(node, fr) >= tree.nominal(node, fr)) under_nominal = false;
  std::vector<bool> attempts;
  if (candidates.none_from_other_queues || (forbidden && !under_nominal)) attempts = {true};
  else if (forbidden && candidates.none_for_hierarchical_reclaim) attempts = {false, true};
  else attempts = {true, false};

  const auto fits = [&](bool borrow) {
    for (const auto& [fr, v] : request) {
      const FlavorResourceView view{fr.first, fr.second};
      if (!borrow && tree.borrowing_with(node, view, v, trial_quota)) return false;
      if (v > tree.available(node, view, trial_quota)) return false;
    }
    return !beyond_quota || beyond_quota(*trial);
  };
  const auto valid = [&](const CohortCandidate& c, bool borrow) {
    if (c.cluster_queue == cq.metadata.name) return true;
    if (borrow && c.variant == PreemptionVariant::kReclaimWithoutBorrowing) return false;
    const QuotaTree::NodeId at = tree.cluster_queue(c.cluster_queue);
    if (at == QuotaTree::kNone || tree.within_nominal(at, contested_views, trial_quota)) return false;
    for (QuotaTree::NodeId up = tree.parent(at); up != QuotaTree::kNone && up != c.lca; up = tree.parent(up))
      if (tree.within_nominal(up, contested_views, trial_quota)) return false;
    return true;
  };
  for (const bool borrow : attempts) {
    std::vector<const CohortCandidate*> targets;
    for (const auto& c : candidates.ordered) {
      if (!valid(c, borrow)) continue;
      take_out(*c.workload, -1);
      targets.push_back(&c);
      if (!fits(borrow)) continue;
      // fillBackWorkloads: from the second-to-last back to the first, keep out only those needed.
      for (std::size_t n = targets.size(); n >= 2; --n) {
        const std::size_t i = n - 2;
        take_out(*targets[i]->workload, 1);
        if (fits(borrow)) {
          targets[i] = targets.back();
          targets.pop_back();
        } else {
          take_out(*targets[i]->workload, -1);
        }
      }
      std::vector<PreemptionTarget> out;
      for (const auto* t : targets) out.push_back({t->key, preemption_reason(t->variant)});
      return out;
    }
    for (const auto* t : targets) take_out(*t->workload, 1);  // restoreSnapshot
  }
  return {};
}

}  // namespace chaintwin::model
