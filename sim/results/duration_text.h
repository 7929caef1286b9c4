// Durations for people: the one formatter the run report, the run comparison, the plan report,
// the progress bar and the SLO messages print with ("6h15m03s", "0.94s", "3d04h00m00s").
// JSON keeps exact integers (µs) or seconds; the event log keeps its own exact clock form
// (event_log.h). Callers: report_format.cpp, report_diff.cpp, progress.cpp,
// sim/plan/plan_report.cpp, sim/scenario/slo_check.cpp.
//
// The form: the largest unit first, then every smaller unit down to seconds, two digits each —
// "42s", "5m03s", "6h15m03s", "119d01h25m26s" — and 0 as "0s". A column chooses one precision
// for all its cells (column_precision), so microseconds never stand beside whole seconds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chaintwin::sim {

enum class DurationPrecision {
  kSeconds,     // whole seconds: "6h15m03s"; a value above 0 but under 1 s reads "<1s"
  kHundredths,  // hundredths of a second: "0.94s", "12.50s"; above 0 but under 0.01 s: "<0.01s"
  kExact,       // every digit the value has, trailing zeros dropped: "15m00.5s", "0.000001s"
};

// The precision a column of durations (µs) prints with: hundredths when every value is under a
// minute (in magnitude), whole seconds otherwise; hundredths for an empty column.
DurationPrecision column_precision(const std::vector<int64_t>& us);

// `us` for people, cut toward zero at `precision`; a negative value gets a leading '-'.
std::string duration_text(int64_t us, DurationPrecision precision);

// `us` rounded at `precision` down (toward −∞) or up (toward +∞), never "<1s": the form for a
// bound, so that ">= " + duration_bound_text(x, p, false) is still true of whatever is >= x.
std::string duration_bound_text(int64_t us, DurationPrecision precision, bool round_up);

}  // namespace chaintwin::sim
