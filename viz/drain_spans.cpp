#include "viz/drain_spans.h"

#include <algorithm>
#include <map>
#include <optional>

#include "viz/text_match.h"

namespace chaintwin::viz {

std::string drain_cause(const std::string& write_reason, const std::string& action_at_same_time) {
  if (contains(write_reason, "spec.inactive=true")) return "admin Hold";
  if (contains(write_reason, "being deleted") || contains(write_reason, "is terminating")) return "queue deleted";
  if (contains(write_reason, "empty-plan-hold") || contains(write_reason, "empty plan")) return "empty plan (new pool)";
  if (contains(write_reason, "restore the saved stop policy")) return "saved policy restored";
  if (contains(write_reason, "drops flavors") || contains(write_reason, "no live flavor")) {
    if (contains(action_at_same_time, "setting") || contains(action_at_same_time, "profile") ||
        contains(action_at_same_time, "mig"))
      return "profile migration";
    return "flavor lost (migration)";
  }
  return "";
}

std::vector<DrainSpan> drain_spans(const std::vector<PoolSeries>& series, const std::vector<EventRow>& events,
                                   const std::vector<PoolRow>& now_pools, int64_t now_us) {
  // Per queue, the writes to it (time, reason) and the admin actions by time.
  std::map<std::string, std::vector<const EventRow*>> writes;
  std::vector<const EventRow*> actions;
  for (const auto& e : events) {
    if (e.kind == "write" && e.object.rfind("ClusterQueue ", 0) == 0 && !contains(e.message, "update-status"))
      writes[e.object.substr(13)].push_back(&e);
    if (e.kind == "action") actions.push_back(&e);
  }
  std::vector<DrainSpan> out;
  std::map<std::string, bool> seen;  // one series per queue is enough: the policy is per queue
  for (const auto& s : series) {
    if (seen[s.cluster_queue]) continue;
    seen[s.cluster_queue] = true;
    // The samples, and the queue's policy now when the samples have not caught up with it yet.
    std::vector<SeriesPoint> points = s.points;
    for (const auto& row : now_pools)
      if (row.cluster_queue == s.cluster_queue &&
          (points.empty() || (points.back().stop_policy != row.stop_policy && points.back().at_us <= now_us))) {
        SeriesPoint now;
        now.at_us = now_us;
        now.stop_policy = row.stop_policy;
        points.push_back(now);
      }
    std::optional<DrainSpan> open;
    int64_t previous_at = -1;
    // Opens a span at sample `p`, with the write that caused it.
    auto open_at = [&](const SeriesPoint& p) {
      open = DrainSpan{s.cluster_queue, p.at_us, std::nullopt, p.stop_policy, "", ""};
      // The cause is the newest write up to the sample that says why a queue is held; failing
      // that, the newest write (several writes can share one instant: a hold and a switch).
      const EventRow* cause = nullptr;
      const EventRow* newest = nullptr;
      for (const EventRow* w : writes[s.cluster_queue]) {
        if (w->at_us > p.at_us) break;
        newest = w;
        if (!drain_cause(w->message, "").empty()) cause = w;
      }
      if (cause == nullptr || cause->at_us <= previous_at) cause = newest;  // an older span's write
      if (cause == nullptr) return;
      // The samples follow Kueue's status reports; the span began with the write itself.
      if (cause->at_us > previous_at) open->from_us = cause->at_us;
      std::string action;
      for (const EventRow* a : actions)
        if (a->at_us == cause->at_us) action = a->object + " " + a->message;
      open->cause = drain_cause(cause->message, action);
      open->detail = cause->message + (action.empty() ? "" : " (after: " + action + ")");
    };
    for (const auto& p : points) {
      if (open && p.stop_policy != open->stop_policy) {
        // The policy changed (released, or Hold became HoldAndDrain): close this span.
        DrainSpan closed = *open;
        open.reset();
        const bool next_opens = p.stop_policy != StopPolicy::kNone;
        if (next_opens) open_at(p);
        closed.to_us = next_opens ? open->from_us : p.at_us;
        // Released: like a start, the end is the operator's write, which the sample follows.
        if (!next_opens)
          for (const EventRow* w : writes[s.cluster_queue])
            if (w->at_us > closed.from_us && w->at_us <= p.at_us && w->at_us > previous_at) closed.to_us = w->at_us;
        out.push_back(std::move(closed));
      } else if (!open && p.stop_policy != StopPolicy::kNone) {
        open_at(p);
      }
      previous_at = p.at_us;
    }
    if (open) out.push_back(*open);
  }
  std::stable_sort(out.begin(), out.end(), [](const DrainSpan& a, const DrainSpan& b) { return a.from_us < b.from_us; });
  return out;
}

}  // namespace chaintwin::viz
