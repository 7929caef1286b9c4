#include "viz/pending_work.h"

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

#include "viz/pending_reasons.h"
#include "viz/text_match.h"

namespace chaintwin::viz {

int64_t queued_since(const WorkloadRow& w) {
  int64_t since = w.created_us;
  for (const auto& step : w.history)
    if (step.kind == "Evicted" || step.kind == "Requeued") since = std::max(since, step.at_us);
  return since;
}

std::string last_eviction(const WorkloadRow& w) {
  for (auto it = w.history.rbegin(); it != w.history.rend(); ++it)
    if (it->kind == "Evicted") return it->message;
  return "";
}

std::vector<PendingItem> pending_items(const std::vector<WorkloadRow>& rows, int64_t now_us, const PendingQuery& query) {
  const Needle needle(query.text);
  std::vector<PendingItem> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    const WorkloadRow& w = rows[i];
    if (!is_waiting(w)) continue;
    if (!query.cluster_queue.empty() && w.cluster_queue != query.cluster_queue) continue;
    if (!needle.empty() && !needle.in(w.key) && !needle.in(w.cluster_queue) && !needle.in(w.reason)) continue;
    out.push_back({i, std::max<int64_t>(0, now_us - queued_since(w)), pending_reason_kind(w.gate, w.reason), last_eviction(w)});
  }
  // Unplaced Workloads (position 0: no queue, or a run file) after the placed ones.
  const auto position = [&](const PendingItem& it) {
    const int32_t p = rows[it.row].queue_position;
    return p > 0 ? p : INT32_MAX;
  };
  const auto tie = [&](const PendingItem& it) {
    const WorkloadRow& w = rows[it.row];
    return std::make_tuple(w.cluster_queue, position(it), w.key);
  };
  const auto less = [&](const PendingItem& a, const PendingItem& b) {
    const WorkloadRow &x = rows[a.row], &y = rows[b.row];
    switch (query.sort) {
      case PendingSort::kWorkload: return x.key < y.key;
      case PendingSort::kClusterQueue: return x.cluster_queue < y.cluster_queue;
      case PendingSort::kWait: return a.waiting_us < b.waiting_us;
      case PendingSort::kRequested: return x.requested < y.requested;
      case PendingSort::kPosition:  // within each queue; Workloads without a place last
        return std::make_tuple(position(a) == INT32_MAX, x.cluster_queue, position(a)) <
               std::make_tuple(position(b) == INT32_MAX, y.cluster_queue, position(b));
      case PendingSort::kEvictions: return x.evictions < y.evictions;
      case PendingSort::kReason: return a.kind < b.kind;
    }
    return false;
  };
  std::sort(out.begin(), out.end(), [&](const PendingItem& a, const PendingItem& b) {
    if (less(a, b)) return !query.descending;
    if (less(b, a)) return query.descending;
    return tie(a) < tie(b);
  });
  return out;
}

std::vector<PendingGroup> group_by_reason(const std::vector<PendingItem>& items) {
  std::map<std::string, std::vector<size_t>> by_kind;
  for (size_t i = 0; i < items.size(); ++i) by_kind[items[i].kind].push_back(i);
  std::vector<PendingGroup> out;
  for (auto& [kind, members] : by_kind) out.push_back({kind, std::move(members)});
  std::stable_sort(out.begin(), out.end(),
                   [](const PendingGroup& a, const PendingGroup& b) { return a.items.size() > b.items.size(); });
  return out;
}

}  // namespace chaintwin::viz
