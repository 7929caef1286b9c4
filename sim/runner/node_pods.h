// The Pods bound to each Node, as the runner keeps them: their slots in WorkloadState::pods (Gate 3
// looks up the Pods holding cards there) and what the non-terminated ones request (Gate 4 reads it,
// as the scheduler's NodeInfo keeps Requested). Every Pod bound, unbound or changing phase goes through
// here, so the totals stay the sum model::node_requested would take over the Pods themselves;
// --verify compares the two at every Gate 4 decision.
#pragma once

#include <string>

#include "model/admission/gate3/node_devices_check.h"
#include "model/admission/node_fit.h"
#include "model/flat_string_index.h"
#include "model/workload/workload.h"
#include "sim/runner/bucket_index.h"

namespace chaintwin::sim {

class NodePods {
 public:
  using Slot = model::SlotTable<model::Pod>::Slot;

  // `pod` (in `slot`) is bound to pod.node_name.
  void bind(Slot slot, const model::Pod& pod);
  // `pod`, still bound, moves to `phase` (a Pod that terminates stops counting).
  void set_phase(model::Pod& pod, model::PodPhase phase);
  // `pod` (in `slot`, which it leaves next) is gone from its Node.
  void unbind(Slot slot, const model::Pod& pod);
  // The Node is gone, and every Pod bound there with it.
  void drop_node(const std::string& node);

  // Node → slots of the Pods bound there (a Node with none has no entry).
  const model::PodSlotsByNode& slots() const { return slots_; }
  // What the Pods bound to `node` request (empty when none).
  const model::NodeRequested& requested(const std::string& node) const;

 private:
  // `pod` starts (+1) or stops (-1) counting on its Node; a Node back at nothing has no entry.
  void count(const model::Pod& pod, int sign);

  model::PodSlotsByNode slots_;
  model::FlatStringMap<model::NodeRequested> requested_;  // by Node; looked up, never walked
};

}  // namespace chaintwin::sim
