#include "viz/pending_reasons.h"

#include <algorithm>
#include <map>

#include "viz/text_match.h"

namespace chaintwin::viz {
bool is_waiting(const WorkloadRow& w) {
  return w.phase == WorkloadPhase::kPending || w.phase == WorkloadPhase::kEvicted;
}

std::string pending_reason_kind(const std::string& gate, const std::string& message) {
  // Kueue's flavor assignment (gate 2) and its TAS messages.
  if (contains(message, "insufficient unused quota") || contains(message, "insufficient quota")) return "insufficient unused quota";
  if (contains(message, "does not contain the requested level")) return "topology lacks the level";
  if (contains(message, "doesn't allow to fit") || contains(message, "does not fit")) return "topology doesn't fit";
  if (contains(message, "LocalQueue") && (contains(message, "doesn't exist") || contains(message, "does not exist") || contains(message, "not found")))
    return "no LocalQueue";
  if (contains(message, "is inactive") || contains(message, "is stopped") || contains(message, "StopPolicy") || contains(message, "Hold"))
    return "queue held";
  // The node-devices check (gate 3): every Retry verdict the operator writes ends so.
  if (contains(message, "will retry as capacity frees")) return "cards don't fit (node-devices check)";
  if (contains(message, "Retry") || contains(message, "admission check") || contains(message, "AdmissionCheck"))
    return "admission check retry";
  if (contains(message, "preempt")) return "waiting for preemption";
  if (message.empty()) return gate.empty() ? "not yet considered" : "held at " + gate;
  return gate.empty() ? "other" : "other (" + gate + ")";
}

std::string short_reason(const std::string& kind) {
  if (kind == "insufficient unused quota") return "quota";
  if (kind == "topology doesn't fit") return "topology";
  if (kind == "topology lacks the level") return "level";
  if (kind == "admission check retry") return "retry";
  if (kind == "cards don't fit (node-devices check)") return "cards";
  if (kind == "waiting for preemption") return "preemption";
  if (kind.rfind("other", 0) == 0) return "other";
  return kind;
}

std::vector<ReasonCount> pending_reasons(const std::vector<WorkloadRow>& workloads, const std::string& cluster_queue) {
  std::map<std::string, int> counts;
  for (const auto& w : workloads)
    if (is_waiting(w) && w.cluster_queue == cluster_queue)
      ++counts[pending_reason_kind(w.gate, w.reason)];
  std::vector<ReasonCount> out;
  for (const auto& [kind, n] : counts) out.push_back({kind, n});
  std::stable_sort(out.begin(), out.end(), [](const ReasonCount& a, const ReasonCount& b) { return a.count > b.count; });
  return out;
}

PoolReasons pool_reasons(const Snapshot& s) {
  PoolReasons out;
  out.stamp = SnapshotStamp::of(s);
  for (const auto& p : s.pools) out.by_queue[p.cluster_queue] = pending_reasons(s.workloads, p.cluster_queue);
  return out;
}

}  // namespace chaintwin::viz
