// The two node-scoring policies of the openb paper that chaintwin reproduces (its plugins
// best_fit_score.go and fgd_score.go; docs/research/openb-paper-procedure.md §4), as integers:
//
// - best-fit: 100 × (1 − ½·cpu left after / 128,000 − ½·GPU left after / 8,000), truncated (the
//   paper's MaxSpecCpu and MaxSpecGpu); the fullest Node wins. A share goes to the card with the
//   least free milli-GPU that holds it, whole cards to the lowest-index free ones.
// - FGD: the fragment the placement removes, squashed by a sigmoid and truncated to 0..99
//   (⌊100·σ((F before − F after)/1000)⌋, F in milli-GPU); a share tries every card that holds it and
//   keeps the first with the highest score, whole cards go to the lowest-index free ones.
//
// The paper computes both in floating point; here they are exact (the sigmoid as a table of
// integer thresholds), docs/fidelity.md says where that can differ. Called by share_scheduler.h.
#pragma once

#include <cstdint>
#include <vector>

#include "model/placement/share_node.h"
#include "model/placement/typical_pods.h"

namespace chaintwin::model::placement {

enum class PlacementPolicy { kBestFit, kFgd };

struct NodeScore {
  int64_t score = 0;
  std::vector<int32_t> cards;  // the cards the pod would take on this Node
};

// Scores a Node that fits the pod (fits(node, pod)).
NodeScore best_fit_score(const ShareNode& node, const SharePod& pod);

// ⌊100·σ(Δ / (1000 · total))⌋ for a fragment change Δ counted as in fragmentation.h (milli-GPU
// times the target workload's total): the thresholds of each score 1..99, computed once.
class SigmoidScore {
 public:
  explicit SigmoidScore(int64_t target_total);
  int64_t operator()(int64_t delta) const;

 private:
  std::vector<int64_t> thresholds_;  // score k needs delta ≥ thresholds_[k - 1]
};

NodeScore fgd_score(const ShareNode& node, const SharePod& pod, const TargetWorkload& target,
                    const SigmoidScore& sigmoid);

}  // namespace chaintwin::model::placement
