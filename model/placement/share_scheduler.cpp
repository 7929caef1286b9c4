#include "model/placement/share_scheduler.h"

#include <utility>

#include "model/placement/fragmentation.h"

namespace chaintwin::model::placement {

ShareScheduler::ShareScheduler(std::vector<ShareNode> nodes, TargetWorkload target, std::vector<int32_t> tie_rank,
                               PlacementPolicy policy)
    : nodes_(std::move(nodes)),
      target_(std::move(target)),
      tie_rank_(std::move(tie_rank)),
      policy_(policy),
      sigmoid_(target_.total),
      version_(nodes_.size(), 1),
      cached_(nodes_.size()) {
  node_fragment_.reserve(nodes_.size());
  for (const ShareNode& n : nodes_) {
    capacity_ += n.capacity_milli();
    idle_ += n.idle_milli();
    node_fragment_.push_back(node_fragment(n, target_));
    fragment_ += node_fragment_.back();
  }
}

int32_t ShareScheduler::shape_id(const SharePod& pod) {
  const auto [it, added] = shapes_.try_emplace({pod.cpu, pod.gpus, pod.milli, pod.models},
                                               static_cast<int32_t>(shapes_.size()));
  return it->second;
}

NodeScore ShareScheduler::score(size_t node, const SharePod& pod, int32_t shape) {
  const ShareNode& n = nodes_[node];
  if (policy_ == PlacementPolicy::kBestFit) return best_fit_score(n, pod);
  std::vector<Cached>& row = cached_[node];
  const auto id = static_cast<size_t>(shape);
  if (row.size() <= id) row.resize(id + 1);
  Cached& c = row[id];
  if (c.version != version_[node]) {
    NodeScore s = fgd_score(n, pod, target_, sigmoid_);
    c = {version_[node], s.score, pod.sharing() ? s.cards.front() : -1};
    return s;
  }
  NodeScore s{c.score, {}};
  if (pod.sharing()) s.cards = {c.card};
  else if (pod.gpus > 0) s.cards = first_cards_with(n, pod.milli, pod.gpus);
  return s;
}

std::optional<SharePlacement> ShareScheduler::place(const SharePod& pod) {
  const int32_t shape = policy_ == PlacementPolicy::kFgd ? shape_id(pod) : -1;
  std::optional<size_t> best;
  NodeScore best_score;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (!fits(nodes_[i], pod)) continue;
    NodeScore s = score(i, pod, shape);
    if (!best || s.score > best_score.score || (s.score == best_score.score && tie_rank_[i] < tie_rank_[*best])) {
      best = i;
      best_score = std::move(s);
    }
  }
  if (!best) return std::nullopt;
  ShareNode& n = nodes_[*best];
  bind_pod(n, pod, best_score.cards);
  ++version_[*best];
  idle_ -= pod.gpu_milli();
  fragment_ -= node_fragment_[*best];
  node_fragment_[*best] = node_fragment(n, target_);
  fragment_ += node_fragment_[*best];
  return SharePlacement{static_cast<int32_t>(*best), std::move(best_score.cards)};
}

}  // namespace chaintwin::model::placement
