// One placement at a time over a ShareNode cluster, as the openb paper's simulator places its
// pods (docs/research/openb-paper-procedure.md §2, §4): every Node is filtered (fits) and scored by
// the policy (node_scores.h); the highest score wins and ties go to the Node with the lowest tie
// rank — the paper's seeded random order of its Nodes. A pod that fits nowhere is not placed and
// leaves nothing behind. The scheduler keeps the cluster's idle milli-GPU and fragment current, so
// the full-demand runner (sim/fulldemand) can read them after every pod.
//
// FGD scores are kept per Node and pod shape until that Node changes: a placement changes one Node,
// so the next pod re-scores only the Nodes it has not seen in their present state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "model/placement/node_scores.h"
#include "model/placement/share_node.h"
#include "model/placement/typical_pods.h"

namespace chaintwin::model::placement {

class ShareScheduler {
 public:
  // `tie_rank[i]` orders Node i among equal scores (lower wins); a permutation of 0..n-1.
  ShareScheduler(std::vector<ShareNode> nodes, TargetWorkload target, std::vector<int32_t> tie_rank,
                 PlacementPolicy policy);

  // Chooses a Node and cards for the pod and binds it there; nullopt when no Node fits.
  std::optional<SharePlacement> place(const SharePod& pod);

  const std::vector<ShareNode>& nodes() const { return nodes_; }
  const TargetWorkload& target() const { return target_; }
  int64_t capacity_milli() const { return capacity_; }
  int64_t idle_milli() const { return idle_; }
  // The cluster's fragment times target().total (fragmentation.h).
  int64_t fragment() const { return fragment_; }

 private:
  struct Cached {
    uint32_t version = 0;  // the Node's version it was computed at; 0: never
    int64_t score = 0;
    int32_t card = -1;     // a share's chosen card
  };
  NodeScore score(size_t node, const SharePod& pod, int32_t shape);
  int32_t shape_id(const SharePod& pod);

  std::vector<ShareNode> nodes_;
  TargetWorkload target_;
  std::vector<int32_t> tie_rank_;
  PlacementPolicy policy_;
  SigmoidScore sigmoid_;
  std::vector<uint32_t> version_;            // per Node, moved by every bind
  std::vector<int64_t> node_fragment_;       // per Node, times target_.total
  std::vector<std::vector<Cached>> cached_;  // per Node, by shape id (FGD only)
  std::map<std::tuple<int64_t, int32_t, int32_t, uint64_t>, int32_t> shapes_;
  int64_t capacity_ = 0, idle_ = 0, fragment_ = 0;
};

}  // namespace chaintwin::model::placement
