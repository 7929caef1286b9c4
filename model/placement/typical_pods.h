// The "target workload" of the openb paper's fragmentation measure (its pkg/utils/frag.go,
// GetTypicalPods; docs/research/openb-paper-procedure.md §3): the trace's pods grouped into classes
// by (CPU, per-card milli-GPU, cards, gpu_spec) — memory is not part of the key — and the most
// common classes kept until they cover a given share of the pods. Computed once from the trace as
// read (before any resampling) and fixed for the run. Frequencies stay integer counts: a class's
// weight is count / total.
#pragma once

#include <cstdint>
#include <vector>

#include "model/placement/share_node.h"

namespace chaintwin::model::placement {

struct PodClass {
  SharePod shape;  // memory 0: not part of the class
  int64_t count = 0;
};

struct TargetWorkload {
  std::vector<PodClass> classes;  // most common first
  int64_t total = 0;              // Σ count over `classes`: the denominator of every weight
  int64_t trace_classes = 0;      // distinct classes in the pods, kept or not
};

// Classes sorted by count, most first; ties by the larger CPU, then milli-GPU, then cards, then
// gpu_spec text (the paper's order). Classes are kept one at a time until they hold at least
// `coverage_percent` of all pods (the paper: 95).
TargetWorkload typical_pods(const std::vector<SharePod>& pods, int32_t coverage_percent);

}  // namespace chaintwin::model::placement
