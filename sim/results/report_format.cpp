// report_text() and report_json(): the two faces of a Report (report.h). Text: aligned tables, one
// unit per table (named in its title), durations for people (duration_text.h); JSON: exact integers
// (credits, Kueue units, µs) beside the means.
#include <algorithm>
#include <cstdio>
#include <string_view>

#include "model/credits.h"
#include "model/catalog/label_keys.h"
#include "sim/results/duration_text.h"
#include "sim/results/report.h"
#include "sim/results/text_table.h"

namespace chaintwin::sim {
namespace {

enum class Unit { kCredits, kMilliCpu, kBytes, kCount };

Unit unit_of(std::string_view resource) {
  if (resource.substr(0, model::keys::kCreditsPrefix.size()) == model::keys::kCreditsPrefix) return Unit::kCredits;
  if (resource == "cpu") return Unit::kMilliCpu;
  if (resource == "memory" || resource == "ephemeral-storage") return Unit::kBytes;
  return Unit::kCount;
}

const char* unit_json_name(Unit u) {
  switch (u) {
    case Unit::kCredits: return "credits";
    case Unit::kMilliCpu: return "millicores";
    case Unit::kBytes: return "bytes";
    case Unit::kCount: return "units";
  }
  return "units";
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// An amount of a resource as a number in the unit a reader thinks in (cards, cores, GiB, units).
std::string number(double v, Unit u) {
  switch (u) {
    case Unit::kCredits: return fixed(v / static_cast<double>(model::kUnitsPerAccelerator), 3);
    case Unit::kMilliCpu: return fixed(v / 1000.0, 3);
    case Unit::kBytes: return fixed(v / 1073741824.0, 3);
    case Unit::kCount: return fixed(v, 3);
  }
  return fixed(v, 3);
}

// The unit number() prints in, as a table title or a cell names it.
const char* unit_text(Unit u) {
  switch (u) {
    case Unit::kCredits: return "cards";
    case Unit::kMilliCpu: return "cores";
    case Unit::kBytes: return "GiB";
    case Unit::kCount: return "units";
  }
  return "units";
}

std::string percent(std::optional<double> r) { return r ? fixed(*r * 100.0, 2) + " %" : "-"; }

// A percentile of a wait at a column's precision: "-" without one; a censored one as ">= " and
// its value rounded down (its true value is at least that: the rank fell on a Workload never
// admitted by the end).
std::string wait_text(const std::optional<WaitPercentile>& p, DurationPrecision precision) {
  if (!p) return "-";
  return p->censored ? ">= " + duration_bound_text(p->us, precision, false) : duration_text(p->us, precision);
}

using WaitField = std::optional<WaitPercentile> WaitStats::*;

// The precision of one wait column: over the percentiles the column shows.
DurationPrecision wait_precision(const std::vector<const WaitStats*>& rows, WaitField field) {
  std::vector<int64_t> us;
  for (const WaitStats* w : rows)
    if (const auto& p = w->*field) us.push_back(p->us);
  return column_precision(us);
}

const std::vector<std::string> kFigureHeader{"workloads", "admitted", "running",  "pending",  "finished",
                                             "rejected",  "evictions", "preempted", "retries", "wait p50", "wait p90",
                                             "wait p95",  "wait p99", "wait max", "censored"};

const WaitField kFigureWaits[] = {&WaitStats::p50, &WaitStats::p90, &WaitStats::p95, &WaitStats::p99,
                                  &WaitStats::max};

std::string figure_table(const std::string& first, const std::vector<std::pair<std::string, WorkloadFigures>>& rows) {
  std::vector<std::string> header{first};
  header.insert(header.end(), kFigureHeader.begin(), kFigureHeader.end());
  TextTable t(header, std::string("l") + std::string(kFigureHeader.size(), 'r'));
  std::vector<const WaitStats*> waits;
  for (const auto& row : rows) waits.push_back(&row.second.wait);
  std::vector<DurationPrecision> precision;
  for (const WaitField field : kFigureWaits) precision.push_back(wait_precision(waits, field));
  for (const auto& [name, f] : rows) {
    std::vector<std::string> cells{name.empty() ? "(none)" : name,
                                   std::to_string(f.workloads),
                                   std::to_string(f.admitted),
                                   std::to_string(f.running_at_end),
                                   std::to_string(f.pending_at_end),
                                   std::to_string(f.finished),
                                   std::to_string(f.rejected),
                                   std::to_string(f.evictions),
                                   std::to_string(f.preemptions),
                                   std::to_string(f.retries)};
    for (size_t i = 0; i < precision.size(); ++i) cells.push_back(wait_text(f.wait.*kFigureWaits[i], precision[i]));
    cells.push_back(std::to_string(f.wait.censored));
    t.add(std::move(cells));
  }
  return t.str();
}

nlohmann::ordered_json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json percentile_json(const std::optional<WaitPercentile>& p) {
  if (!p) return nullptr;
  return {{"us", p->us}, {"censored", p->censored}};
}

}  // namespace

nlohmann::ordered_json wait_stats_json(const WaitStats& w) {
  return {{"count", w.count},         {"censored", w.censored},       {"p50", percentile_json(w.p50)},
          {"p90", percentile_json(w.p90)}, {"p95", percentile_json(w.p95)}, {"p99", percentile_json(w.p99)},
          {"max", percentile_json(w.max)}};
}

std::string wait_percentile_text(const std::optional<WaitPercentile>& p, DurationPrecision precision) {
  return wait_text(p, precision);
}

namespace {

nlohmann::ordered_json figures_json(const WorkloadFigures& f) {
  nlohmann::ordered_json j;
  j["workloads"] = f.workloads;
  j["admitted"] = f.admitted;
  j["running_at_end"] = f.running_at_end;
  j["pending_at_end"] = f.pending_at_end;
  j["finished"] = f.finished;
  j["rejected"] = f.rejected;
  j["evictions"] = f.evictions;
  j["preemptions"] = f.preemptions;
  j["retries"] = f.retries;
  j["wait_us"] = wait_stats_json(f.wait);
  return j;
}

nlohmann::ordered_json level_json(const LevelStats& s, Unit u) {
  nlohmann::ordered_json j{{"mean", s.mean}, {"peak", s.peak}};
  if (u == Unit::kCredits) {
    const auto m = static_cast<double>(model::kUnitsPerAccelerator);
    j["mean_cards"] = s.mean / m;
    j["peak_cards"] = static_cast<double>(s.peak) / m;
  }
  return j;
}

std::string typical_text(const GpuModelSummary& m) {
  if (m.typical_cards <= 0) return "-";
  return std::to_string(m.typical_cards) + " × " + number(static_cast<double>(m.typical_credits_per_card), Unit::kCredits);
}

// Where a gate name sorts in the title: the chain's order (gate1, queue, gate2 … gate5), then any
// other name as it came, then "" (no gate).
int gate_rank(const std::string& gate) {
  static const std::vector<std::string> kOrder{"gate1", "queue", "gate2", "gate3", "gate4", "gate5"};
  const auto it = std::find(kOrder.begin(), kOrder.end(), gate);
  if (it != kOrder.end()) return static_cast<int>(it - kOrder.begin());
  return gate.empty() ? 8 : 7;
}

// What a gate name of WorkloadOutcome::last_pending_gate means, for the title of the table that
// prints it ("" is printed "(none)").
std::string gate_meaning(const std::string& gate) {
  if (gate == "gate1") return "gate1 = refused by the Pod webhook";
  if (gate == "queue") return "queue = Kueue found the ClusterQueue inadmissible (missing, inactive or stopped)";
  if (gate == "gate2") return "gate2 = Kueue could not reserve quota (credits or topology)";
  if (gate == "gate3") return "gate3 = the gpustack-node-devices AdmissionCheck answered Retry";
  if (gate == "gate4") return "gate4 = the Pod did not fit its Node";
  if (gate == "gate5") return "gate5 = the device plugin's Allocate failed";
  if (gate.empty()) return "(none) = no gate had held it yet";
  return gate + " = as recorded";
}

// The "GPU models" and "Never admitted, by gate" tables; "" when the run had no GPU model.
std::string gpu_model_tables(const std::vector<GpuModelReport>& models) {
  if (models.empty()) return "";
  std::string out =
      "\nGPU models in cards (from the Devices ledgers; means weighted by time from the model's first sample to the "
      "end; typical request: cards per pod × the share of each card; fragmentation: the share of the free capacity "
      "that cannot take the typical request; waits as in the workload tables; waited: workloads not admitted at "
      "their creation instant)\n";
  TextTable t({"GPU model", "product", "cards", "allocated mean", "allocated peak", "utilization mean",
               "utilization peak", "allocated at end", "typical request", "fragmentation mean",
               "fragmentation at end", "workloads", "waited", "wait p50", "wait p95", "wait max", "censored",
               "never admitted"},
              "llrrrrrrrrrrrrrrrr");
  std::vector<const WaitStats*> waits;
  for (const auto& r : models) waits.push_back(&r.wait);
  const DurationPrecision p50 = wait_precision(waits, &WaitStats::p50);
  const DurationPrecision p95 = wait_precision(waits, &WaitStats::p95);
  const DurationPrecision max = wait_precision(waits, &WaitStats::max);
  for (const auto& r : models) {
    const GpuModelSummary& m = r.usage;
    t.add({m.gpu_model, m.product.empty() ? "-" : m.product, std::to_string(m.cards),
           number(m.mean_allocated, Unit::kCredits), number(static_cast<double>(m.peak_allocated), Unit::kCredits),
           percent(m.mean_utilization), percent(m.peak_utilization), percent(m.final_allocation), typical_text(m),
           percent(m.mean_fragmentation), percent(m.final_fragmentation), std::to_string(r.workloads),
           std::to_string(r.waited), wait_text(r.wait.p50, p50), wait_text(r.wait.p95, p95),
           wait_text(r.wait.max, max), std::to_string(r.wait.censored), std::to_string(r.never_admitted)});
  }
  out += t.str();
  TextTable g({"GPU model", "gate", "workloads"}, "llr");
  std::vector<std::string> printed;  // the gate names the table prints, in each model's order (report.h)
  for (const auto& r : models)
    for (const auto& [gate, n] : r.never_admitted_by_gate) {
      g.add({r.usage.gpu_model, gate.empty() ? "(none)" : gate, std::to_string(n)});
      if (std::find(printed.begin(), printed.end(), gate) == printed.end()) printed.push_back(gate);
    }
  if (printed.empty()) return out + "\nNever admitted, by gate\n(every workload was admitted)\n";
  std::stable_sort(printed.begin(), printed.end(), [](const std::string& a, const std::string& b) {
    return gate_rank(a) < gate_rank(b);
  });
  std::string meanings;
  for (const auto& gate : printed) meanings += (meanings.empty() ? "" : "; ") + gate_meaning(gate);
  out += "\nNever admitted, by gate (the last gate that held the workload: " + meanings + ")\n";
  return out + g.str();
}

nlohmann::ordered_json gpu_model_json(const GpuModelReport& r) {
  const GpuModelSummary& m = r.usage;
  const auto card = static_cast<double>(model::kUnitsPerAccelerator);
  nlohmann::ordered_json j;
  j["gpu_model"] = m.gpu_model;
  j["product"] = m.product;
  j["manufacturer"] = m.manufacturer;
  j["typical_request"] = m.typical_cards > 0 ? nlohmann::ordered_json{{"credits_per_card", m.typical_credits_per_card},
                                                                       {"cards", m.typical_cards}}
                                             : nlohmann::ordered_json(nullptr);
  j["span_us"] = m.span_us;
  j["cards"] = m.cards;
  j["peak_cards"] = m.peak_cards;
  j["allocated"] = {{"mean", m.mean_allocated},
                    {"peak", m.peak_allocated},
                    {"final", m.final_allocated},
                    {"mean_cards", m.mean_allocated / card},
                    {"peak_cards", static_cast<double>(m.peak_allocated) / card},
                    {"final_cards", static_cast<double>(m.final_allocated) / card}};
  j["utilization"] = {{"mean", optional_json(m.mean_utilization)}, {"peak", optional_json(m.peak_utilization)}};
  j["final_allocation"] = optional_json(m.final_allocation);
  j["free_at_end"] = m.final_free;
  j["fragmented_at_end"] = m.final_fragmented;
  j["fragmentation"] = {{"mean", optional_json(m.mean_fragmentation)},
                        {"final", optional_json(m.final_fragmentation)}};
  nlohmann::ordered_json gates = nlohmann::ordered_json::array();
  for (const auto& [gate, n] : r.never_admitted_by_gate) gates.push_back({{"gate", gate}, {"workloads", n}});
  j["workloads"] = {{"workloads", r.workloads},
                    {"admitted", r.admitted},
                    {"waited", r.waited},
                    {"wait_us", wait_stats_json(r.wait)},
                    {"never_admitted", r.never_admitted},
                    {"never_admitted_by_gate", std::move(gates)}};
  return j;
}

// The pools, one table per unit (cards first), each titled with its unit; "(no pool samples)"
// without any.
std::string pool_tables(const std::vector<PoolReport>& pools) {
  if (pools.empty()) return "\nPools\n(no pool samples)\n";
  std::string out;
  for (const Unit u : {Unit::kCredits, Unit::kMilliCpu, Unit::kBytes, Unit::kCount}) {
    std::vector<const PoolReport*> mine;
    for (const auto& p : pools)
      if (unit_of(p.resource) == u) mine.push_back(&p);
    if (mine.empty()) continue;
    out += "\nPools in " + std::string(unit_text(u)) + " (ClusterQueue × resource";
    static_assert(model::kUnitsPerAccelerator == 1'600'000, "the title below spells M");
    if (u == Unit::kCredits) out += ", 1 card = 1,600,000 credits";
    out += "; means weighted by time from the pool's first sample to the end)\n";
    std::vector<int64_t> held, draining;
    for (const PoolReport* p : mine) {
      held.push_back(p->held_us);
      draining.push_back(p->draining_us);
    }
    const DurationPrecision held_precision = column_precision(held), draining_precision = column_precision(draining);
    TextTable t({"ClusterQueue", "resource", "nominal mean", "nominal peak", "reserved mean", "reserved peak",
                 "utilization", "held", "draining", "stop policy at end"},
                "llrrrrrrrl");
    for (const PoolReport* p : mine)
      t.add({p->cluster_queue, p->resource, number(p->nominal.mean, u), number(static_cast<double>(p->nominal.peak), u),
             number(p->reserved.mean, u), number(static_cast<double>(p->reserved.peak), u), percent(p->utilization),
             duration_text(p->held_us, held_precision), duration_text(p->draining_us, draining_precision),
             p->stop_policy_at_end.empty() ? "-" : p->stop_policy_at_end});
    out += t.str();
  }
  return out;
}

}  // namespace

std::string format_resource_amount(double value, const std::string& resource) {
  return number(value, unit_of(resource));
}

std::string resource_unit_text(const std::string& resource) { return unit_text(unit_of(resource)); }

std::string resource_unit_name(const std::string& resource) { return unit_json_name(unit_of(resource)); }

std::string report_text(const Report& r) {
  const RunInfo& i = r.info;
  std::string out = "Run " + i.scenario_name + " (" + i.scenario_file + ", hash " + i.scenario_hash + "), seed " +
                    std::to_string(i.seed) + ", chaintwin " + i.version + "\n";
  out += "Simulated to " + duration_text(i.ended_at.us(), DurationPrecision::kExact) + " of horizon " +
         duration_text(i.horizon.us(), DurationPrecision::kExact) + ", " + std::to_string(i.events) + " events\n";
  out += pool_tables(r.pools);

  std::vector<std::pair<std::string, WorkloadFigures>> rows;
  for (const auto& q : r.queues) rows.emplace_back(q.cluster_queue, q.workloads);
  out += "\nWorkloads by ClusterQueue (counts in workloads; waits from creation to first admission over the "
         "workloads not rejected, nearest rank; a workload never admitted counts at its wait until the end, "
         "censored: \">= \" marks a percentile that fell on one, whose true value is at least that)\n";
  out += figure_table("ClusterQueue", rows);

  rows.clear();
  for (const auto& c : r.classes) rows.emplace_back(c.generator, c.workloads);
  rows.emplace_back("total", r.total);
  out += "\nWorkloads by class\n";
  out += figure_table("class", rows);
  out += gpu_model_tables(r.gpu_models);
  return out;
}

nlohmann::ordered_json report_json(const Report& r) {
  nlohmann::ordered_json j;
  const RunInfo& i = r.info;
  j["run"] = {{"scenario", i.scenario_name}, {"scenario_file", i.scenario_file}, {"scenario_hash", i.scenario_hash},
              {"seed", i.seed},          {"version", i.version},           {"horizon_us", i.horizon.us()},
              {"ended_at_us", i.ended_at.us()}, {"events", i.events}};
  j["pools"] = nlohmann::ordered_json::array();
  for (const auto& p : r.pools) {
    const Unit u = unit_of(p.resource);
    nlohmann::ordered_json pj;
    pj["cluster_queue"] = p.cluster_queue;
    pj["resource"] = p.resource;
    pj["unit"] = unit_json_name(u);
    pj["span_us"] = p.span_us;
    pj["nominal"] = level_json(p.nominal, u);
    pj["reserved"] = level_json(p.reserved, u);
    pj["admitted"] = level_json(p.admitted, u);
    pj["utilization"] = optional_json(p.utilization);
    pj["admitted_utilization"] = optional_json(p.admitted_utilization);
    pj["held_us"] = p.held_us;
    pj["draining_us"] = p.draining_us;
    pj["stop_policy_at_end"] = p.stop_policy_at_end;
    pj["workloads"] = figures_json(p.workloads);
    j["pools"].push_back(std::move(pj));
  }
  j["cluster_queues"] = nlohmann::ordered_json::array();
  for (const auto& q : r.queues)
    j["cluster_queues"].push_back({{"cluster_queue", q.cluster_queue}, {"workloads", figures_json(q.workloads)}});
  j["classes"] = nlohmann::ordered_json::array();
  for (const auto& c : r.classes)
    j["classes"].push_back({{"generator", c.generator}, {"workloads", figures_json(c.workloads)}});
  j["total"] = figures_json(r.total);
  j["gpu_models"] = nlohmann::ordered_json::array();
  for (const auto& m : r.gpu_models) j["gpu_models"].push_back(gpu_model_json(m));
  return j;
}

}  // namespace chaintwin::sim
