// The pods a full-demand run submits, in order, by the openb paper's procedure
// (docs/research/openb-paper-procedure.md §1): the trace's pods (sorted by name) shuffled, then
// demand tuned to `tune` × the cluster's GPU capacity. Below the target, pods drawn uniformly with
// replacement from the name-sorted list are appended until the next draw's per-card milli-GPU would
// pass the target (that draw is dropped and the loop stops — the paper tests the per-card share, not
// cards × share, so a multi-card draw can end a little past it). Above the target, pods picked
// uniformly are removed until the demand is at most the target. The draws come from our own
// stream (sim/random_stream.h), not Go's math/rand, so a seed gives a draw of the same law as the
// paper's, not the same pods.
#pragma once

#include <cstdint>
#include <vector>

#include "model/placement/share_node.h"
#include "sim/random_stream.h"

namespace chaintwin::sim {

struct TunedPods {
  std::vector<int32_t> order;  // indexes into the trace's pods, in submission order
  int64_t target_milli = 0;    // tune × capacity
  int64_t demand_milli = 0;    // Σ cards × milli of `order`
  int64_t drawn = 0;           // pods appended by tuning up (0 when tuned down)
  int64_t removed = 0;         // pods removed by tuning down
};

// `tune_permille`: the target as thousandths of the capacity (1300 for the paper's 1.3).
TunedPods tune_pods(const std::vector<model::placement::SharePod>& pods, int64_t capacity_milli, int64_t tune_permille,
                    RandomStream& random);

}  // namespace chaintwin::sim
