#include "sim/runner/node_pods.h"

#include "sim/runner/bucket_index.h"

namespace chaintwin::sim {

void NodePods::count(const model::Pod& pod, int sign) {
  model::NodeRequested& requested = *requested_.try_emplace(pod.node_name).first;
  requested.add(pod, sign);
  if (requested.pods == 0 && requested.milli.empty()) requested_.erase(pod.node_name);
}

void NodePods::bind(Slot slot, const model::Pod& pod) {
  add_slot(slots_, pod.node_name, slot);
  if (model::counts_as_requested(pod)) count(pod, +1);
}

void NodePods::set_phase(model::Pod& pod, model::PodPhase phase) {
  const bool before = model::counts_as_requested(pod);
  pod.phase = phase;
  const bool after = model::counts_as_requested(pod);
  if (before != after) count(pod, after ? +1 : -1);
}

void NodePods::unbind(Slot slot, const model::Pod& pod) {
  remove_slot(slots_, pod.node_name, slot);
  if (model::counts_as_requested(pod)) count(pod, -1);
}

void NodePods::drop_node(const std::string& node) {
  slots_.erase(node);
  requested_.erase(node);
}

const model::NodeRequested& NodePods::requested(const std::string& node) const {
  static const model::NodeRequested kNone;
  const model::NodeRequested* found = requested_.find(node);
  return found == nullptr ? kNone : *found;
}

}  // namespace chaintwin::sim
