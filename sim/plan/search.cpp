#include "sim/plan/search.h"

#include <algorithm>
#include <numeric>

#include "sim/plan/response_surface.h"

namespace chaintwin::sim::plan {

Search::Search(const Plan& plan, std::vector<Point> grid, std::vector<double> cost, std::vector<double> cards,
               std::vector<double> demand)
    : plan_(&plan), grid_(std::move(grid)), cost_(std::move(cost)), cards_(std::move(cards)), demand_(std::move(demand)) {
  order_.resize(grid_.size());
  std::iota(order_.begin(), order_.end(), size_t{0});
  std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) { return before(a, b); });
}

bool Search::before(size_t a, size_t b) const {
  if (cost_[a] != cost_[b]) return cost_[a] < cost_[b];
  return a < b;
}

bool Search::at_least_as_favourable(const Point& p, const Point& q) const {
  for (size_t v = 0; v < p.size(); ++v) {
    switch (plan_->variables[v].monotone) {
      case Variable::Monotone::kNone:
        if (p[v] != q[v]) return false;
        break;
      case Variable::Monotone::kMoreIsBetter:
        if (p[v] < q[v]) return false;
        break;
      case Variable::Monotone::kMoreIsWorse:
        if (p[v] > q[v]) return false;
        break;
    }
  }
  return true;
}

std::vector<Knowledge> Search::knowledge(const std::map<size_t, PointOutcome>& known) const {
  std::vector<Knowledge> k(grid_.size(), Knowledge::kUnknown);
  std::vector<size_t> feasible, infeasible;
  for (const auto& [i, o] : known) {
    k[i] = o.feasible ? Knowledge::kFeasible : Knowledge::kInfeasible;
    (o.feasible ? feasible : infeasible).push_back(i);
  }
  for (size_t i = 0; i < grid_.size(); ++i) {
    if (k[i] != Knowledge::kUnknown) continue;
    for (size_t f : feasible)
      if (at_least_as_favourable(grid_[i], grid_[f])) {
        k[i] = Knowledge::kInferredFeasible;
        break;
      }
    if (k[i] != Knowledge::kUnknown) continue;
    for (size_t f : infeasible)
      if (at_least_as_favourable(grid_[f], grid_[i])) {
        k[i] = Knowledge::kInferredInfeasible;
        break;
      }
  }
  return k;
}

std::optional<size_t> Search::best(const std::map<size_t, PointOutcome>& known) const {
  std::optional<size_t> b;
  for (const auto& [i, o] : known)
    if (o.feasible && (!b || before(i, *b))) b = i;
  return b;
}

Proposal Search::propose(const std::map<size_t, PointOutcome>& known) const {
  Proposal p;
  if (plan_->search.mode == SearchOptions::Mode::kGrid) {
    if (!known.empty()) return p;  // the grid is one round
    for (size_t i = 0; i < grid_.size(); ++i) {
      p.points.push_back(i);
      p.why.push_back("grid");
    }
    return p;
  }
  const auto k = knowledge(known);
  const auto b = best(known);
  std::vector<size_t> candidates;
  for (size_t i : order_) {
    if (b && !before(i, *b)) break;
    if (k[i] == Knowledge::kUnknown || k[i] == Knowledge::kInferredFeasible) candidates.push_back(i);
  }
  if (candidates.empty()) return p;
  const size_t batch = static_cast<size_t>(plan_->search.batch);
  const auto take = [&](size_t i, const char* why) {
    if (std::find(p.points.begin(), p.points.end(), i) != p.points.end()) return;
    p.points.push_back(i);
    p.why.push_back(why);
  };
  // The response surface's cheapest predicted-feasible candidate.
  ResponseSurface surface(*plan_, grid_, cards_, demand_);
  std::vector<std::pair<size_t, std::vector<double>>> observed;
  for (const auto& [i, o] : known) {
    std::vector<double> y;
    for (const auto& s : o.slos) y.push_back(s.judged);
    observed.emplace_back(i, std::move(y));
  }
  if (surface.fit(observed))
    for (size_t i : candidates)
      if (surface.predicted_feasible(i)) {
        take(i, "surface");
        break;
      }
  // Evenly spaced ranks of the candidates (one candidate at a time: bisection).
  const size_t want = std::min(batch, candidates.size());
  for (size_t slots = want; p.points.size() < want && slots <= candidates.size(); ++slots) {
    for (size_t r = 1; r <= slots && p.points.size() < want; ++r) take(candidates[r * candidates.size() / (slots + 1)], "bisection");
  }
  return p;
}

std::vector<size_t> Search::neighbours(size_t i) const {
  std::vector<size_t> out;
  for (size_t j = 0; j < grid_.size(); ++j) {
    int diff = 0;
    bool one_step = true;
    for (size_t v = 0; v < grid_[i].size(); ++v) {
      const int d = grid_[i][v] - grid_[j][v];
      if (d != 0) ++diff;
      if (d > 1 || d < -1) one_step = false;
    }
    if (diff == 1 && one_step) out.push_back(j);
  }
  return out;
}

}  // namespace chaintwin::sim::plan
