// A response surface of each SLO metric over a plan's configurations, fitted by least squares
// with Eigen on the configurations already simulated, and used only to propose which
// configurations to simulate next (every proposal is verified by simulation; nothing is decided
// on a prediction). Features of a configuration: a constant per combination of the plan's
// non-numeric variables, and for each numeric variable x (scaled to u in [1, 2] over its values)
// u and 1/u; with a demand scale and a capacity, the load per card ρ = demand / cards and ρ²
// (load against capacity is what a queue's wait answers to). Waits are fitted as log(1 + seconds),
// so the steep rise near saturation stays in reach of a low-order fit.
#pragma once

#include <optional>
#include <vector>

#include "sim/plan/plan.h"
#include "sim/plan/plan_space.h"

namespace chaintwin::sim::plan {

class ResponseSurface {
 public:
  // `cards[i]` is the capacity of grid point i (0 when unknown) and `demand[i]` its demand factor.
  ResponseSurface(const Plan& plan, const std::vector<Point>& grid, std::vector<double> cards,
                  std::vector<double> demand);

  // Fits one model per SLO on the observed (grid index, judged value per SLO) pairs. False when
  // there are fewer observations than features (then nothing is predicted).
  bool fit(const std::vector<std::pair<size_t, std::vector<double>>>& observed);
  // Predicted judged value of every SLO at grid point i (fit() must have returned true).
  std::vector<double> predict(size_t i) const;
  // Whether the prediction meets every SLO.
  bool predicted_feasible(size_t i) const;
  size_t features() const;

 private:
  const Plan* plan_;
  const std::vector<Point>* grid_;
  std::vector<double> cards_, demand_;
  std::vector<std::vector<double>> coefficients_;  // per SLO
  std::vector<double> row(size_t i) const;
  bool fitted_ = false;
};

// The transformation a metric is fitted in, and back.
double to_fit_scale(const Slo& slo, double value);
double from_fit_scale(const Slo& slo, double value);

}  // namespace chaintwin::sim::plan
