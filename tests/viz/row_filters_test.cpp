#include <catch2/catch.hpp>

#include "viz/event_filter.h"
#include "viz/workload_filter.h"

using namespace chaintwin::viz;

TEST_CASE("each Workloads view lists the rows in its phase, evicted-or-retried by history", "[viz][workloads]") {
  std::vector<WorkloadRow> rows(5);
  rows[0].phase = WorkloadPhase::kPending;
  rows[1].phase = WorkloadPhase::kAdmitted;
  rows[1].retries = 1;
  rows[2].phase = WorkloadPhase::kEvicted;
  rows[2].evictions = 2;
  rows[3].phase = WorkloadPhase::kFinished;
  rows[4].phase = WorkloadPhase::kRejected;
  struct Row {
    WorkloadView view;
    std::vector<size_t> want;
  };
  const Row table[] = {{WorkloadView::kAll, {0, 1, 2, 3, 4}}, {WorkloadView::kPending, {0}},
                       {WorkloadView::kAdmitted, {1}},          {WorkloadView::kEvictedOrRetried, {1, 2}},
                       {WorkloadView::kFinished, {3}},          {WorkloadView::kRejected, {4}}};
  for (const auto& row : table) {
    INFO(static_cast<int>(row.view));
    CHECK(workload_rows(rows, row.view) == row.want);
  }
}

TEST_CASE("a selected pool narrows every Workloads view to its ClusterQueue", "[viz][workloads]") {
  std::vector<WorkloadRow> rows(4);
  rows[0].cluster_queue = "a";
  rows[1].cluster_queue = "b";
  rows[2].cluster_queue = "a";
  rows[2].phase = WorkloadPhase::kAdmitted;
  rows[3].cluster_queue = "b";
  rows[3].phase = WorkloadPhase::kAdmitted;
  CHECK(workload_rows(rows, WorkloadView::kAll, "a") == std::vector<size_t>{0, 2});
  CHECK(workload_rows(rows, WorkloadView::kAdmitted, "b") == std::vector<size_t>{3});
  CHECK(workload_rows(rows, WorkloadView::kAll, "") == std::vector<size_t>{0, 1, 2, 3});
  CHECK(workload_rows(rows, WorkloadView::kAll, "c").empty());
}

TEST_CASE("the event log filter matches kind, object or message without regard to case", "[viz][events]") {
  const std::vector<EventRow> events = {{0, "arrival", "Workload a/x", "queued on LocalQueue lq"},
                                        {1, "Evicted", "Workload a/y", "ClusterQueueStopped: The ClusterQueue is stopped"},
                                        {2, "write", "ClusterQueue q", "update by InstanceType: spec.inactive=true: hold the queue"}};
  struct Row {
    const char* filter;
    std::vector<size_t> want;
  };
  const Row table[] = {{"", {0, 1, 2}}, {"evicted", {1}}, {"CLUSTERQUEUE", {1, 2}}, {"hold", {2}}, {"zzz", {}}};
  for (const auto& row : table) {
    INFO(row.filter);
    CHECK(event_rows(events, row.filter) == row.want);
  }
}
