// Gate 4 — the scheduler's NodeResourcesFit on the node Kueue TAS already chose (the Pod arrives
// with its node pinned, so nothing is moved; a node without room leaves the Pod Pending). Called
// by the simulator's runner before a bound Pod starts. Every resource the Pod requests counts —
// cpu, memory, the device-plugin pool tokens (`<base>`, `.shared`, `.sliced`, `.partitioned`)
// and the counting keys (`.sliced.units`, `.partitioned.<kind>-<profile>`, …) — against the
// node's status.allocatable minus what the non-terminated Pods bound there request. A cordoned
// node (spec.unschedulable) still runs a Pod already bound to it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/api/node.h"
#include "model/result.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// What the non-terminated Pods bound to a Node request, summed: the scheduler's NodeInfo.Requested
// (milli-units per resource; a resource summed to 0 has no entry) and how many Pods there are.
struct NodeRequested {
  std::map<std::string, int64_t> milli;
  int64_t pods = 0;
  // A Pod bound to the Node started counting (+1) or stopped (-1: it terminated or went). A
  // terminated Pod is never counted, so the caller adds a Pod only while it is not terminated.
  void add(const Pod& pod, int sign);
  bool operator==(const NodeRequested&) const = default;
};
// The sum over `pods_on_node`, skipping terminated Pods and the one keyed `except` (namespace/name).
NodeRequested node_requested(const std::vector<const Pod*>& pods_on_node, const std::string& except = "");
// Whether a Pod counts in NodeRequested: not Succeeded or Failed.
bool counts_as_requested(const Pod& pod);

// The fit against kept totals: what node_fits below decides from the Pods themselves.
Status node_fits(const Node& node, const NodeRequested& requested, const Pod& pod);

// Ok when every requested resource fits; otherwise the scheduler's reasons, e.g.
// "Insufficient nvidia.com/gpu.sliced.units" (several joined by ", ", in resource-name order;
// "Too many pods" when the node's `pods` allocatable is used up). `pods_on_node` may include
// `pod` itself (matched by namespace/name) and terminated Pods; both are skipped.
Status node_fits(const Node& node, const std::vector<const Pod*>& pods_on_node, const Pod& pod);

}  // namespace chaintwin::model
