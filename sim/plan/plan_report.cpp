#include "sim/plan/plan_report.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "sim/results/duration_text.h"
#include "sim/results/text_table.h"
#include "sim/sim_time.h"

namespace chaintwin::sim::plan {
namespace {

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

// Seconds (a mean over seeds) as whole µs, for the one duration formatter.
int64_t micros(double seconds) { return std::llround(seconds * 1e6); }

// The precision of an SLO's wait figures on one line (its mean and interval): one format for all
// of them (duration_text.h).
DurationPrecision wait_precision(const MetricSummary& m) {
  std::vector<int64_t> us{micros(m.mean), micros(m.margin)};
  if (m.ci_low) us.push_back(micros(*m.ci_low)), us.push_back(micros(*m.ci_high));
  return column_precision(us);
}

std::string pad(const std::string& s, size_t width) {
  size_t len = 0;
  for (unsigned char c : s) len += (c & 0xC0) != 0x80;
  return len >= width ? s : s + std::string(width - len, ' ');
}

std::string seeds_text(const Plan& plan) {
  std::string out;
  for (uint64_t s : plan.seeds) out += (out.empty() ? "" : ", ") + std::to_string(s);
  return out;
}

std::string verdict_line(const Slo& slo, const MetricSummary& m) {
  const DurationPrecision p = wait_precision(m);
  std::string line = format_metric(slo, m.mean, p);
  if (m.ci_low) line += " [" + format_metric(slo, *m.ci_low, p) + ", " + format_metric(slo, *m.ci_high, p) + "]";
  if (m.censored_seeds > 0)
    line += " (>=: censored in " + std::to_string(m.censored_seeds) + " of " + std::to_string(m.seeds) + " seeds)";
  return line;
}

std::vector<std::string> failed_slos(const Plan& plan, const PointOutcome& o) {
  std::vector<std::string> out;
  for (size_t s = 0; s < plan.slos.size(); ++s)
    if (!o.slos[s].met) out.push_back(plan.slos[s].describe() + ": " + verdict_line(plan.slos[s], o.slos[s]));
  return out;
}

// The failing configurations a reader wants next to the recommendation: the simulated ones that
// sort before it (cheaper), nearest first; without a recommendation, the cheapest failing ones.
std::vector<size_t> nearest_failures(const PlanOutcome& out, size_t limit) {
  std::vector<size_t> failing;
  for (const auto& [i, o] : out.known)
    if (!o.feasible && (!out.best || out.cost[i] <= out.cost[*out.best])) failing.push_back(i);
  std::sort(failing.begin(), failing.end(), [&](size_t a, size_t b) {
    if (out.cost[a] != out.cost[b]) return out.best ? out.cost[a] > out.cost[b] : out.cost[a] < out.cost[b];
    return a < b;
  });
  if (failing.size() > limit) failing.resize(limit);
  return failing;
}

}  // namespace

std::string cost_text(const Plan& plan, double cost) {
  switch (plan.objective.kind) {
    case Objective::Kind::kMinimizeCards: return fixed(cost, 0) + " cards";
    case Objective::Kind::kMinimizeCost: return "cost " + fixed(cost, 2);
    case Objective::Kind::kMaximizeVariable: {
      std::ostringstream os;
      os << plan.objective.variable << " " << -cost;
      return os.str();
    }
  }
  return "";
}

std::string slo_bound_text(const Slo& slo) {
  if (slo.metric != Slo::Metric::kWait) return format_metric(slo, slo.bound);
  return SimTime::micros(micros(slo.bound)).to_string();
}

std::string Slo::describe() const {
  std::string who;
  switch (subject) {
    case Subject::kClass: who = "class " + name; break;
    case Subject::kPool: who = "pool " + name; break;
    case Subject::kGpuModel: who = "gpuModel " + name; break;
    case Subject::kAll: who = "all workloads"; break;
  }
  switch (metric) {
    case Metric::kWait:
      return who + " wait " + (percentile == 100 ? std::string("max") : "p" + std::to_string(percentile)) +
             " <= " + slo_bound_text(*this);
    case Metric::kAdmittedFraction: return who + " admittedFraction >= " + fixed(bound, 3);
    case Metric::kNeverAdmitted: return who + " neverAdmitted <= " + fixed(bound, 0);
    case Metric::kUtilization: return who + " utilization >= " + fixed(bound, 3);
  }
  return who;
}

std::string format_metric(const Slo& slo, double value, DurationPrecision precision) {
  switch (slo.metric) {
    case Slo::Metric::kWait: return duration_text(micros(value), precision);
    case Slo::Metric::kNeverAdmitted: return fixed(value, std::fabs(value - std::round(value)) < 1e-9 ? 0 : 1);
    default: return fixed(value, 3);
  }
}

std::string plan_report_text(const Plan& plan, const Configurations& configs, const PlanOutcome& out) {
  std::ostringstream os;
  const size_t grid_runs = out.grid.size() * plan.seeds.size();
  os << "Plan " << plan.name << " (" << plan.file << "), base "
     << (plan.base.empty() ? std::string("the embedded default scenario") : plan.base) << "\n";
  os << out.grid.size() << " configurations x " << plan.seeds.size() << " seeds (" << seeds_text(plan) << "); "
     << (plan.search.mode == SearchOptions::Mode::kGrid ? "grid" : "adaptive search") << ": " << out.rounds.size()
     << " round" << (out.rounds.size() == 1 ? "" : "s") << ", " << out.known.size() << " configurations simulated ("
     << out.runs_total << " runs) of " << out.grid.size() << " (" << grid_runs << " runs in the full grid)\n";
  os << "SLOs judged on the " << (plan.search.judge == SearchOptions::Judge::kMean ? "mean over seeds" : "pessimistic end of the 95% interval")
     << "; waits count never-admitted Workloads as censored at the horizon\n";
  if (!out.finished) {
    os << "\nThe search is not finished: round " << out.rounds.size()
       << " still misses runs (merge the shards' files and run the plan again on the merged file).\n";
    return os.str();
  }
  os << "\n";
  if (out.best) {
    const size_t b = *out.best;
    const PointOutcome& o = out.known.at(b);
    os << "Recommendation: " << (configs.label(out.grid[b]).empty() ? "the base scenario" : configs.label(out.grid[b]))
       << "  (" << cost_text(plan, out.cost[b])
       << (plan.objective.kind == Objective::Kind::kMinimizeCards ? std::string() : ", " + fixed(out.cards[b], 0) + " cards")
       << ")\n";
    // One precision per column, over the wait SLOs' figures in it (duration_text.h).
    std::vector<int64_t> means, intervals, margins;
    for (size_t s = 0; s < plan.slos.size(); ++s) {
      if (plan.slos[s].metric != Slo::Metric::kWait) continue;
      const auto& m = o.slos[s];
      means.push_back(micros(m.mean));
      margins.push_back(micros(m.margin));
      if (m.ci_low) intervals.push_back(micros(*m.ci_low)), intervals.push_back(micros(*m.ci_high));
    }
    const DurationPrecision mean_p = column_precision(means), interval_p = column_precision(intervals),
                            margin_p = column_precision(margins);
    TextTable table({"  SLO", "mean", "95% interval", "margin", "verdict"}, "lrrrl");
    for (size_t s = 0; s < plan.slos.size(); ++s) {
      const auto& m = o.slos[s];
      const Slo& slo = plan.slos[s];
      table.add({"  " + slo.describe(), format_metric(slo, m.mean, mean_p),
                 m.ci_low ? "[" + format_metric(slo, *m.ci_low, interval_p) + ", " +
                                format_metric(slo, *m.ci_high, interval_p) + "]"
                          : "-",
                 format_metric(slo, m.margin, margin_p), m.met ? "met" : "FAILED"});
    }
    os << table.str();
    os << "  supported by " << plan.seeds.size() << " runs (seeds " << seeds_text(plan) << ")\n";
  } else {
    os << "No configuration meets every SLO.\n";
  }
  const auto failing = nearest_failures(out, 3);
  if (!failing.empty()) {
    os << "\n" << (out.best ? "Nearest configurations that fail:\n" : "Cheapest configurations, and what they fail:\n");
    for (size_t i : failing) {
      os << "  " << configs.label(out.grid[i]) << " (" << cost_text(plan, out.cost[i]) << ")\n";
      for (const auto& f : failed_slos(plan, out.known.at(i))) os << "    fails " << f << "\n";
    }
  }
  int64_t inferred = 0;
  for (auto k : out.knowledge) inferred += k == Knowledge::kInferredFeasible || k == Knowledge::kInferredInfeasible;
  if (inferred > 0)
    os << "\n" << inferred << " configurations were decided without simulation by monotonicity (more nodes never hurt, more demand never helps).\n";
  os << "\nConfigurations simulated (round, why, configuration, " << (plan.objective.kind == Objective::Kind::kMaximizeVariable ? "objective" : "cost")
     << ", verdict):\n";
  for (size_t r = 0; r < out.rounds.size(); ++r)
    for (size_t k = 0; k < out.rounds[r].points.size(); ++k) {
      const size_t i = out.rounds[r].points[k];
      const auto it = out.known.find(i);
      os << "  " << r + 1 << "  " << pad(out.rounds[r].why[k], 10) << pad(configs.label(out.grid[i]), 28) << " "
         << pad(cost_text(plan, out.cost[i]), 14)
         << (it == out.known.end() ? "incomplete" : it->second.feasible ? "meets every SLO" : "fails") << "\n";
    }
  return os.str();
}

nlohmann::ordered_json plan_report_json(const Plan& plan, const Configurations& configs, const PlanOutcome& out) {
  nlohmann::ordered_json j;
  j["plan"] = plan.name;
  j["file"] = plan.file;
  j["base"] = plan.base.empty() ? "default" : plan.base;
  j["seeds"] = plan.seeds;
  j["search"] = plan.search.mode == SearchOptions::Mode::kGrid ? "grid" : "adaptive";
  j["judge"] = plan.search.judge == SearchOptions::Judge::kMean ? "mean" : "confidence";
  j["finished"] = out.finished;
  j["gridConfigurations"] = out.grid.size();
  j["configurationsSimulated"] = out.known.size();
  j["runs"] = out.runs_total;
  nlohmann::ordered_json slos = nlohmann::ordered_json::array();
  for (const auto& s : plan.slos) slos.push_back(s.describe());
  j["slos"] = slos;
  const auto point_json = [&](size_t i) {
    nlohmann::ordered_json p;
    p["configuration"] = nlohmann::ordered_json::parse(configs.key(out.grid[i]));
    p["cost"] = out.cost[i];
    p["cards"] = out.cards[i];
    if (const auto it = out.known.find(i); it != out.known.end()) {
      p["feasible"] = it->second.feasible;
      nlohmann::ordered_json ms = nlohmann::ordered_json::array();
      for (size_t s = 0; s < plan.slos.size(); ++s) {
        const auto& m = it->second.slos[s];
        nlohmann::ordered_json e;
        e["slo"] = plan.slos[s].describe();
        e["mean"] = m.mean;
        e["sd"] = m.sd;
        if (m.ci_low) e["ci95"] = {*m.ci_low, *m.ci_high};
        e["censoredSeeds"] = m.censored_seeds;
        e["margin"] = m.margin;
        e["met"] = m.met;
        ms.push_back(e);
      }
      p["slos"] = ms;
    }
    return p;
  };
  j["recommendation"] = out.best ? point_json(*out.best) : nlohmann::ordered_json();
  nlohmann::ordered_json near = nlohmann::ordered_json::array();
  for (size_t i : nearest_failures(out, 3)) near.push_back(point_json(i));
  j["nearestFailing"] = near;
  nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
  for (const auto& r : out.rounds) {
    nlohmann::ordered_json round = nlohmann::ordered_json::array();
    for (size_t k = 0; k < r.points.size(); ++k) {
      auto p = point_json(r.points[k]);
      p["why"] = r.why[k];
      round.push_back(p);
    }
    rounds.push_back(round);
  }
  j["rounds"] = rounds;
  return j;
}

}  // namespace chaintwin::sim::plan
