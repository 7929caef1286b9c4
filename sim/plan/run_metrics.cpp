#include "sim/plan/run_metrics.h"

#include <algorithm>
#include <map>

#include "sim/results/report.h"

namespace chaintwin::sim::plan {
namespace {

bool belongs(const Slo& s, const WorkloadOutcome& w) {
  switch (s.subject) {
    case Slo::Subject::kClass: return w.generator == s.name;
    case Slo::Subject::kPool: return w.cluster_queue == s.name;
    case Slo::Subject::kGpuModel: return w.gpu_model == s.name;
    case Slo::Subject::kAll: return true;
  }
  return false;
}

std::optional<WaitPercentile> percentile_of(const WaitStats& w, int32_t p) {
  switch (p) {
    case 50: return w.p50;
    case 90: return w.p90;
    case 95: return w.p95;
    case 99: return w.p99;
    default: return w.max;
  }
}

// The pool the SLO's utilization reads: its credits resource, else its first resource.
const PoolReport* pool_of(const Report& r, const std::string& cluster_queue) {
  const PoolReport* found = nullptr;
  for (const auto& p : r.pools) {
    if (p.cluster_queue != cluster_queue) continue;
    if (p.resource.rfind("credits.gpustack.ai/", 0) == 0) return &p;
    if (found == nullptr) found = &p;
  }
  return found;
}

nlohmann::ordered_json wait_json(const WaitStats& w) {
  nlohmann::ordered_json j;
  j["count"] = w.count;
  j["censored"] = w.censored;
  const auto put = [&](const char* name, const std::optional<WaitPercentile>& p) {
    if (!p) return;
    j[name] = static_cast<double>(p->us) / 1e6;
    if (p->censored) j[std::string(name) + "Censored"] = true;
  };
  put("p50", w.p50);
  put("p90", w.p90);
  put("p95", w.p95);
  put("p99", w.p99);
  put("max", w.max);
  return j;
}

constexpr int kSeriesSamples = 97;

}  // namespace

RunMetrics run_metrics(const Plan& plan, const RunRecord& record) {
  RunMetrics m;
  const Report report = build_report(record);
  const SimTime end = record.info.ended_at;
  for (const Slo& s : plan.slos) {
    MetricValue v;
    if (s.metric == Slo::Metric::kUtilization) {
      if (s.subject == Slo::Subject::kPool) {
        if (const PoolReport* p = pool_of(report, s.name); p && p->utilization) {
          v.value = *p->utilization;
          v.workloads = 1;
        }
      } else {
        for (const auto& g : report.gpu_models)
          if (g.usage.gpu_model == s.name && g.usage.mean_utilization) {
            v.value = *g.usage.mean_utilization;
            v.workloads = 1;
          }
      }
      m.slos.push_back(v);
      continue;
    }
    std::vector<const WorkloadOutcome*> mine;
    for (const auto& w : record.workloads)
      if (belongs(s, w)) mine.push_back(&w);
    int64_t arrived = 0, admitted = 0;
    for (const auto* w : mine) {
      ++arrived;
      if (w->first_admitted) ++admitted;
    }
    v.workloads = arrived;
    if (s.metric == Slo::Metric::kWait) {
      const WaitStats ws = wait_stats(mine, end);
      if (const auto p = percentile_of(ws, s.percentile)) {
        v.value = static_cast<double>(p->us) / 1e6;
        v.censored = p->censored;
      }
    } else if (s.metric == Slo::Metric::kAdmittedFraction) {
      v.value = arrived == 0 ? 1.0 : static_cast<double>(admitted) / static_cast<double>(arrived);
    } else {
      v.value = static_cast<double>(arrived - admitted);
    }
    m.slos.push_back(v);
  }

  nlohmann::ordered_json classes = nlohmann::ordered_json::object();
  for (const auto& c : report.classes) {
    nlohmann::ordered_json j;
    j["arrived"] = c.workloads.workloads;
    j["admitted"] = c.workloads.admitted;
    j["rejected"] = c.workloads.rejected;
    j["pendingAtEnd"] = c.workloads.pending_at_end;
    j["wait"] = wait_json(c.workloads.wait);
    classes[c.generator] = j;
  }
  nlohmann::ordered_json pools = nlohmann::ordered_json::object();
  for (const auto& p : report.pools) {
    nlohmann::ordered_json j;
    j["resource"] = p.resource;
    j["nominalMean"] = p.nominal.mean;
    j["reservedMean"] = p.reserved.mean;
    j["reservedPeak"] = p.reserved.peak;
    if (p.utilization) j["utilization"] = *p.utilization;
    pools[p.cluster_queue + " " + p.resource] = j;
  }
  nlohmann::ordered_json models = nlohmann::ordered_json::object();
  for (const auto& g : report.gpu_models) {
    nlohmann::ordered_json j;
    j["cards"] = g.usage.cards;
    if (g.usage.mean_utilization) j["utilization"] = *g.usage.mean_utilization;
    if (g.usage.mean_fragmentation) j["fragmentation"] = *g.usage.mean_fragmentation;
    j["workloads"] = g.workloads;
    j["neverAdmitted"] = g.never_admitted;
    models[g.usage.gpu_model] = j;
  }
  m.summary["classes"] = classes;
  m.summary["pools"] = pools;
  m.summary["gpuModels"] = models;

  // Each pool's step function read at kSeriesSamples evenly spaced instants.
  std::map<std::string, std::vector<const PoolSample*>> by_pool;
  for (const auto& s : record.pool_series) by_pool[s.cluster_queue + " " + s.resource].push_back(&s);
  m.series = nlohmann::ordered_json::object();
  for (auto& [key, samples] : by_pool) {
    std::stable_sort(samples.begin(), samples.end(), [](const PoolSample* a, const PoolSample* b) { return a->at < b->at; });
    nlohmann::ordered_json t = nlohmann::ordered_json::array(), nominal = t, reserved = t, pending = t;
    size_t i = 0;
    for (int k = 0; k < kSeriesSamples; ++k) {
      const int64_t at = end.us() * k / (kSeriesSamples - 1);
      while (i + 1 < samples.size() && samples[i + 1]->at.us() <= at) ++i;
      const bool before = samples[i]->at.us() > at;
      t.push_back(static_cast<double>(at) / 1e6);
      nominal.push_back(before ? 0 : samples[i]->nominal);
      reserved.push_back(before ? 0 : samples[i]->reserved);
      pending.push_back(before ? 0 : samples[i]->pending_workloads);
    }
    m.series[key] = {{"t_s", t}, {"nominal", nominal}, {"reserved", reserved}, {"pendingWorkloads", pending}};
  }
  return m;
}

nlohmann::ordered_json metrics_json(const std::vector<MetricValue>& values) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& v : values) {
    nlohmann::ordered_json j;
    j["value"] = v.value;
    j["workloads"] = v.workloads;
    if (v.censored) j["censored"] = true;
    out.push_back(j);
  }
  return out;
}

std::vector<MetricValue> metrics_from_json(const nlohmann::json& j) {
  std::vector<MetricValue> out;
  for (const auto& e : j) {
    MetricValue v;
    v.value = e.at("value").get<double>();
    v.workloads = e.at("workloads").get<int64_t>();
    v.censored = e.value("censored", false);
    out.push_back(v);
  }
  return out;
}

}  // namespace chaintwin::sim::plan
