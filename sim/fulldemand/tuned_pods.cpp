#include "sim/fulldemand/tuned_pods.h"

#include <utility>

namespace chaintwin::sim {

TunedPods tune_pods(const std::vector<model::placement::SharePod>& pods, int64_t capacity_milli, int64_t tune_permille,
                    RandomStream& random) {
  TunedPods out;
  const auto n = static_cast<int32_t>(pods.size());
  out.order.resize(pods.size());
  for (int32_t i = 0; i < n; ++i) {
    out.order[static_cast<size_t>(i)] = i;
    out.demand_milli += pods[static_cast<size_t>(i)].gpu_milli();
  }
  // Fisher–Yates, from the back.
  for (size_t i = out.order.size(); i > 1; --i) std::swap(out.order[i - 1], out.order[random.uniform(i)]);
  out.target_milli = capacity_milli * tune_permille / 1000;
  // Tuning up cannot end without a GPU pod to draw.
  const bool any_gpu_pod = out.demand_milli > 0;
  if (out.demand_milli < out.target_milli && any_gpu_pod) {
    for (;;) {
      const auto pick = static_cast<int32_t>(random.uniform(static_cast<uint64_t>(n)));
      const model::placement::SharePod& p = pods[static_cast<size_t>(pick)];
      if (out.demand_milli + p.milli > out.target_milli) break;
      out.demand_milli += p.gpu_milli();
      out.order.push_back(pick);
      ++out.drawn;
    }
  } else {
    while (out.demand_milli > out.target_milli && !out.order.empty()) {
      const size_t at = random.uniform(out.order.size());
      out.demand_milli -= pods[static_cast<size_t>(out.order[at])].gpu_milli();
      out.order.erase(out.order.begin() + static_cast<std::ptrdiff_t>(at));
      ++out.removed;
    }
  }
  return out;
}

}  // namespace chaintwin::sim
