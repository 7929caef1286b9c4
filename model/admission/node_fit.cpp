// NodeResourcesFit against allocatable minus the requests already bound.
#include "model/admission/node_fit.h"

#include <map>
#include <string>

#include "model/admission/accelerator_claim.h"

namespace chaintwin::model {
namespace {

bool terminated(const Pod& p) { return p.phase == PodPhase::kSucceeded || p.phase == PodPhase::kFailed; }

}  // namespace

Status node_fits(const Node& node, const std::vector<const Pod*>& pods_on_node, const Pod& pod) {
  const std::string self = object_key(pod.metadata);
  std::map<std::string, int64_t> used;  // milli
  int64_t pod_count = 0;
  for (const Pod* other : pods_on_node) {
    if (!other || terminated(*other) || object_key(other->metadata) == self) continue;
    ++pod_count;
    for (const auto& [name, q] : pod_effective_requests(other->spec)) used[name] += q.milli_value_ceil();
  }
  std::string reasons;
  auto add = [&](const std::string& reason) { reasons += (reasons.empty() ? "" : ", ") + reason; };
  if (const auto it = node.status.allocatable.find("pods"); it != node.status.allocatable.end())
    if (pod_count + 1 > it->second.value_ceil()) add("Too many pods");
  for (const auto& [name, q] : pod_effective_requests(pod.spec)) {
    const int64_t want = q.milli_value_ceil();
    if (want <= 0) continue;
    const auto it = node.status.allocatable.find(name);
    const int64_t have = it == node.status.allocatable.end() ? 0 : it->second.milli_value_ceil();
    if (want > have - used[name]) add("Insufficient " + name);
  }
  if (!reasons.empty()) return err(reasons);
  return Ok{};
}

}  // namespace chaintwin::model
