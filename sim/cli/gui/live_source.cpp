#include "sim/cli/gui/live_source.h"

#include "live/drift.h"
#include "sim/explain/explain_run.h"
#include "viz/snapshot_state.h"

namespace chaintwin::cli {

namespace {
constexpr size_t kExplainedNodes = 12;  // Nodes an explanation lists (the roomiest)
}  // namespace

LiveSource::LiveSource(live::ClusterConnection connection, live::ClientOptions options)
    : connection_(connection), watcher_(std::move(connection), std::move(options)) {}

LiveSource::~LiveSource() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

model::Status LiveSource::start() {
  if (auto s = watcher_.start(); !s.ok()) return s;
  thread_ = std::thread([this] { loop(); });
  return model::Ok{};
}

std::shared_ptr<const viz::Snapshot> LiveSource::latest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return latest_;
}

std::string LiveSource::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void LiveSource::send(const viz::Command& c) {
  if (c.kind != viz::Command::Kind::kExplain) return;
  std::lock_guard<std::mutex> lock(mutex_);
  explained_ = c.workload;
  explain_changed_ = true;
}

void LiveSource::loop() {
  bool published = false;
  while (!stop_) {
    const bool synced = watcher_.synced();
    const bool changed = !watcher_.settle(std::chrono::milliseconds(300), std::chrono::milliseconds(150),
                                          std::chrono::seconds(2)).empty();
    if (!synced || (published && !changed && !explain_changed_)) continue;
    explain_changed_ = false;
    if (auto failures = watcher_.take_failures(); !failures.empty()) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = failures.back();
    }
    auto observed = watcher_.observed();
    if (!observed.ok()) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = observed.error();
      continue;
    }
    auto snap = std::make_shared<viz::Snapshot>();
    snap->live = true;
    snap->scenario = "context " + connection_.context;
    snap->source = connection_.server + " at resourceVersion " + observed->resource_version;
    snap->events = observed->objects;
    snap->state_note = "The cluster as the live mode's watches see it; cards and ledgers are the Devices records'.";
    viz::fill_cluster_state(*snap, observed->state, observed->workloads);
    std::string explained;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      explained = explained_;
    }
    if (!explained.empty()) {
      auto told = sim::explain_state(observed->state, observed->workloads, {explained}, false, kExplainedNodes, connection_.server);
      if (told.ok() && !told->stories.empty()) snap->explanation = told->stories.front().explanation;
      else if (!told.ok()) snap->explanation_note = told.error();
      snap->explanation_note += (snap->explanation_note.empty() ? "" : " ") +
                                std::string("The live mode reads no Pods and keeps no history: what would admit it is checked on a snapshot "
                                            "(chaintwin snapshot, then chaintwin explain).");
    }
    auto drift = live::compute_drift(observed->state, live::wall_clock_rfc3339());
    std::lock_guard<std::mutex> lock(mutex_);
    if (drift.ok()) {
      for (const auto& r : drift->rows) snap->drift.push_back({r.kind, r.name, r.verb, r.controller, r.reason});
      error_.clear();
    } else {
      error_ = drift.error();
    }
    latest_ = std::move(snap);
    published = true;
  }
}

}  // namespace chaintwin::cli
