#include "sim/results/report_diff.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "sim/results/text_table.h"

namespace chaintwin::sim {
namespace {

using Kind = FigureDiff::Kind;

FigureDiff count(std::string name, std::optional<int64_t> a, std::optional<int64_t> b) {
  FigureDiff f;
  f.name = std::move(name);
  f.kind = Kind::kCount;
  f.a_count = a;
  f.b_count = b;
  return f;
}

FigureDiff duration(std::string name, std::optional<int64_t> a, std::optional<int64_t> b) {
  FigureDiff f = count(std::move(name), a, b);
  f.kind = Kind::kDuration;
  return f;
}

FigureDiff ratio(std::string name, std::optional<double> a, std::optional<double> b) {
  FigureDiff f;
  f.name = std::move(name);
  f.kind = Kind::kRatio;
  f.a_value = a;
  f.b_value = b;
  return f;
}

FigureDiff amount(std::string name, std::string resource, std::optional<double> a, std::optional<double> b) {
  FigureDiff f = ratio(std::move(name), a, b);
  f.kind = Kind::kAmount;
  f.resource = std::move(resource);
  return f;
}

FigureDiff wait(std::string name, const std::optional<WaitPercentile>& a, const std::optional<WaitPercentile>& b) {
  FigureDiff f;
  f.name = std::move(name);
  f.kind = Kind::kWait;
  f.a_wait = a;
  f.b_wait = b;
  return f;
}

template <typename T>
std::optional<T> when(bool present, T v) {
  return present ? std::optional<T>(v) : std::nullopt;
}

std::vector<FigureDiff> pool_figures(const PoolReport* a, const PoolReport* b) {
  const std::string& resource = a ? a->resource : b->resource;
  const auto mean = [](const PoolReport* p, const LevelStats PoolReport::*level) {
    return p ? std::optional<double>((p->*level).mean) : std::nullopt;
  };
  const auto peak = [](const PoolReport* p, const LevelStats PoolReport::*level) {
    return p ? std::optional<double>(static_cast<double>((p->*level).peak)) : std::nullopt;
  };
  return {ratio("utilization", a ? a->utilization : std::nullopt, b ? b->utilization : std::nullopt),
          amount("nominal mean", resource, mean(a, &PoolReport::nominal), mean(b, &PoolReport::nominal)),
          amount("nominal peak", resource, peak(a, &PoolReport::nominal), peak(b, &PoolReport::nominal)),
          amount("reserved mean", resource, mean(a, &PoolReport::reserved), mean(b, &PoolReport::reserved)),
          amount("reserved peak", resource, peak(a, &PoolReport::reserved), peak(b, &PoolReport::reserved)),
          duration("held", when(a != nullptr, a ? a->held_us : 0), when(b != nullptr, b ? b->held_us : 0)),
          duration("draining", when(a != nullptr, a ? a->draining_us : 0), when(b != nullptr, b ? b->draining_us : 0))};
}

std::vector<FigureDiff> workload_figures_diff(const WorkloadFigures* a, const WorkloadFigures* b) {
  const auto n = [](const WorkloadFigures* f, int64_t WorkloadFigures::*field) {
    return f ? std::optional<int64_t>(f->*field) : std::nullopt;
  };
  static const std::optional<WaitPercentile> kNone;
  const auto w = [](const WorkloadFigures* f, std::optional<WaitPercentile> WaitStats::*p)
      -> const std::optional<WaitPercentile>& { return f ? f->wait.*p : kNone; };
  return {count("arrived", n(a, &WorkloadFigures::workloads), n(b, &WorkloadFigures::workloads)),
          count("admitted", n(a, &WorkloadFigures::admitted), n(b, &WorkloadFigures::admitted)),
          count("rejected", n(a, &WorkloadFigures::rejected), n(b, &WorkloadFigures::rejected)),
          count("pending at end", n(a, &WorkloadFigures::pending_at_end), n(b, &WorkloadFigures::pending_at_end)),
          count("evictions", n(a, &WorkloadFigures::evictions), n(b, &WorkloadFigures::evictions)),
          count("retries", n(a, &WorkloadFigures::retries), n(b, &WorkloadFigures::retries)),
          wait("wait p50", w(a, &WaitStats::p50), w(b, &WaitStats::p50)),
          wait("wait p95", w(a, &WaitStats::p95), w(b, &WaitStats::p95)),
          wait("wait p99", w(a, &WaitStats::p99), w(b, &WaitStats::p99)),
          count("censored", a ? std::optional<int64_t>(a->wait.censored) : std::nullopt,
                b ? std::optional<int64_t>(b->wait.censored) : std::nullopt)};
}

std::vector<FigureDiff> gpu_model_figures(const GpuModelReport* a, const GpuModelReport* b) {
  const auto n = [](const GpuModelReport* r, auto get) { return r ? std::optional<int64_t>(get(*r)) : std::nullopt; };
  const auto v = [](const GpuModelReport* r, auto get) { return r ? get(*r) : std::optional<double>(); };
  static const std::optional<WaitPercentile> kNone;
  const auto w = [](const GpuModelReport* r, std::optional<WaitPercentile> WaitStats::*p)
      -> const std::optional<WaitPercentile>& { return r ? r->wait.*p : kNone; };
  const auto cards = [](const GpuModelReport& r) { return r.usage.cards; };
  const auto arrived = [](const GpuModelReport& r) { return r.workloads; };
  const auto admitted = [](const GpuModelReport& r) { return r.admitted; };
  const auto never = [](const GpuModelReport& r) { return r.never_admitted; };
  const auto utilization = [](const GpuModelReport& r) { return r.usage.mean_utilization; };
  const auto fragmentation = [](const GpuModelReport& r) { return r.usage.mean_fragmentation; };
  return {count("cards at end", n(a, cards), n(b, cards)),
          ratio("utilization", v(a, utilization), v(b, utilization)),
          ratio("fragmentation", v(a, fragmentation), v(b, fragmentation)),
          count("arrived", n(a, arrived), n(b, arrived)),
          count("admitted", n(a, admitted), n(b, admitted)),
          count("never admitted", n(a, never), n(b, never)),
          wait("wait p50", w(a, &WaitStats::p50), w(b, &WaitStats::p50)),
          wait("wait p95", w(a, &WaitStats::p95), w(b, &WaitStats::p95))};
}

// Joins two sorted lists of rows on their key.
template <typename Row, typename KeyOf, typename Figures>
std::vector<RowDiff> join_rows(const std::vector<Row>& a, const std::vector<Row>& b, KeyOf key_of, Figures figures) {
  std::map<std::vector<std::string>, std::pair<const Row*, const Row*>> rows;
  for (const auto& r : a) rows[key_of(r)].first = &r;
  for (const auto& r : b) rows[key_of(r)].second = &r;
  std::vector<RowDiff> out;
  for (const auto& [key, pair] : rows) {
    RowDiff d;
    d.key = key;
    d.in_a = pair.first != nullptr;
    d.in_b = pair.second != nullptr;
    d.figures = figures(pair.first, pair.second);
    out.push_back(std::move(d));
  }
  return out;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string signed_text(const std::string& magnitude, bool negative) { return (negative ? "-" : "+") + magnitude; }

// B − A of a wait: exact, or a bound when a side is censored ("exact", "at_least", "at_most",
// "unknown"); nullopt when a side has no wait.
std::optional<std::pair<int64_t, const char*>> wait_difference(const FigureDiff& f) {
  if (!f.a_wait || !f.b_wait) return std::nullopt;
  const int64_t d = f.b_wait->us - f.a_wait->us;
  if (f.a_wait->censored && f.b_wait->censored) return std::make_pair(d, "unknown");
  if (f.b_wait->censored) return std::make_pair(d, "at_least");
  if (f.a_wait->censored) return std::make_pair(d, "at_most");
  return std::make_pair(d, "exact");
}

// The precision of a duration or wait row: A, B and B − A are one figure, printed alike.
DurationPrecision row_precision(const FigureDiff& f) {
  std::vector<int64_t> us;
  if (f.kind == Kind::kDuration) {
    for (const auto& v : {f.a_count, f.b_count})
      if (v) us.push_back(*v);
    if (f.a_count && f.b_count) us.push_back(*f.b_count - *f.a_count);
  } else if (f.kind == Kind::kWait) {
    for (const auto& w : {f.a_wait, f.b_wait})
      if (w) us.push_back(w->us);
    if (const auto d = wait_difference(f)) us.push_back(d->first);
  }
  return column_precision(us);
}

// A signed duration: "+5m03s", "-0.02s"; 0 as "0".
std::string signed_duration(int64_t d, DurationPrecision p) {
  if (d == 0) return "0";
  return (d > 0 ? "+" : "") + duration_text(d, p);
}

std::string value_text(const FigureDiff& f, bool side_a) {
  switch (f.kind) {
    case Kind::kCount: {
      const auto& v = side_a ? f.a_count : f.b_count;
      return v ? std::to_string(*v) : "-";
    }
    case Kind::kDuration: {
      const auto& v = side_a ? f.a_count : f.b_count;
      return v ? duration_text(*v, row_precision(f)) : "-";
    }
    case Kind::kWait: return wait_percentile_text(side_a ? f.a_wait : f.b_wait, row_precision(f));
    case Kind::kRatio: {
      const auto& v = side_a ? f.a_value : f.b_value;
      return v ? fixed(*v * 100.0, 2) + " %" : "-";
    }
    case Kind::kAmount: {
      const auto& v = side_a ? f.a_value : f.b_value;
      return v ? format_resource_amount(*v, f.resource) : "-";
    }
  }
  return "-";
}

std::string difference_text(const FigureDiff& f, const RowDiff& row) {
  if (!row.in_a) return "(only in B)";
  if (!row.in_b) return "(only in A)";
  switch (f.kind) {
    case Kind::kCount: {
      if (!f.a_count || !f.b_count) return "-";
      const int64_t d = *f.b_count - *f.a_count;
      if (d == 0) return "0";
      return signed_text(std::to_string(d < 0 ? -d : d), d < 0);
    }
    case Kind::kDuration:
      if (!f.a_count || !f.b_count) return "-";
      return signed_duration(*f.b_count - *f.a_count, row_precision(f));
    case Kind::kWait: {
      const auto d = wait_difference(f);
      if (!d) return f.a_wait || f.b_wait ? "-" : "0";
      const std::string bound = d->second;
      if (bound == "unknown") return "? (both censored)";
      const DurationPrecision p = row_precision(f);
      if (bound == "exact") return signed_duration(d->first, p);
      // A bound is rounded the way that keeps it true: at least → down, at most → up.
      const bool up = bound == "at_most";
      const std::string shown = duration_bound_text(d->first, p, up);
      const bool positive = shown != "0s" && shown[0] != '-';
      return (up ? "<= " : ">= ") + std::string(positive ? "+" : "") + shown;
    }
    case Kind::kRatio:
    case Kind::kAmount: {
      if (!f.a_value || !f.b_value) return f.a_value || f.b_value ? "-" : "0";
      const double d = *f.b_value - *f.a_value;
      if (d == 0) return "0";
      if (f.kind == Kind::kRatio) return signed_text(fixed((d < 0 ? -d : d) * 100.0, 2) + " pp", d < 0);
      return signed_text(format_resource_amount(d < 0 ? -d : d, f.resource), d < 0);
    }
  }
  return "-";
}

std::string section(const std::string& title, const std::vector<std::string>& key_header,
                    const std::vector<const RowDiff*>& rows) {
  std::vector<std::string> header = key_header;
  for (const char* h : {"figure", "A", "B", "B − A"}) header.emplace_back(h);
  TextTable t(header, std::string(key_header.size() + 1, 'l') + "rrr");
  for (const RowDiff* row : rows)
    for (const auto& f : row->figures) {
      std::vector<std::string> cells;
      for (const auto& k : row->key) cells.push_back(k.empty() ? "(none)" : k);
      cells.push_back(f.name);
      cells.push_back(value_text(f, true));
      cells.push_back(value_text(f, false));
      cells.push_back(difference_text(f, *row));
      t.add(std::move(cells));
    }
  return "\n" + title + "\n" + (rows.empty() ? std::string("(none)\n") : t.str());
}

std::vector<const RowDiff*> all_of(const std::vector<RowDiff>& rows) {
  std::vector<const RowDiff*> out;
  for (const auto& r : rows) out.push_back(&r);
  return out;
}

// The pool rows, one section per unit (cards first), each titled with its unit.
std::string pool_sections(const std::vector<RowDiff>& pools) {
  if (pools.empty()) return section("Pools", {"ClusterQueue", "resource"}, {});
  std::vector<std::string> units;  // in the order "cards", then the others as they come
  units.emplace_back("cards");
  for (const auto& r : pools) {
    const std::string u = resource_unit_text(r.key.at(1));
    if (std::find(units.begin(), units.end(), u) == units.end()) units.push_back(u);
  }
  std::string out;
  for (const auto& u : units) {
    std::vector<const RowDiff*> mine;
    for (const auto& r : pools)
      if (resource_unit_text(r.key.at(1)) == u) mine.push_back(&r);
    if (mine.empty()) continue;
    out += section("Pools in " + u + " (ClusterQueue × resource" +
                       (u == "cards" ? std::string(", 1 card = 1,600,000 credits") : std::string()) +
                       "; utilization differences in percentage points)",
                   {"ClusterQueue", "resource"}, mine);
  }
  return out;
}

nlohmann::ordered_json wait_json(const std::optional<WaitPercentile>& p) {
  if (!p) return nullptr;
  return {{"us", p->us}, {"censored", p->censored}};
}

nlohmann::ordered_json figure_json(const FigureDiff& f, const RowDiff& row) {
  nlohmann::ordered_json j;
  j["figure"] = f.name;
  const bool both = row.in_a && row.in_b;
  switch (f.kind) {
    case Kind::kCount:
    case Kind::kDuration:
      j["unit"] = f.kind == Kind::kCount ? "workloads" : "us";
      j["a"] = f.a_count ? nlohmann::ordered_json(*f.a_count) : nlohmann::ordered_json(nullptr);
      j["b"] = f.b_count ? nlohmann::ordered_json(*f.b_count) : nlohmann::ordered_json(nullptr);
      j["difference"] = both && f.a_count && f.b_count ? nlohmann::ordered_json(*f.b_count - *f.a_count)
                                                       : nlohmann::ordered_json(nullptr);
      break;
    case Kind::kWait: {
      j["unit"] = "us";
      j["a"] = wait_json(f.a_wait);
      j["b"] = wait_json(f.b_wait);
      const auto d = both ? wait_difference(f) : std::nullopt;
      j["difference"] = d ? nlohmann::ordered_json{{"us", d->first}, {"bound", d->second}} : nlohmann::ordered_json(nullptr);
      break;
    }
    case Kind::kRatio:
    case Kind::kAmount:
      j["unit"] = f.kind == Kind::kRatio ? "ratio" : resource_unit_name(f.resource);
      j["a"] = f.a_value ? nlohmann::ordered_json(*f.a_value) : nlohmann::ordered_json(nullptr);
      j["b"] = f.b_value ? nlohmann::ordered_json(*f.b_value) : nlohmann::ordered_json(nullptr);
      j["difference"] = both && f.a_value && f.b_value ? nlohmann::ordered_json(*f.b_value - *f.a_value)
                                                       : nlohmann::ordered_json(nullptr);
      break;
  }
  j["differs"] = !both || f.differs();
  return j;
}

nlohmann::ordered_json rows_json(const std::vector<RowDiff>& rows, const std::vector<std::string>& key_names) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& row : rows) {
    nlohmann::ordered_json j;
    for (size_t i = 0; i < key_names.size() && i < row.key.size(); ++i) j[key_names[i]] = row.key[i];
    j["in"] = row.in_a && row.in_b ? "both" : row.in_a ? "a" : "b";
    j["figures"] = nlohmann::ordered_json::array();
    for (const auto& f : row.figures) j["figures"].push_back(figure_json(f, row));
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::ordered_json run_json(const RunInfo& i) {
  return {{"scenario", i.scenario_name}, {"scenario_file", i.scenario_file}, {"scenario_hash", i.scenario_hash},
          {"seed", i.seed},          {"version", i.version},           {"ended_at_us", i.ended_at.us()},
          {"events", i.events}};
}

std::string run_text(const char* side, const RunInfo& i) {
  return std::string(side) + ": " + i.scenario_name + " (" + i.scenario_file + ", hash " + i.scenario_hash +
         "), seed " + std::to_string(i.seed) + ", simulated to " +
         duration_text(i.ended_at.us(), DurationPrecision::kExact) + ", " +
         std::to_string(i.events) + " events\n";
}

}  // namespace

bool FigureDiff::differs() const {
  const auto same_wait = [](const std::optional<WaitPercentile>& x, const std::optional<WaitPercentile>& y) {
    if (!x || !y) return !x && !y;
    return x->us == y->us && x->censored == y->censored;
  };
  return a_count != b_count || a_value != b_value || !same_wait(a_wait, b_wait);
}

int64_t ReportDiff::differences() const {
  int64_t n = 0;
  for (const auto* rows : {&pools, &queues, &classes})
    for (const auto& row : *rows)
      for (const auto& f : row.figures) n += !row.in_a || !row.in_b || f.differs() ? 1 : 0;
  return n;
}

ReportDiff diff_reports(const Report& a, const Report& b) {
  ReportDiff d;
  d.a = a.info;
  d.b = b.info;
  d.pools = join_rows(
      a.pools, b.pools, [](const PoolReport& p) { return std::vector<std::string>{p.cluster_queue, p.resource}; },
      [](const PoolReport* x, const PoolReport* y) { return pool_figures(x, y); });
  d.queues = join_rows(
      a.queues, b.queues, [](const QueueReport& q) { return std::vector<std::string>{q.cluster_queue}; },
      [](const QueueReport* x, const QueueReport* y) {
        return workload_figures_diff(x ? &x->workloads : nullptr, y ? &y->workloads : nullptr);
      });
  d.classes = join_rows(
      a.classes, b.classes, [](const ClassReport& c) { return std::vector<std::string>{c.generator}; },
      [](const ClassReport* x, const ClassReport* y) {
        return workload_figures_diff(x ? &x->workloads : nullptr, y ? &y->workloads : nullptr);
      });
  d.gpu_models = join_rows(
      a.gpu_models, b.gpu_models, [](const GpuModelReport& g) { return std::vector<std::string>{g.usage.gpu_model}; },
      [](const GpuModelReport* x, const GpuModelReport* y) { return gpu_model_figures(x, y); });
  return d;
}

std::string figure_value_text(const FigureDiff& f, bool side_a) { return value_text(f, side_a); }
std::string figure_difference_text(const FigureDiff& f, const RowDiff& row) { return difference_text(f, row); }

std::string report_diff_text(const ReportDiff& d) {
  std::string out = "Comparison of two runs (B − A; waits from creation to first admission over the workloads "
                    "not rejected, nearest rank, a workload never admitted censored at the end: \">= \" marks such "
                    "a percentile, and a difference involving one is a bound)\n";
  out += run_text("A", d.a);
  out += run_text("B", d.b);
  out += pool_sections(d.pools);
  out += section("Workloads by ClusterQueue", {"ClusterQueue"}, all_of(d.queues));
  out += section("Workloads by class", {"class"}, all_of(d.classes));
  const int64_t n = d.differences();
  out += "\n" + std::to_string(n) + (n == 1 ? " figure differs\n" : " figures differ\n");
  return out;
}

nlohmann::ordered_json report_diff_json(const ReportDiff& d) {
  nlohmann::ordered_json j;
  j["a"] = run_json(d.a);
  j["b"] = run_json(d.b);
  j["pools"] = rows_json(d.pools, {"cluster_queue", "resource"});
  j["cluster_queues"] = rows_json(d.queues, {"cluster_queue"});
  j["classes"] = rows_json(d.classes, {"generator"});
  j["differences"] = d.differences();
  return j;
}

}  // namespace chaintwin::sim
