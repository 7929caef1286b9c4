#include "sim/plan/response_surface.h"

#include <cmath>
#include <map>

#include <Eigen/Dense>

namespace chaintwin::sim::plan {

double to_fit_scale(const Slo& slo, double value) {
  return slo.metric == Slo::Metric::kWait ? std::log1p(std::max(0.0, value)) : value;
}

double from_fit_scale(const Slo& slo, double value) {
  return slo.metric == Slo::Metric::kWait ? std::expm1(value) : value;
}

ResponseSurface::ResponseSurface(const Plan& plan, const std::vector<Point>& grid, std::vector<double> cards,
                                 std::vector<double> demand)
    : plan_(&plan), grid_(&grid), cards_(std::move(cards)), demand_(std::move(demand)) {}

std::vector<double> ResponseSurface::row(size_t i) const {
  const Point& p = (*grid_)[i];
  std::vector<double> r;
  // One constant per combination of the non-numeric variables (the first combination is the base).
  std::vector<size_t> categorical;
  for (size_t v = 0; v < plan_->variables.size(); ++v)
    if (!plan_->variables[v].values.front().number) categorical.push_back(v);
  size_t combos = 1, combo = 0;
  for (size_t v : categorical) {
    combo = combo * plan_->variables[v].values.size() + static_cast<size_t>(p[v]);
    combos *= plan_->variables[v].values.size();
  }
  r.push_back(1.0);
  for (size_t c = 1; c < combos; ++c) r.push_back(combo == c ? 1.0 : 0.0);
  for (size_t v = 0; v < plan_->variables.size(); ++v) {
    const auto& values = plan_->variables[v].values;
    if (!values.front().number || values.size() < 2) continue;
    const double lo = *values.front().number, hi = *values.back().number;
    const double u = 1.0 + (*values[static_cast<size_t>(p[v])].number - lo) / (hi - lo);
    r.push_back(u);
    r.push_back(1.0 / u);
  }
  bool any_cards = false;
  for (double c : cards_) any_cards = any_cards || c > 0;
  if (any_cards) {
    const double rho = cards_[i] > 0 ? demand_[i] / cards_[i] : 0;
    r.push_back(rho);
    r.push_back(rho * rho);
  }
  return r;
}

size_t ResponseSurface::features() const { return grid_->empty() ? 0 : row(0).size(); }

bool ResponseSurface::fit(const std::vector<std::pair<size_t, std::vector<double>>>& observed) {
  fitted_ = false;
  const size_t k = features();
  if (observed.size() < k + 1 || k == 0) return false;
  Eigen::MatrixXd a(static_cast<Eigen::Index>(observed.size()), static_cast<Eigen::Index>(k));
  for (size_t n = 0; n < observed.size(); ++n) {
    const auto r = row(observed[n].first);
    for (size_t j = 0; j < k; ++j) a(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(j)) = r[j];
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  coefficients_.clear();
  for (size_t s = 0; s < plan_->slos.size(); ++s) {
    Eigen::VectorXd y(static_cast<Eigen::Index>(observed.size()));
    for (size_t n = 0; n < observed.size(); ++n)
      y(static_cast<Eigen::Index>(n)) = to_fit_scale(plan_->slos[s], observed[n].second[s]);
    const Eigen::VectorXd x = qr.solve(y);
    std::vector<double> c(k);
    for (size_t j = 0; j < k; ++j) c[j] = std::isfinite(x(static_cast<Eigen::Index>(j))) ? x(static_cast<Eigen::Index>(j)) : 0;
    coefficients_.push_back(std::move(c));
  }
  fitted_ = true;
  return true;
}

std::vector<double> ResponseSurface::predict(size_t i) const {
  std::vector<double> out;
  if (!fitted_) return out;
  const auto r = row(i);
  for (size_t s = 0; s < coefficients_.size(); ++s) {
    double y = 0;
    for (size_t j = 0; j < r.size(); ++j) y += coefficients_[s][j] * r[j];
    out.push_back(from_fit_scale(plan_->slos[s], y));
  }
  return out;
}

bool ResponseSurface::predicted_feasible(size_t i) const {
  if (!fitted_) return false;
  const auto y = predict(i);
  for (size_t s = 0; s < y.size(); ++s) {
    const Slo& slo = plan_->slos[s];
    if (slo.at_most() ? y[s] > slo.bound : y[s] < slo.bound) return false;
  }
  return true;
}

}  // namespace chaintwin::sim::plan
