// The cluster as the openb paper's simulator sees it (hkust-adsl/kubernetes-scheduler-simulator,
// docs/research/openb-paper-procedure.md): a Node is free CPU, free memory, a GPU model and the free
// share of each card in milli-GPU (1000 = a whole free card); a pod asks for CPU, memory, and
// `gpus` cards of `milli` each (a share of one card when `milli` < 1000). This is the state the
// paper's placement policies (best_fit_policy.h, fgd_policy.h) and its fragmentation measure
// (fragmentation.h) read. Built by sim/fulldemand from the trace's CSVs; pure integers.
#pragma once

#include <cstdint>
#include <vector>

namespace chaintwin::model::placement {

inline constexpr int32_t kMilliPerGpu = 1000;

struct ShareNode {
  int64_t cpu_left = 0;           // millicores
  int64_t memory_left = 0;        // MiB
  int32_t model = 0;              // GPU model id (the caller's table; < 64)
  std::vector<int32_t> gpu_left;  // per card, in card order: free milli-GPU, 0..1000

  int64_t idle_milli() const;  // Σ gpu_left
  int64_t capacity_milli() const { return static_cast<int64_t>(gpu_left.size()) * kMilliPerGpu; }
  // Cards with at least `milli` free.
  int32_t cards_with(int32_t milli) const;
};

struct SharePod {
  int64_t cpu = 0;     // millicores
  int64_t memory = 0;  // MiB
  int32_t gpus = 0;    // cards (0: a CPU-only pod)
  int32_t milli = 0;   // per card; 1000 for whole cards
  // The GPU models the pod may use (its gpu_spec) as a bit set of model ids; 0: any model.
  uint64_t models = 0;
  // The gpu_spec text's rank among all spec texts in text order (0: none). Only the typical-pod
  // classes read it (their key and their tie order follow the text).
  int32_t spec = 0;

  int64_t gpu_milli() const { return static_cast<int64_t>(gpus) * milli; }
  bool sharing() const { return gpus == 1 && milli < kMilliPerGpu; }
  bool may_use(int32_t model) const { return models == 0 || (models >> model & 1u) != 0; }
};

// Where a pod goes: the Node's index and the cards it takes (`milli` each).
struct SharePlacement {
  int32_t node = -1;
  std::vector<int32_t> cards;
};

// The paper's filters (kube's NodeResourcesFit for CPU and memory, Open-Gpu-Share for the cards):
// enough free CPU and memory and, for a GPU pod, a model it may use and `gpus` cards with `milli`
// free each. A CPU-only pod fits any Node with the CPU and memory.
bool fits(const ShareNode& node, const SharePod& pod);

// Takes the pod's CPU, memory and `milli` of each listed card from the Node. (Not named `bind`: an
// unqualified call with a std::vector argument would find std::bind by ADL wherever <functional> is
// included first, as a unity build may do, and silently bind nothing.)
void bind_pod(ShareNode& node, const SharePod& pod, const std::vector<int32_t>& cards);

// The lowest-index cards with `milli` free, `count` of them (fewer when the Node has fewer).
std::vector<int32_t> first_cards_with(const ShareNode& node, int32_t milli, int32_t count);

}  // namespace chaintwin::model::placement
