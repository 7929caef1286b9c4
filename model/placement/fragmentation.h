// The openb paper's GPU fragmentation measure (its pkg/utils/frag.go, NodeGpuShareFragAmount;
// docs/research/openb-paper-procedure.md §3), on the cards' free milli-GPU. For one pod class, a
// Node's idle GPU is fragment unless the class fits on the Node; when it fits, only the cards with
// less free than the class asks per card are fragment. A CPU-only class and a class whose gpu_spec
// excludes the Node's model count all idle GPU as fragment. A Node's fragment is the expectation
// over the target workload's classes; the cluster's is the sum over Nodes.
//
// Kept exact: the values here are Σ count × milli-GPU, i.e. the paper's figure times the target
// workload's total count (divide by TargetWorkload::total for milli-GPU).
#pragma once

#include <cstdint>

#include "model/placement/share_node.h"
#include "model/placement/typical_pods.h"

namespace chaintwin::model::placement {

// One class's fragment on the Node, in milli-GPU.
int64_t class_fragment(const ShareNode& node, const SharePod& shape);

// Σ over the target's classes of count × class_fragment: the Node's fragment times target.total.
int64_t node_fragment(const ShareNode& node, const TargetWorkload& target);

// The parts of class_fragment that one card's change moves, kept per class so that the fragment
// after a hypothetical placement on one card costs O(classes) (the FGD score tries every card).
class NodeFragmentParts {
 public:
  NodeFragmentParts(const ShareNode& node, const TargetWorkload& target);
  int64_t total() const { return total_; }
  // The Node's fragment (times target.total) if `cpu` millicores and `milli` of card `card` were taken.
  int64_t after_taking(int64_t cpu, int32_t card, int32_t milli) const;

 private:
  struct Part {
    int32_t cards_fit = 0;  // cards with at least the class's milli free
    int64_t small = 0;      // Σ free milli of the cards with less than that
  };
  const ShareNode& node_;
  const TargetWorkload& target_;
  std::vector<Part> parts_;
  int64_t idle_ = 0;
  int64_t total_ = 0;
};

}  // namespace chaintwin::model::placement
