// Loads a plan file (chaintwin/v1 kind Plan, docs/planning.md) into a checked Plan: the base
// scenario read, every variable's values expanded (ranges, labels, the patches they write), every
// SLO parsed, the seeds, the objective and the search options. Strict like the scenario loader:
// unknown fields, empty ranges, an SLO on a class the base scenario does not have, a variable
// whose value the base scenario refuses — each stops the load with
// `plan.yaml:12: variables[0].range: what was wrong (what was expected)`; the CLI exits 2.
#pragma once

#include <optional>
#include <string>

#include "model/result.h"
#include "sim/plan/plan.h"

namespace chaintwin::sim::plan {

model::Result<Plan> load_plan(const std::string& path);
// Parses `text` as if read from `name_for_messages` (the base scenario resolves against it).
// With `base_text`, the base scenario is that text instead of the file it names (a plan read
// back from its SQLite file, which keeps both texts).
model::Result<Plan> load_plan_text(const std::string& text, const std::string& name_for_messages,
                                   const std::optional<std::string>& base_text = std::nullopt);

}  // namespace chaintwin::sim::plan
