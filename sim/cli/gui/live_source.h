// The GUI's source for `chaintwin live --gui`: a real cluster kept current by the live mode's
// watches (live/cluster_watcher.h), with the operator's drift computed on every change, published
// as an immutable viz::Snapshot (the drift listed and marked). Commands are ignored: a real
// cluster has no clock to drive.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "live/cluster_watcher.h"
#include "viz/commands.h"

namespace chaintwin::cli {

class LiveSource : public viz::SnapshotSource, public viz::CommandSink {
 public:
  LiveSource(live::ClusterConnection connection, live::ClientOptions options);
  ~LiveSource() override;
  model::Status start();
  std::shared_ptr<const viz::Snapshot> latest() const override;
  // Only Command::kExplain means anything here (a live cluster has no clock to move).
  void send(const viz::Command& c) override;
  std::string error() const;  // the last failure to read or judge the cluster ("" when none)

 private:
  void loop();
  live::ClusterConnection connection_;
  live::ClusterWatcher watcher_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mutex_;
  std::shared_ptr<const viz::Snapshot> latest_;
  std::string error_;
  std::string explained_;        // guarded by mutex_
  std::atomic<bool> explain_changed_{false};
};

}  // namespace chaintwin::cli
