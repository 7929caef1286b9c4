#include "sim/cli/gui/run_history.h"

#include "viz/snapshot_state.h"

namespace chaintwin::cli {

void RunHistory::add_pool_samples(const std::deque<sim::PoolSample>& pool_series) {
  for (; consumed_ < pool_series.size(); ++consumed_) {
    const sim::PoolSample& s = pool_series[consumed_];
    const std::string key = s.cluster_queue + "|" + s.resource;
    auto it = series_index_.find(key);
    if (it == series_index_.end()) {
      it = series_index_.emplace(key, series_.size()).first;
      series_.push_back({s.cluster_queue, s.resource, {}});
    }
    series_[it->second].points.push_back({s.at.us(), s.nominal, s.reserved, s.admitted, s.pending_workloads,
                                          viz::stop_policy_of(s.stop_policy), s.draining});
  }
}

void RunHistory::add_event(const sim::EventRecord& e) {
  events_.push_back({e.at.us(), e.kind, e.object, e.message});
  if (e.kind == "expect") expectations_.push_back(events_.back());
  if (e.object.rfind("Workload ", 0) == 0) steps_[e.object.substr(9)].push_back({e.at.us(), e.kind, e.message});
}

std::vector<viz::WorkloadRow> RunHistory::workload_rows(const std::deque<sim::WorkloadOutcome>& outcomes) const {
  std::vector<viz::WorkloadRow> rows;
  rows.reserve(outcomes.size());
  for (const auto& o : outcomes) {
    viz::WorkloadRow r;
    r.key = o.key;
    r.cluster_queue = o.cluster_queue;
    r.created_us = o.created.us();
    r.evictions = o.evictions;
    r.retries = o.retries;
    if (o.rejected) {
      r.phase = viz::WorkloadPhase::kRejected;
      r.gate = "gate1";
      r.reason = o.reject_message;
    } else {
      // What the outcome knows; the live state refines it for the Workloads still there.
      if (o.finished) r.phase = viz::WorkloadPhase::kFinished;
      else if (o.first_admitted) r.phase = viz::WorkloadPhase::kAdmitted;
      else r.phase = o.evictions > 0 ? viz::WorkloadPhase::kEvicted : viz::WorkloadPhase::kPending;
      r.gate = o.last_pending_gate;
      r.reason = o.last_pending_message;
    }
    if (const auto it = steps_.find(o.key); it != steps_.end()) r.history = it->second;
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<viz::EventRow> RunHistory::last_events(size_t n) const {
  const size_t from = events_.size() > n ? events_.size() - n : 0;
  return {events_.begin() + static_cast<std::ptrdiff_t>(from), events_.end()};
}

}  // namespace chaintwin::cli
