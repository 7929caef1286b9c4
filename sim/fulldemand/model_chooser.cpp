#include "sim/fulldemand/model_chooser.h"

#include <algorithm>
#include <climits>

namespace chaintwin::sim {

using model::placement::ShareNode;

std::optional<ModelChooser> model_chooser_named(const std::string& name) {
  if (name == "default-model") return ModelChooser::kDefaultModel;
  if (name == "most-free") return ModelChooser::kMostFree;
  if (name == "best-fit") return ModelChooser::kBestFit;
  if (name == "proportional") return ModelChooser::kProportional;
  return std::nullopt;
}

// How many pods of `pod`'s shape a Node in the state `node` could still take.
int64_t room_for(const ShareNode& node, const model::placement::SharePod& pod) {
  if (node.gpu_left.empty()) return 0;
  int64_t by_cpu = pod.cpu > 0 ? node.cpu_left / pod.cpu : INT64_MAX;
  if (by_cpu <= 0) return 0;
  int64_t by_cards = 0;
  if (pod.sharing()) {
    for (const int32_t left : node.gpu_left) by_cards += left / pod.milli;
  } else {
    by_cards = node.cards_with(pod.milli) / pod.gpus;
  }
  return std::min(by_cpu, by_cards);
}

// The chooser's pick among the pools of the models `pod` allows: a pool's index, or -1 when none.
int32_t choose_pool(const std::vector<ShareNode>& state, const model::placement::SharePod& pod,
                    const std::vector<ChooserPool>& pools, ModelChooser chooser, RandomStream& random) {
  std::vector<int32_t> allowed;
  for (size_t p = 0; p < pools.size(); ++p)
    if (pod.may_use(pools[p].model)) allowed.push_back(static_cast<int32_t>(p));
  if (allowed.empty()) return -1;
  if (chooser == ModelChooser::kProportional) {
    int64_t total = 0;
    for (const int32_t p : allowed) total += pools[static_cast<size_t>(p)].cards;
    auto draw = static_cast<int64_t>(random.uniform(static_cast<uint64_t>(total)));
    for (const int32_t p : allowed) {
      draw -= pools[static_cast<size_t>(p)].cards;
      if (draw < 0) return p;
    }
    return allowed.back();
  }
  int32_t most = -1, tightest = -1;
  int64_t most_room = -1, tightest_room = 0;
  for (const int32_t p : allowed) {
    int64_t room = 0;
    for (const size_t n : pools[static_cast<size_t>(p)].nodes) room += room_for(state[n], pod);
    if (room > most_room) {
      most = p;
      most_room = room;
    }
    if (room > 0 && (tightest < 0 || room < tightest_room)) {
      tightest = p;
      tightest_room = room;
    }
  }
  return chooser == ModelChooser::kBestFit && tightest >= 0 ? tightest : most;
}

}  // namespace chaintwin::sim
