// Judges the `slo:` expectations of a scenario (`expect: - at: end, slo: {...}`) on a finished run:
// the waits, admitted fraction and never-admitted count of a workload class, a pool (ClusterQueue)
// or a GPU model, and the utilization of a pool or GPU model, all as the run's report computes them
// (sim/results/report.h). Called by the runner at the end of a run (Simulation::finish), once the
// record is complete; `chaintwin check` prints the failures and exits 1.
#pragma once

#include <vector>

#include "sim/results/report.h"
#include "sim/results/run_record.h"
#include "sim/scenario/expectation_check.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

// Every check of `e` (which has an slo) that does not hold; empty when all hold.
//
// A wait percentile whose rank falls on a never-admitted (censored) Workload is only known to be at
// least the shown value: an upper bound ("<= 15m") on it fails, saying how many were censored; a
// lower bound (">= 1h") holds when the shown value already meets it. Waits are over every
// non-rejected Workload of the subject, zero waits included (a GPU model too, unlike the report's
// `waited` figures). admittedFraction = admitted at least once ÷ arrived (rejected included),
// compared exactly; neverAdmitted = arrived − admitted. A subject the run never saw fails with
// `exists`.
std::vector<ExpectationFailure> check_slo(const Expectation& e, const Report& report, const RunRecord& record);

}  // namespace chaintwin::sim
