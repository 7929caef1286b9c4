// A finished (or partly run) plan read back from its SQLite file: the plan rebuilt from the
// texts the file keeps, its configurations, the store, and the search replayed over the stored
// runs — what `chaintwin plan --report` prints and the GUI's Plan panel draws.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "model/result.h"
#include "sim/plan/plan.h"
#include "sim/plan/plan_driver.h"
#include "sim/plan/plan_space.h"
#include "sim/plan/plan_store.h"

namespace chaintwin::sim::plan {

struct OpenedPlan {
  std::unique_ptr<Plan> plan;
  std::unique_ptr<Configurations> configs;  // points into *plan
  std::unique_ptr<PlanStore> store;
  PlanOutcome outcome;
};

// `mode`: replay with that search mode instead of the plan's own (`--grid`, `--adaptive`).
model::Result<OpenedPlan> open_plan_file(const std::string& path, std::optional<SearchOptions::Mode> mode);

}  // namespace chaintwin::sim::plan
