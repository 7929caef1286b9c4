// Keeps the live mode's view of the cluster current the way client-go's informers do: per kind, a
// list, then a watch from the list's resourceVersion (with bookmarks); a 410 Gone (or an ERROR
// event) relists; a dropped or failed connection reconnects after a backoff with jitter (0.5 s
// doubling to 30 s). Each kind's thread only enqueues what it sees; the model loop drains the queue
// into its mirror (drain) and decodes the mirror when it wants a ClusterState (observed).
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "live/api_client.h"
#include "live/api_paths.h"
#include "live/cluster_reader.h"

namespace chaintwin::live {

class ClusterWatcher {
 public:
  ClusterWatcher(ClusterConnection connection, ClientOptions options);
  ~ClusterWatcher();
  ClusterWatcher(const ClusterWatcher&) = delete;
  ClusterWatcher& operator=(const ClusterWatcher&) = delete;

  // Discovery (which kinds the cluster serves), then one list-and-watch thread per kind.
  model::Status start();
  // Waits up to `timeout` for queued events, then moves every queued event into the mirror.
  // The kinds whose mirror changed. The model loop's thread only.
  std::set<std::string> drain(std::chrono::milliseconds timeout);
  // Waits up to `first` for events; once they come, drains until none has come for `quiet` or
  // `most` has passed (a cluster whose Workloads change all the time still gets reported). The
  // kinds whose mirror changed. The model loop's thread only.
  std::set<std::string> settle(std::chrono::milliseconds first, std::chrono::milliseconds quiet,
                               std::chrono::milliseconds most);
  // Whether every kind has been listed at least once.
  bool synced() const;
  // The mirror decoded into the model's state (missing: what discovery did not find).
  model::Result<ObservedCluster> observed() const;
  int64_t relists() const { return relists_; }
  int64_t reconnects() const { return reconnects_; }
  // The failures of watch threads since the last call ("the watch of Node failed and starts
  // again: …"): a thread never ends on an exception unreported.
  std::vector<std::string> take_failures();

 private:
  struct Item {
    std::string kind;
    std::string type;  // ADDED, MODIFIED, DELETED, or LIST (objects = the whole kind)
    std::vector<nlohmann::json> objects;
  };
  void run(const ApiResource& r);
  void enqueue(Item item);
  void note_failure(std::string what);

  ClusterConnection connection_;
  ClientOptions options_;
  std::vector<ApiResource> kinds_;
  std::vector<std::string> missing_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> relists_{0}, reconnects_{0};
  std::atomic<int> listed_{0};

  std::mutex failure_mutex_;
  std::vector<std::string> failures_;  // guarded by failure_mutex_

  std::mutex queue_mutex_;
  std::condition_variable queued_;
  std::deque<Item> queue_;

  // The mirror: kind → "<namespace>/<name>" → object. The model loop's thread only.
  std::map<std::string, std::map<std::string, nlohmann::json>> mirror_;
};

}  // namespace chaintwin::live
