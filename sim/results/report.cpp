#include "sim/results/report.h"

#include <algorithm>
#include <map>
#include <utility>

#include "model/api/int128.h"

namespace chaintwin::sim {
namespace {

using model::i128;

double ratio(i128 numerator, i128 denominator) {
  return static_cast<double>(numerator) / static_cast<double>(denominator);
}

// Integrates one pool's samples (in time order) up to `end`: each sample holds until the next one
// (or the end); a sample at the end holds for no time but counts for the peak, one after it not at all.
PoolReport integrate_pool(const std::vector<const PoolSample*>& samples, SimTime end) {
  PoolReport pool;
  pool.cluster_queue = samples.front()->cluster_queue;
  pool.resource = samples.front()->resource;
  pool.stop_policy_at_end = std::string(model::to_string(samples.back()->stop_policy));
  const int64_t start = samples.front()->at.us();
  i128 nominal = 0, reserved = 0, admitted = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const PoolSample& s = *samples[i];
    const int64_t from = std::min(s.at.us(), end.us());
    const int64_t to = std::min(i + 1 < samples.size() ? samples[i + 1]->at.us() : end.us(), end.us());
    const int64_t width = std::max<int64_t>(0, to - from);
    nominal += static_cast<i128>(s.nominal) * width;
    reserved += static_cast<i128>(s.reserved) * width;
    admitted += static_cast<i128>(s.admitted) * width;
    if (s.stop_policy == model::StopPolicy::kHold) pool.held_us += width;
    if (s.draining) pool.draining_us += width;
    if (s.at > end) continue;  // after the run stopped: not a state the run reached
    if (i == 0) {
      pool.nominal.peak = s.nominal;
      pool.reserved.peak = s.reserved;
      pool.admitted.peak = s.admitted;
    }
    pool.nominal.peak = std::max(pool.nominal.peak, s.nominal);
    pool.reserved.peak = std::max(pool.reserved.peak, s.reserved);
    pool.admitted.peak = std::max(pool.admitted.peak, s.admitted);
  }
  pool.span_us = std::max<int64_t>(0, end.us() - start);
  if (pool.span_us > 0) {
    pool.nominal.mean = ratio(nominal, pool.span_us);
    pool.reserved.mean = ratio(reserved, pool.span_us);
    pool.admitted.mean = ratio(admitted, pool.span_us);
  }
  if (nominal > 0) {
    pool.utilization = ratio(reserved, nominal);
    pool.admitted_utilization = ratio(admitted, nominal);
  }
  return pool;
}

}  // namespace

std::optional<int64_t> nearest_rank(const std::vector<int64_t>& sorted, int32_t percent) {
  if (sorted.empty()) return std::nullopt;
  const int64_t n = static_cast<int64_t>(sorted.size());
  const int64_t rank = std::clamp<int64_t>((percent * n + 99) / 100, 1, n);  // ceil(percent × n / 100)
  return sorted[static_cast<size_t>(rank - 1)];
}

WaitStats wait_stats(const std::vector<const WorkloadOutcome*>& workloads, SimTime end) {
  // (wait, censored): an observed wait sorts before a censored one of the same value, so a rank
  // lands on a censored value only when no observed one could stand there.
  std::vector<std::pair<int64_t, bool>> waits;
  waits.reserve(workloads.size());
  WaitStats stats;
  for (const WorkloadOutcome* w : workloads) {
    if (w->rejected) continue;
    if (w->first_admitted) {
      waits.emplace_back((*w->first_admitted - w->created).us(), false);
    } else {
      waits.emplace_back(std::max<int64_t>(0, (end - w->created).us()), true);
      ++stats.censored;
    }
  }
  std::sort(waits.begin(), waits.end());
  stats.count = static_cast<int64_t>(waits.size());
  if (waits.empty()) return stats;
  const auto at_percent = [&](int32_t percent) {
    const int64_t n = stats.count;
    const int64_t rank = std::clamp<int64_t>((percent * n + 99) / 100, 1, n);  // ceil(percent × n / 100)
    const auto& [us, censored] = waits[static_cast<size_t>(rank - 1)];
    return WaitPercentile{us, censored};
  };
  stats.p50 = at_percent(50);
  stats.p90 = at_percent(90);
  stats.p95 = at_percent(95);
  stats.p99 = at_percent(99);
  stats.max = WaitPercentile{waits.back().first, waits.back().second};
  return stats;
}

