#include "model/placement/node_scores.h"

#include <algorithm>
#include <cmath>

#include "model/placement/fragmentation.h"

namespace chaintwin::model::placement {
namespace {

constexpr int64_t kMaxSpecCpu = 128000;  // the paper's normalisers (open-gpu-share utils/const.go)
constexpr int64_t kMaxSpecGpu = 8000;

}  // namespace

NodeScore best_fit_score(const ShareNode& node, const SharePod& pod) {
  NodeScore out;
  const int64_t cpu_after = node.cpu_left - pod.cpu;
  const int64_t gpu_after = node.idle_milli() - pod.gpu_milli();
  // 100·(1 − cpu_after/(2·128000) − gpu_after/(2·8000)) over the common denominator 2·128000/100.
  const int64_t denominator = 2 * kMaxSpecCpu / 100;
  out.score = (2 * kMaxSpecCpu - cpu_after - gpu_after * (kMaxSpecCpu / kMaxSpecGpu)) / denominator;
  if (pod.sharing()) {
    int32_t best = -1;
    for (size_t i = 0; i < node.gpu_left.size(); ++i) {
      const int32_t left = node.gpu_left[i];
      if (left >= pod.milli && (best < 0 || left < node.gpu_left[static_cast<size_t>(best)]))
        best = static_cast<int32_t>(i);
    }
    out.cards = {best};
  } else if (pod.gpus > 0) {
    out.cards = first_cards_with(node, pod.milli, pod.gpus);
  }
  return out;
}

SigmoidScore::SigmoidScore(int64_t target_total) {
  // σ(x) ≥ k/100 ⇔ x ≥ ln(k / (100 − k)); Δ is an integer, so the threshold is the ceiling.
  for (int k = 1; k <= 99; ++k) {
    const double x = std::log(static_cast<double>(k) / static_cast<double>(100 - k));
    thresholds_.push_back(static_cast<int64_t>(std::ceil(1000.0 * static_cast<double>(target_total) * x)));
  }
}

int64_t SigmoidScore::operator()(int64_t delta) const {
  return std::upper_bound(thresholds_.begin(), thresholds_.end(), delta) - thresholds_.begin();
}

NodeScore fgd_score(const ShareNode& node, const SharePod& pod, const TargetWorkload& target,
                    const SigmoidScore& sigmoid) {
  NodeScore out;
  if (pod.sharing()) {
    const NodeFragmentParts parts(node, target);
    out.score = -1;
    for (size_t i = 0; i < node.gpu_left.size(); ++i) {
      if (node.gpu_left[i] < pod.milli) continue;
      const int64_t s = sigmoid(parts.total() - parts.after_taking(pod.cpu, static_cast<int32_t>(i), pod.milli));
      if (s > out.score) {
        out.score = s;
        out.cards = {static_cast<int32_t>(i)};
      }
    }
    return out;
  }
  if (pod.gpus > 0) out.cards = first_cards_with(node, pod.milli, pod.gpus);
  ShareNode after = node;
  bind_pod(after, pod, out.cards);
  out.score = sigmoid(node_fragment(node, target) - node_fragment(after, target));
  return out;
}

}  // namespace chaintwin::model::placement
