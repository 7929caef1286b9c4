#include "sim/cli/gui/run_file_source.h"

#include <algorithm>

#include "sim/cluster_objects.h"
#include "viz/drain_spans.h"
#include "viz/snapshot_state.h"

namespace chaintwin::cli {
namespace {

constexpr size_t kEventWindow = 20000;

}  // namespace

viz::WorkloadPhase phase_from_steps(const std::vector<viz::WorkloadStep>& steps, int64_t at_us) {
  viz::WorkloadPhase phase = viz::WorkloadPhase::kPending;
  bool evicted = false;
  for (const auto& s : steps) {
    if (s.at_us > at_us) break;
    if (s.kind == "Admitted") phase = viz::WorkloadPhase::kAdmitted;
    else if (s.kind == "Evicted") evicted = true, phase = viz::WorkloadPhase::kEvicted;
    else if (s.kind == "Finished") phase = viz::WorkloadPhase::kFinished;
    else if (s.kind == "rejected") phase = viz::WorkloadPhase::kRejected;
    else if (s.kind == "Pending" || s.kind == "QuotaReserved" || s.kind == "Requeued")
      phase = evicted ? viz::WorkloadPhase::kEvicted : viz::WorkloadPhase::kPending;
  }
  return phase;
}

model::Result<std::unique_ptr<RunFileSource>> RunFileSource::open(const std::string& path, std::optional<int64_t> run_id) {
  auto run = sim::read_run_file(path, run_id);
  if (!run.ok()) return model::err(run.error());
  std::unique_ptr<RunFileSource> src(new RunFileSource());
  src->path_ = path;
  src->run_ = std::move(run).value();
  std::vector<sim::SourceObject> objects;
  for (const auto& o : src->run_.record.final_objects) objects.push_back({path + " (final_objects)", 0, o, {}});
  auto state = sim::read_cluster_objects(objects, model::Settings{});
  if (!state.ok()) return model::err(path + ": the run's final objects do not read back: " + state.error());
  src->end_state_ = static_cast<model::ClusterState>(state.value());
  src->history_.add_pool_samples(src->run_.record.pool_series);
  for (const auto& e : src->run_.record.events) src->history_.add_event(e);
  src->cursor_us_ = src->run_.record.info.ended_at.us();
  return src;
}

viz::Snapshot RunFileSource::snapshot_at(int64_t at_us) const {
  const sim::RunRecord& r = run_.record;
  viz::Snapshot s;
  s.scenario = r.info.scenario_name;
  s.source = path_ + " (run " + std::to_string(run_.id) + ")";
  s.now_us = at_us;
  s.end_us = r.info.ended_at.us();
  s.finished = at_us >= s.end_us;
  s.from_file = true;
  if (!explained_.empty())
    s.explanation_note = "A run file keeps the events, not the state at each instant: `chaintwin explain --db " + path_ +
                         " " + explained_ + " --at T` makes the run again and explains it.";
  s.state_note = "Read from " + path_ + ": pools' quota and usage, credits, Workloads, drains and events are as of " +
                 "the time shown; Nodes, capacity keys, fit labels, the InstanceType views and the chain graph are " +
                 "those at the end of the run, and cards are not recorded in a run file.";
  // Series and events up to the instant.
  for (const auto& series : history_.series()) {
    viz::PoolSeries cut{series.cluster_queue, series.resource, {}};
    for (const auto& p : series.points)
      if (p.at_us <= at_us) cut.points.push_back(p);
    s.series.push_back(std::move(cut));
  }
  const auto& events = history_.events();
  const auto end = std::upper_bound(events.begin(), events.end(), at_us,
                                    [](int64_t t, const viz::EventRow& e) { return t < e.at_us; });
  s.events = end - events.begin();
  const auto from = end - std::min<std::ptrdiff_t>(end - events.begin(), static_cast<std::ptrdiff_t>(kEventWindow));
  s.events_log.assign(from, end);
  for (const auto& e : history_.expectations())
    if (e.at_us <= at_us) s.expectations.push_back(e);
  // Workloads created by then, each as its steps up to then make it.
  for (auto& row : history_.workload_rows(r.workloads)) {
    if (row.created_us > at_us) continue;
    std::vector<viz::WorkloadStep> steps;
    for (const auto& st : row.history)
      if (st.at_us <= at_us) steps.push_back(st);
    if (row.phase != viz::WorkloadPhase::kRejected) row.phase = phase_from_steps(steps, at_us);
    row.evictions = static_cast<int32_t>(
        std::count_if(steps.begin(), steps.end(), [](const auto& st) { return st.kind == "Evicted"; }));
    row.retries = static_cast<int32_t>(std::count_if(steps.begin(), steps.end(), [](const auto& st) {
      return st.kind == "check" && st.message.find(" Retry: ") != std::string::npos;
    }));
    std::string reason;
    for (const auto& st : steps)
      if (st.kind == "Pending") reason = st.message;
    if (row.phase == viz::WorkloadPhase::kPending || row.phase == viz::WorkloadPhase::kEvicted) {
      if (reason != row.reason) row.gate.clear();  // the recorded gate is that of the last message
      row.reason = reason;
    } else if (row.phase != viz::WorkloadPhase::kRejected) {
      row.gate.clear();
      row.reason.clear();
    }
    row.history = std::move(steps);
    s.workloads.push_back(std::move(row));
  }
  // Pools: identity, views and conditions from the end; quota, usage and policy from the series.
  s.pools = viz::pool_rows(end_state_, {});
  for (auto& pool : s.pools) {
    for (const auto& series : s.series)
      if (series.cluster_queue == pool.cluster_queue && series.resource == pool.resource && !series.points.empty()) {
        const viz::SeriesPoint& p = series.points.back();
        pool.nominal = p.nominal;
        pool.reserved = p.used;
        pool.admitted = p.admitted;
        pool.pending_workloads = p.pending_workloads;
        pool.stop_policy = p.stop_policy;
      }
  }
  s.nodes = viz::node_views(end_state_);
  viz::Snapshot chain;
  viz::fill_cluster_state(chain, end_state_, {});
  s.chain = std::move(chain.chain);
  s.drains = viz::drain_spans(s.series, s.events_log, s.pools, at_us);
  return s;
}

int64_t RunFileSource::cursor_now() const {
  if (!playing_) return cursor_us_;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - play_started_).count();
  return std::min(run_.record.info.ended_at.us(), cursor_us_ + static_cast<int64_t>(wall * speed_ * 1e6));
}

