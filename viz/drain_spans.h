// Every hold, drain and migration of every queue as a span of time with its cause, read from the
// pool series (when the stop policy left None and came back) and the event log (the write that
// set it, and the admin action at the same instant).
#pragma once

#include <string>
#include <vector>

#include "viz/snapshot.h"

namespace chaintwin::viz {

// What caused a hold, from the reason of the operator's write that set it: "admin Hold"
// (spec.inactive), "queue deleted", "empty plan (new pool)", "flavor lost (migration)",
// "profile migration" (the same write right after a settings change), or "" when unknown.
std::string drain_cause(const std::string& write_reason, const std::string& action_at_same_time);

// One span per stretch a queue held one stop policy other than None (Hold turning into HoldAndDrain
// starts a new span, with its own cause), in start order; a span still held at the end stays open. The samples follow Kueue's status reports, which lag the operator's write: a
// span starts at the write that caused it when that write came after the previous sample, and
// `now_pools` (the queues' policies at `now_us`) opens or closes a span the samples have not
// caught up with yet.
std::vector<DrainSpan> drain_spans(const std::vector<PoolSeries>& series, const std::vector<EventRow>& events,
                                   const std::vector<PoolRow>& now_pools, int64_t now_us);

}  // namespace chaintwin::viz
