#include "sim/runner/node_pods.h"

namespace chaintwin::sim {

void NodePods::bind(const std::string& key, const model::Pod& pod) {
  keys_[pod.node_name].insert(key);
  if (model::counts_as_requested(pod)) requested_[pod.node_name].add(pod, +1);
}

void NodePods::set_phase(model::Pod& pod, model::PodPhase phase) {
  const bool before = model::counts_as_requested(pod);
  pod.phase = phase;
  const bool after = model::counts_as_requested(pod);
  if (before != after) requested_[pod.node_name].add(pod, after ? +1 : -1);
}

void NodePods::unbind(const std::string& key, const model::Pod& pod) {
  erase_from(keys_, pod.node_name, key);
  if (!model::counts_as_requested(pod)) return;
  const auto it = requested_.find(pod.node_name);
  if (it == requested_.end()) return;
  it->second.add(pod, -1);
  if (it->second.pods == 0 && it->second.milli.empty()) requested_.erase(it);
}

void NodePods::drop_node(const std::string& node) {
  keys_.erase(node);
  requested_.erase(node);
}

const model::NodeRequested& NodePods::requested(const std::string& node) const {
  static const model::NodeRequested kNone;
  const auto it = requested_.find(node);
  return it == requested_.end() ? kNone : it->second;
}

}  // namespace chaintwin::sim
