// The configurations a plan spans and how one becomes a runnable scenario. A point is one value
// index per variable (in the plan's variable order); the grid is every combination, the last
// variable changing fastest. `Configurations` keeps the base scenario document parsed once and
// builds each point's Scenario from it: the variables' patches written into the document, the
// document loaded by the scenario loader (so a configuration is checked exactly as a scenario file
// would be), then the demand scale and the horizon applied and — unless the plan asks for them —
// the expectations dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/result.h"
#include "sim/kube_documents.h"
#include "sim/plan/plan.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim::plan {

using Point = std::vector<int32_t>;

class Configurations {
 public:
  // Parses the plan's base scenario text; the error names the base file.
  static model::Result<Configurations> create(const Plan& plan);

  // The scenario of one configuration (a value index per variable).
  model::Result<Scenario> scenario(const Point& point) const;
  // The base scenario with only variable `v` set to its value `value` (the loader's checks).
  model::Result<Scenario> scenario_with(size_t v, size_t value) const;
  // The base scenario as written.
  model::Result<Scenario> base() const;

  // "h100Nodes=3 layout=mig" (the empty string for a plan without variables).
  std::string label(const Point& point) const;
  // {"h100Nodes": "3", "layout": "mig"} in variable order: how the SQLite file keys a configuration.
  std::string key(const Point& point) const;

  // Every point, the last variable fastest.
  std::vector<Point> grid() const;
  size_t grid_size() const;

  const Plan& plan() const { return *plan_; }

 private:
  const Plan* plan_ = nullptr;
  SourceObject base_doc_;
  model::Result<Scenario> build(const std::vector<std::pair<size_t, size_t>>& chosen) const;
};

}  // namespace chaintwin::sim::plan
