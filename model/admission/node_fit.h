// Gate 4 — the scheduler's NodeResourcesFit on the node Kueue TAS already chose (the Pod arrives
// with its node pinned, so nothing is moved; a node without room leaves the Pod Pending). Called
// by the simulator's runner before a bound Pod starts. Every resource the Pod requests counts —
// cpu, memory, the device-plugin pool tokens (`<base>`, `.shared`, `.sliced`, `.partitioned`)
// and the counting keys (`.sliced.units`, `.partitioned.<kind>-<profile>`, …) — against the
// node's status.allocatable minus what the non-terminated Pods bound there request. A cordoned
// node (spec.unschedulable) still runs a Pod already bound to it.
#pragma once

#include <vector>

#include "model/api/node.h"
#include "model/result.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// Ok when every requested resource fits; otherwise the scheduler's reasons, e.g.
// "Insufficient nvidia.com/gpu.sliced.units" (several joined by ", ", in resource-name order;
// "Too many pods" when the node's `pods` allocatable is used up). `pods_on_node` may include
// `pod` itself (matched by namespace/name) and terminated Pods; both are skipped.
Status node_fits(const Node& node, const std::vector<const Pod*>& pods_on_node, const Pod& pod);

}  // namespace chaintwin::model
