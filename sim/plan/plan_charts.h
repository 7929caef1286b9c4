// The plots of a plan (`chaintwin plan --plots DIR`, and the GUI's Plan panel): for each SLO,
// its metric against each variable — the mean over seeds with its 95 % band, one line per
// setting of the other variables (at most six; otherwise the other variables held at the
// recommendation's values) and the SLO's bound as a dashed line; utilization against capacity
// (cards); and each SLO metric against the objective's cost over every configuration simulated,
// the configurations that meet every SLO filled, with the frontier of the best value at each cost.
#pragma once

#include <string>
#include <vector>

#include "sim/plan/plan.h"
#include "sim/plan/plan_driver.h"
#include "sim/plan/plan_space.h"
#include "sim/plan/plan_store.h"
#include "sim/plot/chart.h"

namespace chaintwin::sim::plan {

struct NamedChart {
  std::string file;  // "slo-1-h100Nodes.png"
  plot::Chart chart;
};

std::vector<NamedChart> plan_charts(const Plan& plan, const Configurations& configs, const PlanOutcome& outcome,
                                    const PlanStore& store);

}  // namespace chaintwin::sim::plan
