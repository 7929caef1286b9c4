// What a plan found, as a person reads it and as JSON: the recommendation (the cheapest
// configuration that meets every SLO) with each SLO's mean, 95 % interval, margin and the runs
// behind it; the nearest configurations that fail and the SLOs they fail; how the search went
// (rounds, configurations and runs simulated against the full grid); and every configuration
// simulated. Built from the outcome alone, so a plan reprinted from its SQLite file, run with any
// -j or merged from shards prints the same bytes.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/plan/plan.h"
#include "sim/results/duration_text.h"
#include "sim/plan/plan_driver.h"
#include "sim/plan/plan_space.h"

namespace chaintwin::sim::plan {

std::string plan_report_text(const Plan& plan, const Configurations& configs, const PlanOutcome& outcome);
nlohmann::ordered_json plan_report_json(const Plan& plan, const Configurations& configs, const PlanOutcome& outcome);

// A metric value in its unit: waits (seconds) as durations at `precision` ("4m12s", "0.94s";
// duration_text.h), fractions as "0.973", counts as integers.
std::string format_metric(const Slo& slo, double value, DurationPrecision precision = DurationPrecision::kSeconds);
// The SLO's bound in its author's words: a wait as a plan file spells a duration ("10m", "90s"),
// the others as format_metric prints them.
std::string slo_bound_text(const Slo& slo);

}  // namespace chaintwin::sim::plan
