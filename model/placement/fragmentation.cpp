#include "model/placement/fragmentation.h"

namespace chaintwin::model::placement {
namespace {

// The class's fragment given the Node's aggregates for it.
int64_t fragment_of(const SharePod& shape, int32_t model, int64_t cpu_left, int64_t idle, int32_t cards_fit,
                    int64_t small) {
  if (shape.gpus == 0 || !shape.may_use(model)) return idle;
  if (cpu_left >= shape.cpu && cards_fit >= shape.gpus) return small;
  return idle;
}

}  // namespace

int64_t class_fragment(const ShareNode& node, const SharePod& shape) {
  int32_t cards_fit = 0;
  int64_t small = 0, idle = 0;
  for (const int32_t left : node.gpu_left) {
    idle += left;
    if (left >= shape.milli) ++cards_fit;
    else small += left;
  }
  return fragment_of(shape, node.model, node.cpu_left, idle, cards_fit, small);
}

int64_t node_fragment(const ShareNode& node, const TargetWorkload& target) {
  int64_t sum = 0;
  for (const PodClass& c : target.classes) sum += c.count * class_fragment(node, c.shape);
  return sum;
}

NodeFragmentParts::NodeFragmentParts(const ShareNode& node, const TargetWorkload& target)
    : node_(node), target_(target), parts_(target.classes.size()), idle_(node.idle_milli()) {
  for (size_t m = 0; m < target.classes.size(); ++m) {
    const SharePod& shape = target.classes[m].shape;
    Part& p = parts_[m];
    for (const int32_t left : node.gpu_left) {
      if (left >= shape.milli) ++p.cards_fit;
      else p.small += left;
    }
    total_ += target.classes[m].count * fragment_of(shape, node.model, node.cpu_left, idle_, p.cards_fit, p.small);
  }
}

int64_t NodeFragmentParts::after_taking(int64_t cpu, int32_t card, int32_t milli) const {
  const int32_t before = node_.gpu_left[static_cast<size_t>(card)];
  const int32_t after = before - milli;
  const int64_t cpu_left = node_.cpu_left - cpu;
  const int64_t idle = idle_ - milli;
  int64_t sum = 0;
  for (size_t m = 0; m < parts_.size(); ++m) {
    const SharePod& shape = target_.classes[m].shape;
    int32_t cards_fit = parts_[m].cards_fit;
    int64_t small = parts_[m].small;
    if (before >= shape.milli) --cards_fit;
    else small -= before;
    if (after >= shape.milli) ++cards_fit;
    else small += after;
    sum += target_.classes[m].count * fragment_of(shape, node_.model, cpu_left, idle, cards_fit, small);
  }
  return sum;
}

}  // namespace chaintwin::model::placement
