// The GUI's source for a finished run read from its SQLite results file (`chaintwin gui --db`).
// The file records the pool series, the event log and each Workload's outcome, so pools' quota and
// usage, credits over time, Workloads, drains and events are shown as of any instant; it records
// the cluster only as it stood at the end (no Devices ledgers), so Nodes, capacity keys, fit
// labels, the InstanceType views and the chain graph are those of the end, and cards are absent.
// Seek and step move a cursor; play moves it with the wall clock.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>

#include "model/cluster_state.h"
#include "sim/cli/gui/run_history.h"
#include "sim/results/run_file_reader.h"
#include "viz/commands.h"

namespace chaintwin::cli {

class RunFileSource : public viz::SnapshotSource, public viz::CommandSink {
 public:
  static model::Result<std::unique_ptr<RunFileSource>> open(const std::string& path, std::optional<int64_t> run_id);

  std::shared_ptr<const viz::Snapshot> latest() const override;
  void send(const viz::Command& command) override;
  // The snapshot at `at_us` (a pure function of the file's contents).
  viz::Snapshot snapshot_at(int64_t at_us) const;
  void seek(int64_t at_us);

 private:
  RunFileSource() = default;
  int64_t cursor_now() const;  // with the mutex held

  std::string path_;
  sim::StoredRun run_;
  model::ClusterState end_state_;
  std::string explained_;  // the Workload the window asked to explain (guarded by mutex_)
  RunHistory history_;  // every event and sample of the run

  mutable std::mutex mutex_;
  int64_t cursor_us_ = 0;
  bool playing_ = false;
  double speed_ = 600;
  std::chrono::steady_clock::time_point play_started_;
  mutable std::shared_ptr<const viz::Snapshot> cache_;
  mutable std::chrono::steady_clock::time_point built_at_;
};

// A Workload's phase at `at_us` from its steps in the event log (arrival, QuotaReserved,
// Admitted, Evicted, Finished, rejected, ...).
viz::WorkloadPhase phase_from_steps(const std::vector<viz::WorkloadStep>& steps, int64_t at_us);

}  // namespace chaintwin::cli
