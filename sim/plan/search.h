// How a plan chooses which configurations to simulate. The space is the grid of every
// combination of the variables' values, ordered by the objective's cost (then by grid position).
//
// `--grid` (search.mode: grid) simulates every configuration in one round.
//
// The adaptive search goes in rounds. Before each round it sorts what is known:
// - a configuration is verified feasible or infeasible once all its seeds ran;
// - with monotone variables (more nodes never hurt, more demand never helps) a configuration at
//   least as favourable as a feasible one in every monotone variable — and equal in the others —
//   is feasible too, and one at most as favourable as an infeasible one is infeasible.
// The candidates are the configurations that sort before the cheapest verified-feasible one and are
// not known or inferred infeasible. None left: the search is over, and the cheapest verified
// feasible configuration is the grid's cheapest feasible one (under the monotonicity the plan
// states). Otherwise the round takes `batch` candidates: first the cheapest one the response
// surface (response_surface.h) predicts to meet every SLO, then the candidates at evenly spaced
// ranks of the sorted list (for one variable, bisection). The proposal depends only on what is
// known, never on timing or -j, so shards and resumed plans make the same decisions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/plan/plan.h"
#include "sim/plan/plan_space.h"
#include "sim/plan/seed_statistics.h"

namespace chaintwin::sim::plan {

// A configuration all of whose seeds ran.
struct PointOutcome {
  std::vector<MetricSummary> slos;
  bool feasible = false;
};

enum class Knowledge { kUnknown, kFeasible, kInfeasible, kInferredFeasible, kInferredInfeasible };

struct Proposal {
  std::vector<size_t> points;      // grid indices
  std::vector<std::string> why;    // "grid", "surface", "bisection"
};

class Search {
 public:
  // cost[i]: the objective's cost of grid point i (lower is better).
  Search(const Plan& plan, std::vector<Point> grid, std::vector<double> cost, std::vector<double> cards,
         std::vector<double> demand);

  std::vector<Knowledge> knowledge(const std::map<size_t, PointOutcome>& known) const;
  // The next round; empty when the search is over.
  Proposal propose(const std::map<size_t, PointOutcome>& known) const;
  // The cheapest verified-feasible configuration.
  std::optional<size_t> best(const std::map<size_t, PointOutcome>& known) const;
  // Whether a sorts before b: (cost, grid index).
  bool before(size_t a, size_t b) const;

  const std::vector<Point>& grid() const { return grid_; }
  double cost(size_t i) const { return cost_[i]; }
  double cards(size_t i) const { return cards_[i]; }
  // p at least as favourable as q in every monotone variable, equal in the others.
  bool at_least_as_favourable(const Point& p, const Point& q) const;
  // Points that differ from `i` by one step of one variable.
  std::vector<size_t> neighbours(size_t i) const;

 private:
  const Plan* plan_;
  std::vector<Point> grid_;
  std::vector<double> cost_, cards_, demand_;
  std::vector<size_t> order_;  // grid indices by (cost, index)
};

}  // namespace chaintwin::sim::plan
