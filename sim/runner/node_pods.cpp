#include "sim/runner/node_pods.h"

namespace chaintwin::sim {

void NodePods::count(const model::Pod& pod, int sign) {
  model::NodeRequested& requested = *requested_.try_emplace(pod.node_name).first;
  requested.add(pod, sign);
  if (requested.pods == 0 && requested.milli.empty()) requested_.erase(pod.node_name);
}

void NodePods::bind(const std::string& key, const model::Pod& pod) {
  keys_[pod.node_name].insert(key);
  if (model::counts_as_requested(pod)) count(pod, +1);
}

void NodePods::set_phase(model::Pod& pod, model::PodPhase phase) {
  const bool before = model::counts_as_requested(pod);
  pod.phase = phase;
  const bool after = model::counts_as_requested(pod);
  if (before != after) count(pod, after ? +1 : -1);
}

void NodePods::unbind(const std::string& key, const model::Pod& pod) {
  erase_from(keys_, pod.node_name, key);
  if (model::counts_as_requested(pod)) count(pod, -1);
}

void NodePods::drop_node(const std::string& node) {
  keys_.erase(node);
  requested_.erase(node);
}

const model::NodeRequested& NodePods::requested(const std::string& node) const {
  static const model::NodeRequested kNone;
  const model::NodeRequested* found = requested_.find(node);
  return found == nullptr ? kNone : *found;
}

}  // namespace chaintwin::sim
