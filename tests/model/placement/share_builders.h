// Builders for the placement tests (model/placement/share_node.h): a Node with free CPU and cards
// and plenty of memory, a pod with 1 GiB of memory.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "model/placement/share_node.h"

namespace chaintwin::test {

inline model::placement::ShareNode node(int64_t cpu, std::vector<int32_t> cards, int32_t model = 0) {
  model::placement::ShareNode n;
  n.cpu_left = cpu;
  n.memory_left = 1 << 20;
  n.model = model;
  n.gpu_left = std::move(cards);
  return n;
}

inline model::placement::SharePod pod(int64_t cpu, int32_t gpus, int32_t milli, uint64_t models = 0) {
  model::placement::SharePod p;
  p.cpu = cpu;
  p.memory = 1024;
  p.gpus = gpus;
  p.milli = milli;
  p.models = models;
  return p;
}

}  // namespace chaintwin::test
