#include "sim/plan/plan_charts.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/plan/plan_report.h"

namespace chaintwin::sim::plan {
namespace {

// A wait is plotted in minutes; everything else as it is.
double scaled(const Slo& slo, double v) { return slo.metric == Slo::Metric::kWait ? v / 60.0 : v; }

std::string metric_axis(const Slo& slo) {
  switch (slo.metric) {
    case Slo::Metric::kWait:
      return (slo.percentile == 100 ? std::string("max") : "p" + std::to_string(slo.percentile)) + " wait (min)";
    case Slo::Metric::kAdmittedFraction: return "admitted fraction";
    case Slo::Metric::kNeverAdmitted: return "never admitted (Workloads)";
    case Slo::Metric::kUtilization: return "utilization (fraction)";
  }
  return "";
}

std::string variable_axis(const Variable& v) {
  switch (v.kind) {
    case Variable::Kind::kNodeCount: return v.name + " (nodes of " + v.target + ")";
    case Variable::Kind::kDemandScale: return v.name + " (arrival rate multiplier)";
    case Variable::Kind::kHorizon: return v.name + " (hours)";
    default: {
      std::string labels;
      for (size_t i = 0; i < v.values.size(); ++i) labels += (i ? ", " : "") + std::to_string(i) + "=" + v.values[i].label;
      return v.name + " (" + labels + ")";
    }
  }
}

double x_of(const Variable& v, size_t value) {
  return v.values[value].number ? *v.values[value].number : static_cast<double>(value);
}

}  // namespace

std::vector<NamedChart> plan_charts(const Plan& plan, const Configurations& configs, const PlanOutcome& out,
                                    const PlanStore& store) {
  std::vector<NamedChart> charts;
  const size_t nvars = plan.variables.size();
  // Reference values for the other variables: the recommendation, else the first simulated point.
  Point reference(nvars, 0);
  if (out.best) reference = out.grid[*out.best];
  else if (!out.known.empty()) reference = out.grid[out.known.begin()->first];

  for (size_t s = 0; s < plan.slos.size(); ++s) {
    const Slo& slo = plan.slos[s];
    for (size_t v = 0; v < nvars; ++v) {
      const Variable& var = plan.variables[v];
      // Group simulated points by the values of the other variables.
      std::map<Point, std::vector<size_t>> lines;
      for (const auto& [i, o] : out.known) {
        Point rest = out.grid[i];
        rest[v] = -1;
        lines[rest].push_back(i);
      }
      const bool few = lines.size() <= 6;
      plot::Chart c;
      c.title = slo.describe() + " against " + var.name;
      c.x_label = variable_axis(var);
      c.x_integer = var.kind == Variable::Kind::kNodeCount || !var.values.front().number;
      c.y_label = metric_axis(slo);
      for (const auto& [rest, points] : lines) {
        if (!few) {
          Point ref = reference;
          ref[v] = -1;
          if (rest != ref) continue;
        }
        plot::Series series;
        std::string label;
        for (size_t w = 0; w < nvars; ++w)
          if (w != v) label += (label.empty() ? "" : " ") + plan.variables[w].name + "=" + plan.variables[w].values[static_cast<size_t>(rest[w])].label;
        series.label = label.empty() ? "mean over " + std::to_string(plan.seeds.size()) +
                                           (plan.seeds.size() == 1 ? " seed" : " seeds")
                                     : label;
        std::vector<size_t> sorted = points;
        std::sort(sorted.begin(), sorted.end(), [&](size_t a, size_t b) { return out.grid[a][v] < out.grid[b][v]; });
        bool band = false;
        for (size_t i : sorted) {
          const auto& m = out.known.at(i).slos[s];
          series.x.push_back(x_of(var, static_cast<size_t>(out.grid[i][v])));
          series.y.push_back(scaled(slo, m.mean));
          series.y_low.push_back(scaled(slo, m.ci_low.value_or(m.mean)));
          series.y_high.push_back(scaled(slo, m.ci_high.value_or(m.mean)));
          band = band || m.ci_low.has_value();
          series.highlight.push_back(out.known.at(i).feasible);
        }
        if (!band) series.y_low.clear(), series.y_high.clear();
        c.series.push_back(std::move(series));
      }
      c.lines.push_back({"SLO " + std::string(slo.at_most() ? "<= " : ">= ") + slo_bound_text(slo), scaled(slo, slo.bound), false, 0});
      charts.push_back({"slo-" + std::to_string(s + 1) + "-" + var.name + ".png", std::move(c)});
    }
  }

  // Utilization against capacity: every pool and GPU model the runs report, mean over seeds.
  {
    plot::Chart c;
    c.title = "Utilization against capacity";
    c.x_label = "capacity (cards)";
    c.y_label = "mean utilization (fraction)";
    std::map<std::string, std::map<double, std::pair<double, int64_t>>> by_model;  // model → cards → (sum, n)
    for (const auto& [i, o] : out.known) {
      const std::string key = configs.key(out.grid[i]);
      // One line per GPU model and setting of the non-numeric variables (a MIG layout's
      // utilization is not a sliced one's).
      std::string setting;
      for (size_t v = 0; v < nvars; ++v)
        if (!plan.variables[v].values.front().number)
          setting += (setting.empty() ? "" : " ") + plan.variables[v].name + "=" +
                     plan.variables[v].values[static_cast<size_t>(out.grid[i][v])].label;
      for (uint64_t seed : plan.seeds) {
        const StoredRun* r = store.find(key, seed);
        if (r == nullptr || !r->summary.contains("gpuModels")) continue;
        for (const auto& [model, m] : r->summary["gpuModels"].items())
          if (m.contains("utilization")) {
            auto& cell = by_model[setting.empty() ? model : model + " (" + setting + ")"][out.cards[i]];
            cell.first += m["utilization"].get<double>();
            ++cell.second;
          }
      }
    }
    for (const auto& [model, cells] : by_model) {
      plot::Series series;
      series.label = model;
      for (const auto& [cards, cell] : cells) {
        series.x.push_back(cards);
        series.y.push_back(cell.first / static_cast<double>(cell.second));
      }
      c.series.push_back(std::move(series));
    }
    charts.push_back({"utilization-vs-capacity.png", std::move(c)});
  }

  // Each SLO metric against cost: the configurations simulated, and the frontier.
  for (size_t s = 0; s < plan.slos.size(); ++s) {
    const Slo& slo = plan.slos[s];
    plot::Chart c;
    c.title = slo.describe() + " against cost";
    c.x_label = plan.objective.kind == Objective::Kind::kMinimizeCards   ? "cards"
                : plan.objective.kind == Objective::Kind::kMinimizeCost ? "cost"
                                                                         : plan.objective.variable + " (higher is better)";
    c.y_label = metric_axis(slo);
    plot::Series all;
    all.label = "configurations (filled: meets every SLO)";
    all.style = plot::Series::Style::kPoints;
    std::map<double, double> best_at;  // cost → best metric
    for (const auto& [i, o] : out.known) {
      const double x = plan.objective.kind == Objective::Kind::kMaximizeVariable ? -out.cost[i] : out.cost[i];
      const double y = scaled(slo, o.slos[s].mean);
      all.x.push_back(x);
      all.y.push_back(y);
      all.highlight.push_back(o.feasible);
      auto [it, fresh] = best_at.emplace(x, y);
      if (!fresh) it->second = slo.at_most() ? std::min(it->second, y) : std::max(it->second, y);
    }
    plot::Series frontier;
    frontier.label = "best at each " + c.x_label;
    frontier.style = plot::Series::Style::kLine;
    for (const auto& [x, y] : best_at) {
      frontier.x.push_back(x);
      frontier.y.push_back(y);
    }
    c.series.push_back(std::move(all));
    if (frontier.x.size() > 1) c.series.push_back(std::move(frontier));
    c.lines.push_back({"SLO " + std::string(slo.at_most() ? "<= " : ">= ") + slo_bound_text(slo), scaled(slo, slo.bound), false, 0});
    charts.push_back({"cost-vs-slo-" + std::to_string(s + 1) + ".png", std::move(c)});
  }
  return charts;
}

}  // namespace chaintwin::sim::plan