std::shared_ptr<const viz::Snapshot> RunFileSource::latest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const int64_t at = cursor_now();
  const auto now = std::chrono::steady_clock::now();
  const bool stale = cache_ == nullptr || cache_->now_us != at || cache_->playing != playing_ || cache_->speed != speed_;
  if (stale && (cache_ == nullptr || !playing_ || now - built_at_ > std::chrono::milliseconds(100))) {
    auto snap = std::make_shared<viz::Snapshot>(snapshot_at(at));
    snap->playing = playing_;
    snap->speed = speed_;
    cache_ = std::move(snap);
    built_at_ = now;
  }
  return cache_;
}

void RunFileSource::seek(int64_t at_us) {
  std::lock_guard<std::mutex> lock(mutex_);
  playing_ = false;
  cursor_us_ = std::clamp<int64_t>(at_us, 0, run_.record.info.ended_at.us());
}

void RunFileSource::send(const viz::Command& c) {
  std::lock_guard<std::mutex> lock(mutex_);
  cursor_us_ = cursor_now();
  play_started_ = std::chrono::steady_clock::now();
  switch (c.kind) {
    case viz::Command::Kind::kPlay: playing_ = cursor_us_ < run_.record.info.ended_at.us(); break;
    case viz::Command::Kind::kPause: playing_ = false; break;
    case viz::Command::Kind::kSpeed: speed_ = c.speed > 0 ? c.speed : speed_; break;
    case viz::Command::Kind::kSeek:
      playing_ = false;
      cursor_us_ = std::clamp<int64_t>(c.at_us, 0, run_.record.info.ended_at.us());
      break;
    case viz::Command::Kind::kExplain:
      explained_ = c.workload;
      cache_.reset();
      break;
    case viz::Command::Kind::kStep: {
      playing_ = false;
      const auto& events = history_.events();
      const auto next = std::upper_bound(events.begin(), events.end(), cursor_us_,
                                         [](int64_t t, const viz::EventRow& e) { return t < e.at_us; });
      if (next != events.end()) cursor_us_ = next->at_us;
      break;
    }
  }
}

}  // namespace chaintwin::cli
