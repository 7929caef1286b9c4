// Demand scale: a scenario's arrivals made `factor` times as dense, for capacity planning
// (sim/plan/ calls it on each configuration it builds; tests call it directly).
//
// A factor of 2 means twice the demand over the same time: a Poisson rate is multiplied by 2, an
// `every` interval and the times of an `at:` list are divided by 2, and so are the arrival times of
// the trace's workloads. Durations, counts (`count:` still stops a generator after that many), the
// cluster, the timeline and the horizon do not change. Every new time is rounded to the nearest
// whole microsecond (halves away from zero), so the same scenario and factor give the same result.
#pragma once

#include <string>

#include "model/result.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

// The workload class name of a scenario's trace workloads (WorkloadOutcome::generator).
inline constexpr const char* kTraceClass = "trace";

// Scales the demand of the generator named `generator` ("trace": the trace's workloads; "": every
// generator and the trace) by `factor`. Refuses — and leaves `s` as it was — a factor that is not
// finite and greater than 0, an unknown generator (the message lists the known ones), and a result
// the runner cannot run: a Poisson rate out of rate_in_range, an `every` interval under 1 µs, a
// time beyond what SimTime holds.
model::Status scale_demand(Scenario& s, double factor, const std::string& generator /* "" = every class and the trace */);

}  // namespace chaintwin::sim
