// Why a pool's pending Workloads wait, grouped: each pending Workload's last Pending message
// reduced to its kind in Kueue's and the operator's words ("insufficient unused quota", "topology
// doesn't fit", "no LocalQueue", ...), counted, most common first. The Pools panel shows the top one
// as a badge beside the pending demand ("407 topology"), every kind in its tooltip. Pure, table-tested in
// tests/viz/pending_reasons_test.cpp.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "viz/snapshot.h"
#include "viz/snapshot_stamp.h"

namespace chaintwin::viz {

// A Workload that waits: pending, or evicted and queued again.
bool is_waiting(const WorkloadRow& w);

// The kind of a pending Workload's wait, from the gate that holds it and its last Pending message.
std::string pending_reason_kind(const std::string& gate, const std::string& message);

// The kind in a word or two, for a badge: "quota", "topology", "no LocalQueue", ...
std::string short_reason(const std::string& kind);

struct ReasonCount {
  std::string kind;
  int count = 0;
  bool operator==(const ReasonCount&) const = default;
};

// The waiting Workloads of `cluster_queue` (pending, or evicted and queued again) by reason kind,
// most first (ties by kind).
std::vector<ReasonCount> pending_reasons(const std::vector<WorkloadRow>& workloads, const std::string& cluster_queue);

// Every pool's reasons, counted once per snapshot (a frame draws the same snapshot many times); the
// Pools panel keeps it in UiState::pool_reasons.
struct PoolReasons {
  SnapshotStamp stamp;
  std::map<std::string, std::vector<ReasonCount>> by_queue;
};
PoolReasons pool_reasons(const Snapshot& s);

}  // namespace chaintwin::viz
