#include "model/placement/share_node.h"

namespace chaintwin::model::placement {

int64_t ShareNode::idle_milli() const {
  int64_t sum = 0;
  for (const int32_t left : gpu_left) sum += left;
  return sum;
}

int32_t ShareNode::cards_with(int32_t milli) const {
  int32_t n = 0;
  for (const int32_t left : gpu_left) n += left >= milli ? 1 : 0;
  return n;
}

bool fits(const ShareNode& node, const SharePod& pod) {
  if (node.cpu_left < pod.cpu || node.memory_left < pod.memory) return false;
  if (pod.gpus == 0) return true;
  if (node.gpu_left.empty() || !pod.may_use(node.model)) return false;
  return node.cards_with(pod.milli) >= pod.gpus;
}

void bind_pod(ShareNode& node, const SharePod& pod, const std::vector<int32_t>& cards) {
  node.cpu_left -= pod.cpu;
  node.memory_left -= pod.memory;
  for (const int32_t card : cards) node.gpu_left[static_cast<size_t>(card)] -= pod.milli;
}

std::vector<int32_t> first_cards_with(const ShareNode& node, int32_t milli, int32_t count) {
  std::vector<int32_t> out;
  for (size_t i = 0; i < node.gpu_left.size() && static_cast<int32_t>(out.size()) < count; ++i)
    if (node.gpu_left[i] >= milli) out.push_back(static_cast<int32_t>(i));
  return out;
}

}  // namespace chaintwin::model::placement
