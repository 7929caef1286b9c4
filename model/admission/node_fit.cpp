// NodeResourcesFit against allocatable minus the requests already bound.
#include "model/admission/node_fit.h"

#include <map>
#include <string>

#include "model/admission/accelerator_claim.h"

namespace chaintwin::model {
namespace {

bool terminated(const Pod& p) { return p.phase == PodPhase::kSucceeded || p.phase == PodPhase::kFailed; }

}  // namespace

bool counts_as_requested(const Pod& pod) { return !terminated(pod); }

void NodeRequested::add(const Pod& pod, int sign) {
  pods += sign;
  each_effective_request(pod.spec, [&](const std::string& name, int64_t v) {
    if (v == 0) return;
    const auto [it, added] = milli.try_emplace(name, 0);
    it->second += sign * v;
    if (it->second == 0) milli.erase(it);
  });
}

NodeRequested node_requested(const std::vector<const Pod*>& pods_on_node, const std::string& except) {
  NodeRequested out;
  for (const Pod* other : pods_on_node) {
    if (!other || terminated(*other) || (!except.empty() && object_key(other->metadata) == except)) continue;
    out.add(*other, +1);
  }
  return out;
}

Status node_fits(const Node& node, const NodeRequested& requested, const Pod& pod) {
  std::string reasons;
  auto add = [&](const std::string& reason) { reasons += (reasons.empty() ? "" : ", ") + reason; };
  if (const auto it = node.status.allocatable.find("pods"); it != node.status.allocatable.end())
    if (requested.pods + 1 > it->second.value_ceil()) add("Too many pods");
  each_effective_request(pod.spec, [&](const std::string& name, int64_t want) {
    if (want <= 0) return;
    const auto it = node.status.allocatable.find(name);
    const int64_t have = it == node.status.allocatable.end() ? 0 : it->second.milli_value_ceil();
    const auto used = requested.milli.find(name);
    if (want > have - (used == requested.milli.end() ? 0 : used->second)) add("Insufficient " + name);
  });
  if (!reasons.empty()) return err(reasons);
  return Ok{};
}

Status node_fits(const Node& node, const std::vector<const Pod*>& pods_on_node, const Pod& pod) {
  return node_fits(node, node_requested(pods_on_node, object_key(pod.metadata)), pod);
}

}  // namespace chaintwin::model
