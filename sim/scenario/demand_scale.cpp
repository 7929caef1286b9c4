#include "sim/scenario/demand_scale.h"

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

namespace chaintwin::sim {
namespace {

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// `t` ÷ factor, rounded to the nearest microsecond; nullopt when it leaves int64.
std::optional<SimTime> divided(SimTime t, double factor) {
  const double v = static_cast<double>(t.us()) / factor;
  if (!std::isfinite(v) || std::fabs(v) >= 9.2e18) return std::nullopt;
  return SimTime::micros(std::llround(v));
}

}  // namespace

model::Status scale_demand(Scenario& s, double factor, const std::string& generator) {
  const std::string what = "demand scale " + number(factor);
  if (!std::isfinite(factor) || factor <= 0)
    return model::err(what + ": the factor must be a finite number greater than 0");
  const bool all = generator.empty();
  const bool trace = all || generator == kTraceClass;
  bool known = all || (trace && !s.trace_workloads.empty());
  for (const auto& w : s.workloads) known = known || w.name == generator;
  if (!known) {
    std::set<std::string> names;
    for (const auto& w : s.workloads) names.insert(w.name);
    if (!s.trace_workloads.empty()) names.insert(kTraceClass);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return model::err(what + ": no workload class '" + generator + "' (known: " + (list.empty() ? "none" : list) +
                      ")");
  }

  // Compute every new value first, so a refusal leaves the scenario untouched.
  std::vector<Arrival> arrivals;
  arrivals.reserve(s.workloads.size());
  for (const auto& w : s.workloads) {
    Arrival a = w.arrival;
    if (all || w.name == generator) {
      const std::string where = what + ": workloads " + w.name + ": ";
      switch (a.kind) {
        case Arrival::Kind::kPoisson:
          a.rate_per_second *= factor;
          if (!rate_in_range(a.rate_per_second))
            return model::err(where + "the Poisson rate becomes " + number(a.rate_per_second * 3600) +
                              "/h, out of range (expected a mean interval between 1us and 10000d)");
          break;
        case Arrival::Kind::kEvery: {
          const auto every = divided(a.every, factor);
          if (!every || every->us() < 1)
            return model::err(where + "the interval " + a.every.to_string() +
                              " becomes less than 1us or too long (expected at least 1us)");
          a.every = *every;
          break;
        }
        case Arrival::Kind::kAt:
          for (auto& t : a.at) {
            const auto at = divided(t, factor);
            if (!at) return model::err(where + "the arrival at " + t.to_string() + " leaves the time range");
            t = *at;
          }
          break;
      }
    }
    arrivals.push_back(std::move(a));
  }
  std::vector<SimTime> trace_arrivals;
  if (trace) {
    trace_arrivals.reserve(s.trace_workloads.size());
    for (const auto& t : s.trace_workloads) {
      const auto at = divided(t.arrival, factor);
      if (!at) return model::err(what + ": trace workload " + t.name + ": its arrival at " + t.arrival.to_string() +
                                 " leaves the time range");
      trace_arrivals.push_back(*at);
    }
  }
  for (size_t i = 0; i < s.workloads.size(); ++i) s.workloads[i].arrival = std::move(arrivals[i]);
  for (size_t i = 0; i < trace_arrivals.size(); ++i) s.trace_workloads[i].arrival = trace_arrivals[i];
  return model::Ok{};
}

}  // namespace chaintwin::sim