WorkloadFigures workload_figures(const std::vector<const WorkloadOutcome*>& workloads, SimTime end) {
  WorkloadFigures f;
  for (const WorkloadOutcome* w : workloads) {
    ++f.workloads;
    f.evictions += w->evictions;
    f.preemptions += w->preemptions;
    f.retries += w->retries;
    if (w->rejected) {
      ++f.rejected;
      continue;
    }
    if (w->first_admitted) ++f.admitted;
    if (w->finished) ++f.finished;
    if (w->admitted_at_end) ++f.running_at_end;
    else if (!w->finished && !w->deleted) ++f.pending_at_end;
  }
  f.wait = wait_stats(workloads, end);
  return f;
}

std::vector<GpuModelReport> gpu_model_reports(const RunRecord& record) {
  std::map<std::string, GpuModelReport> rows;
  for (const auto& m : record.gpu_models) rows[m.gpu_model].usage = m;
  std::map<std::string, std::vector<const WorkloadOutcome*>> mine;
  std::map<std::string, std::map<std::string, int64_t>> gates;
  for (const auto& w : record.workloads) {
    if (w.gpu_model.empty()) continue;
    GpuModelReport& r = rows[w.gpu_model];
    r.usage.gpu_model = w.gpu_model;
    ++r.workloads;
    mine[w.gpu_model].push_back(&w);
    if (w.first_admitted) {
      ++r.admitted;
      if (*w.first_admitted > w.created) ++r.waited;
    } else {
      ++r.never_admitted;
      ++gates[w.gpu_model][w.rejected ? std::string("gate1") : w.last_pending_gate.str()];
      if (!w.rejected) ++r.waited;  // censored at the end
    }
  }
  static const std::vector<std::string> kGateOrder{"gate1", "queue", "gate2", "gate3", "gate4", "gate5"};
  std::vector<GpuModelReport> out;
  for (auto& [key, r] : rows) {
    r.wait = wait_stats(mine[key], record.info.ended_at);
    auto counts = gates[key];
    for (const auto& gate : kGateOrder)
      if (const auto it = counts.find(gate); it != counts.end()) {
        r.never_admitted_by_gate.emplace_back(gate, it->second);
        counts.erase(it);
      }
    for (const auto& [gate, n] : counts) r.never_admitted_by_gate.emplace_back(gate, n);
    out.push_back(std::move(r));
  }
  return out;
}

Report build_report(const RunRecord& record) {
  Report report;
  report.info = record.info;
  report.gpu_models = gpu_model_reports(record);

  std::map<std::string, std::vector<const WorkloadOutcome*>> by_queue, by_class;
  std::vector<const WorkloadOutcome*> all;
  for (const auto& w : record.workloads) {
    by_queue[w.cluster_queue].push_back(&w);
    by_class[w.generator].push_back(&w);
    all.push_back(&w);
  }
  std::map<std::string, WorkloadFigures> queue_figures;
  for (const auto& [queue, list] : by_queue) {
    queue_figures[queue] = workload_figures(list, record.info.ended_at);
    report.queues.push_back({queue, queue_figures[queue]});
  }
  for (const auto& [generator, list] : by_class) report.classes.push_back({generator, workload_figures(list, record.info.ended_at)});
  report.total = workload_figures(all, record.info.ended_at);

  // Samples per pool in time order; at one time, the later sample of the record wins.
  std::map<std::pair<std::string, std::string>, std::vector<const PoolSample*>> by_pool;
  for (const auto& s : record.pool_series) by_pool[{s.cluster_queue, s.resource}].push_back(&s);
  for (auto& [key, samples] : by_pool) {
    std::stable_sort(samples.begin(), samples.end(),
                     [](const PoolSample* a, const PoolSample* b) { return a->at < b->at; });
    PoolReport pool = integrate_pool(samples, record.info.ended_at);
    if (const auto it = queue_figures.find(key.first); it != queue_figures.end()) pool.workloads = it->second;
    report.pools.push_back(std::move(pool));
  }
  return report;
}

}  // namespace chaintwin::sim
