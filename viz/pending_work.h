// The Pending work view: the Workloads that wait (pending, or evicted and queued again), filtered by
// ClusterQueue and text, sorted by a column, and grouped by the kind of their wait ("407 × topology
// doesn't fit") with the full message on demand; for each, how long it has waited since it last
// entered the queue, what it asks, its place in its queue and, when it was evicted, why. Pure,
// table-tested in tests/viz/pending_work_test.cpp; the panel is panels/pending_panel.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viz/snapshot.h"

namespace chaintwin::viz {

enum class PendingSort { kWorkload, kClusterQueue, kWait, kRequested, kPosition, kEvictions, kReason };

struct PendingQuery {
  std::string cluster_queue;  // "" for every ClusterQueue
  std::string text;           // a substring of the Workload, its ClusterQueue or its message; "" for all
  PendingSort sort = PendingSort::kPosition;
  bool descending = false;
};

struct PendingItem {
  size_t row = 0;          // into the Workload rows
  int64_t waiting_us = 0;  // now − queued_since
  std::string kind;        // pending_reason_kind of its gate and message
  std::string eviction;    // its last Evicted step's message, "" when never evicted (or no history)
  bool operator==(const PendingItem&) const = default;
};

// When a Workload last entered its queue: its last Evicted or Requeued step, else its creation.
int64_t queued_since(const WorkloadRow& w);
// The message of its last Evicted step ("Preempted: ...", "AdmissionCheck: ..."), "" when none.
std::string last_eviction(const WorkloadRow& w);

// The waiting Workloads the query keeps, in its order (ties by queue, then position, then key).
std::vector<PendingItem> pending_items(const std::vector<WorkloadRow>& rows, int64_t now_us, const PendingQuery& query);

struct PendingGroup {
  std::string kind;
  std::vector<size_t> items;  // into the items, in their order
  bool operator==(const PendingGroup&) const = default;
};
// The items by kind of wait, the largest group first (ties by kind).
std::vector<PendingGroup> group_by_reason(const std::vector<PendingItem>& items);

}  // namespace chaintwin::viz
