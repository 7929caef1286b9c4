#include "viz/pending_reasons.h"

#include <algorithm>
#include <map>

namespace chaintwin::viz {
namespace {

bool has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

bool is_waiting(const WorkloadRow& w) {
  return w.phase == WorkloadPhase::kPending || w.phase == WorkloadPhase::kEvicted;
}

std::string pending_reason_kind(const std::string& gate, const std::string& message) {
  // Kueue's flavor assignment (gate 2) and its TAS messages.
  if (has(message, "insufficient unused quota") || has(message, "insufficient quota")) return "insufficient unused quota";
  if (has(message, "does not contain the requested level")) return "topology lacks the level";
  if (has(message, "doesn't allow to fit") || has(message, "does not fit")) return "topology doesn't fit";
  if (has(message, "LocalQueue") && (has(message, "doesn't exist") || has(message, "does not exist") || has(message, "not found")))
    return "no LocalQueue";
  if (has(message, "is inactive") || has(message, "is stopped") || has(message, "StopPolicy") || has(message, "Hold"))
    return "queue held";
  // The node-devices check (gate 3): every Retry verdict the operator writes ends so.
  if (has(message, "will retry as capacity frees")) return "cards don't fit (node-devices check)";
  if (has(message, "Retry") || has(message, "admission check") || has(message, "AdmissionCheck"))
    return "admission check retry";
  if (has(message, "preempt")) return "waiting for preemption";
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

}  // namespace chaintwin::viz
