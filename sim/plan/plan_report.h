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
#include "sim/plan/plan_driver.h"
#include "sim/plan/plan_space.h"

namespace chaintwin::sim::plan {

std::string plan_report_text(const Plan& plan, const Configurations& configs, const PlanOutcome& outcome);
nlohmann::ordered_json plan_report_json(const Plan& plan, const Configurations& configs, const PlanOutcome& outcome);

// A metric value in its unit: waits as durations ("4m12s"), fractions as "0.973", counts as integers.
std::string format_metric(const Slo& slo, double value);

}  // namespace chaintwin::sim::plan
