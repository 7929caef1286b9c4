#include "model/kueue/scheduler/fair_sharing.h"

#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace chaintwin::model {

int64_t rounded_weighted_share(const DominantResourceShare& drs) {
  if (drs.zero_weight_borrows()) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(std::ceil(drs.weighted_share()));
}

int compare_drs(const DominantResourceShare& a, const DominantResourceShare& b) {
  const auto cmp = [](double x, double y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (a.zero_weight_borrows() && b.zero_weight_borrows()) return cmp(a.unweighted_ratio, b.unweighted_ratio);
  if (a.zero_weight_borrows()) return 1;
  if (b.zero_weight_borrows()) return -1;
  return cmp(a.weighted_share(), b.weighted_share());
}

DominantResourceShare dominant_resource_share(const QuotaTree& tree, QuotaTree::NodeId n, const UsageSnapshot& usage) {
  return dominant_resource_share(tree, n, tree.bind(usage, n));
}

DominantResourceShare dominant_resource_share(const QuotaTree& tree, QuotaTree::NodeId n, const QuotaUsage& usage) {
  DominantResourceShare drs;
  drs.weight = tree.fair_weight(n);
  if (!tree.has_parent(n)) return drs;
  std::map<std::string_view, int64_t> borrowed;
  for (const FlavorResourceView& fr : tree.subtree_flavor_resources(n)) {
    const int64_t over = tree.usage(n, fr, usage) - tree.subtree_quota(n, fr);
    if (over > 0) borrowed[fr.second] += over;
  }
  if (borrowed.empty()) return drs;
  // calculateLendable: what the parent could lend at most, per resource, over the root's pairs.
  std::map<std::string_view, int64_t> lendable;
  const QuotaTree::NodeId parent = tree.parent(n);
  for (const FlavorResourceView& fr : tree.subtree_flavor_resources(tree.root(n)))
    lendable[fr.second] += tree.potential_available(parent, fr);
  for (const auto& [resource, b] : borrowed) {  // in name order: a tie keeps the smaller name
    const auto lr = lendable.find(resource);
    if (lr == lendable.end() || lr->second <= 0) continue;
    const double ratio = static_cast<double>(b) * 1000.0 / static_cast<double>(lr->second);
    if (ratio > drs.unweighted_ratio) {
      drs.unweighted_ratio = ratio;
      drs.dominant_resource = std::string(resource);
    }
  }
  return drs;
}

namespace {

// The DRS each head's subtree shows its parent Cohort, with the head's assignment added, and
// whether that subtree then borrows on a pair the head requests (DRS.IsBorrowingOn).
struct Shown {
  DominantResourceShare drs;
  bool borrowing_on = false;
};
using ShareAt = std::map<std::pair<QuotaTree::NodeId, std::size_t>, Shown>;  // (parent, head)

bool borrowing_on(const QuotaTree& tree, QuotaTree::NodeId n, const FlavorResourceAmounts* requested,
                  const QuotaUsage& usage) {
  if (requested == nullptr || !tree.has_parent(n)) return false;
  for (const auto& [fr, v] : *requested) {
    const FlavorResourceView view{fr.first, fr.second};
    if (v > 0 && tree.usage(n, view, usage) > tree.subtree_quota(n, view)) return true;
  }
  return false;
}

std::optional<std::size_t> tournament(const QuotaTree& tree, QuotaTree::NodeId cohort,
                                      const std::map<QuotaTree::NodeId, std::size_t>& head_of,
                                      const std::vector<FairSharingHead>& heads, const ShareAt& share,
                                      bool prioritize_non_borrowing) {
  std::vector<std::size_t> candidates;
  for (const QuotaTree::NodeId child : tree.children(cohort)) {  // child Cohorts first, as Kueue collects them
    if (tree.is_cluster_queue(child)) continue;
    if (const auto w = tournament(tree, child, head_of, heads, share, prioritize_non_borrowing)) candidates.push_back(*w);
  }
  for (const QuotaTree::NodeId child : tree.children(cohort)) {
    if (!tree.is_cluster_queue(child)) continue;
    if (const auto h = head_of.find(child); h != head_of.end()) candidates.push_back(h->second);
  }
  if (candidates.empty()) return std::nullopt;
  const auto less = [&](std::size_t a, std::size_t b) {
    const Shown& sa = share.at({cohort, a});
    const Shown& sb = share.at({cohort, b});
    if (prioritize_non_borrowing && sa.borrowing_on != sb.borrowing_on) return !sa.borrowing_on;
    if (const int c = compare_drs(sa.drs, sb.drs); c != 0) return c < 0;
    const QueueEntry& ea = *heads[a].entry;
    const QueueEntry& eb = *heads[b].entry;
    return ea < eb;  // priority, then queue-order time, then key
  };
  std::size_t best = candidates.front();
  for (std::size_t i = 1; i < candidates.size(); ++i)
    if (less(candidates[i], best)) best = candidates[i];
  return best;
}

}  // namespace

std::size_t fair_sharing_winner(const QuotaTree& tree, QuotaTree::NodeId root, const std::vector<FairSharingHead>& heads,
                                const UsageSnapshot& reserved, bool prioritize_non_borrowing) {
  // The simulated additions go to the bound usage, not to the snapshot the cycle keeps.
  QuotaUsage usage = tree.bind(reserved, root);
  ShareAt share;
  std::map<QuotaTree::NodeId, std::size_t> head_of;
  for (std::size_t i = 0; i < heads.size(); ++i) {
    const FairSharingHead& h = heads[i];
    head_of[h.cluster_queue] = i;
    const bool adds = h.assignment != nullptr && !h.assignment->empty();
    if (adds)
      for (const auto& [fr, v] : *h.assignment) usage.add(h.cluster_queue, FlavorResourceView{fr.first, fr.second}, v);
    const FlavorResourceAmounts* requested = adds ? h.assignment : nullptr;
    QuotaTree::NodeId below = h.cluster_queue;
    for (QuotaTree::NodeId up = tree.parent(h.cluster_queue); up != QuotaTree::kNone; up = tree.parent(up)) {
      share[{up, i}] = Shown{dominant_resource_share(tree, below, usage),
                             prioritize_non_borrowing && borrowing_on(tree, below, requested, usage)};
      below = up;
    }
    if (adds)
      for (const auto& [fr, v] : *h.assignment) usage.add(h.cluster_queue, FlavorResourceView{fr.first, fr.second}, -v);
  }
  return tournament(tree, root, head_of, heads, share, prioritize_non_borrowing).value_or(0);
}

}  // namespace chaintwin::model
