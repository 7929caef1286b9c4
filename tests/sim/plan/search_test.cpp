// The adaptive search against the full grid, on synthetic monotone responses where the answer is
// known by enumeration: the search must always end on the grid's cheapest feasible configuration,
// with fewer configurations simulated, whatever the batch; and the response surface reproduces a
// response inside its feature span.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "sim/plan/response_surface.h"
#include "sim/plan/search.h"

using namespace chaintwin::sim::plan;

namespace {

Variable node_count(const std::string& name, int from, int to) {
  Variable v;
  v.name = name;
  v.kind = Variable::Kind::kNodeCount;
  v.monotone = Variable::Monotone::kMoreIsBetter;
  for (int n = from; n <= to; ++n) {
    VariableValue value;
    value.number = n;
    value.label = std::to_string(n);
    v.values.push_back(value);
  }
  return v;
}

std::vector<Point> grid_of(const Plan& plan) {
  std::vector<Point> grid;
  Point p(plan.variables.size(), 0);
  for (;;) {
    grid.push_back(p);
    size_t v = p.size();
    while (v-- > 0) {
      if (static_cast<size_t>(++p[v]) < plan.variables[v].values.size()) break;
      p[v] = 0;
    }
    if (v == static_cast<size_t>(-1)) break;
  }
  return grid;
}

}  // namespace

TEST_CASE("the adaptive search ends on the grid's cheapest feasible configuration for any monotone response", "[plan]") {
  std::mt19937_64 rng(20261201);
  int surface_rounds = 0;
  size_t simulated = 0, configurations = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Plan plan;
    const int dims = 1 + static_cast<int>(rng() % 3);
    for (int d = 0; d < dims; ++d) plan.variables.push_back(node_count("n" + std::to_string(d), 1, 3 + static_cast<int>(rng() % 8)));
    Slo slo;
    slo.metric = Slo::Metric::kWait;
    slo.bound = 60;
    plan.slos.push_back(slo);
    plan.search.batch = 1 + static_cast<int32_t>(rng() % 4);
    const auto grid = grid_of(plan);
    // A wait that falls as capacity grows: demand over a weighted capacity, steep near saturation.
    std::vector<double> weight, price;
    for (int d = 0; d < dims; ++d) {
      weight.push_back(0.5 + static_cast<double>(rng() % 100) / 50.0);
      price.push_back(1 + static_cast<double>(rng() % 5));
    }
    const double demand = 2 + static_cast<double>(rng() % 120) / 10.0;
    std::vector<double> cost(grid.size()), cards(grid.size()), wait(grid.size());
    for (size_t i = 0; i < grid.size(); ++i) {
      double capacity = 0;
      for (int d = 0; d < dims; ++d) {
        const double n = *plan.variables[static_cast<size_t>(d)].values[static_cast<size_t>(grid[i][static_cast<size_t>(d)])].number;
        capacity += weight[static_cast<size_t>(d)] * n;
        cost[i] += price[static_cast<size_t>(d)] * n;
        cards[i] += n;
      }
      const double load = demand / capacity;
      wait[i] = load >= 1 ? 1e6 * load : 30.0 / (1 - load);
    }
    Search search(plan, grid, cost, cards, std::vector<double>(grid.size(), 1.0));
    // The grid's answer by enumeration.
    std::optional<size_t> want;
    for (size_t i = 0; i < grid.size(); ++i)
      if (wait[i] <= slo.bound && (!want || search.before(i, *want))) want = i;
    std::map<size_t, PointOutcome> known;
    for (int round = 0; round < 1000; ++round) {
      const Proposal p = search.propose(known);
      if (p.points.empty()) break;
      for (size_t k = 0; k < p.points.size(); ++k) {
        if (p.why[k] == "surface") ++surface_rounds;
        const size_t i = p.points[k];
        REQUIRE(known.count(i) == 0);  // never simulated twice
        PointOutcome o;
        o.slos.push_back(summarize(slo, SearchOptions::Judge::kMean, {{wait[i], false, 1}}));
        o.feasible = o.slos.back().met;
        known[i] = o;
      }
    }
    INFO("trial " << trial << ", " << dims << " variables, " << grid.size() << " configurations, batch " << plan.search.batch);
    CHECK(search.best(known) == want);
    simulated += known.size();
    configurations += grid.size();
  }
  // Far fewer configurations simulated than the grids hold, over all trials.
  CHECK(static_cast<double>(simulated) < 0.5 * static_cast<double>(configurations));
  CHECK(surface_rounds > 0);  // the response surface proposed configurations in some trials
}

TEST_CASE("the response surface reproduces a response inside its feature span", "[plan]") {
  Plan plan;
  plan.variables.push_back(node_count("n", 1, 9));
  Slo slo;
  slo.metric = Slo::Metric::kAdmittedFraction;
  slo.bound = 0.5;
  plan.slos.push_back(slo);
  const auto grid = grid_of(plan);
  ResponseSurface surface(plan, grid, std::vector<double>(grid.size(), 0), std::vector<double>(grid.size(), 1));
  // y = 0.2 + 0.3 u + 0.1 / u, u = 1 + (n − 1) / 8.
  const auto y = [](size_t i) {
    const double u = 1 + static_cast<double>(i) / 8;
    return 0.2 + 0.3 * u + 0.1 / u;
  };
  CHECK_FALSE(surface.fit({{0, {y(0)}}, {4, {y(4)}}}));  // fewer observations than features + 1
  REQUIRE(surface.fit({{0, {y(0)}}, {3, {y(3)}}, {5, {y(5)}}, {8, {y(8)}}}));
  for (size_t i = 0; i < grid.size(); ++i) CHECK(surface.predict(i)[0] == Approx(y(i)).epsilon(1e-9));
  CHECK(surface.predicted_feasible(0) == (y(0) >= 0.5));
}
