#include <catch2/catch.hpp>

#include "viz/pending_work.h"

using namespace chaintwin::viz;

namespace {

WorkloadRow row(const std::string& key, const std::string& queue, WorkloadPhase phase, int32_t position,
                const std::string& message, int64_t created_us = 0, int64_t requested = 0) {
  WorkloadRow w;
  w.key = key;
  w.cluster_queue = queue;
  w.phase = phase;
  w.gate = "gate2";
  w.reason = message;
  w.queue_position = position;
  w.created_us = created_us;
  w.resource = "credits.gpustack.ai/nvidia";
  w.requested = requested;
  return w;
}

const std::string kQuota = "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor f";
const std::string kTopology = "couldn't assign flavors to pod set main: topology \"t\" doesn't allow to fit any of 1 pod(s)";

std::vector<std::string> keys(const std::vector<WorkloadRow>& rows, const std::vector<PendingItem>& items) {
  std::vector<std::string> out;
  for (const auto& it : items) out.push_back(rows[it.row].key);
  return out;
}

}  // namespace

TEST_CASE("a Workload waits since it last entered its queue, and its eviction is its last Evicted step", "[viz][pending]") {
  WorkloadRow w = row("ns/a", "q", WorkloadPhase::kEvicted, 1, kQuota, 100);
  CHECK(queued_since(w) == 100);
  CHECK(last_eviction(w).empty());
  w.history = {{100, "arrival", "queued"},
               {200, "Admitted", "admitted"},
               {300, "Evicted", "Preempted: to accommodate a higher priority Workload"},
               {300, "Requeued", "back in its queue"},
               {400, "Pending", kQuota},
               {500, "Evicted", "AdmissionCheck: At least one admission check is false"},
               {600, "Pending", kQuota}};
  CHECK(queued_since(w) == 500);
  CHECK(last_eviction(w) == "AdmissionCheck: At least one admission check is false");
}

TEST_CASE("the pending view lists waiting Workloads only, by queue and text, in Kueue's order by default",
          "[viz][pending]") {
  const std::vector<WorkloadRow> rows = {
      row("team-a/late", "q-a", WorkloadPhase::kPending, 2, kQuota, 50, 3'200'000),
      row("team-a/first", "q-a", WorkloadPhase::kPending, 1, kTopology, 60, 1'600'000),
      row("team-b/x", "q-b", WorkloadPhase::kEvicted, 1, kQuota, 10, 800'000),
      row("team-b/done", "q-b", WorkloadPhase::kAdmitted, 0, "", 0),
      row("team-c/nolq", "", WorkloadPhase::kPending, 0, "LocalQueue lq doesn't exist", 5),
      row("team-c/rejected", "q-b", WorkloadPhase::kRejected, 0, "denied", 5),
  };
  struct Case {
    PendingQuery query;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {{}, {"team-a/first", "team-a/late", "team-b/x", "team-c/nolq"}},  // by position; unplaced last
      {{"q-a", "", PendingSort::kPosition, false}, {"team-a/first", "team-a/late"}},
      {{"", "TEAM-B", PendingSort::kPosition, false}, {"team-b/x"}},
      {{"", "topology", PendingSort::kPosition, false}, {"team-a/first"}},
      {{"", "", PendingSort::kWait, true}, {"team-c/nolq", "team-b/x", "team-a/late", "team-a/first"}},
      {{"", "", PendingSort::kRequested, true}, {"team-a/late", "team-a/first", "team-b/x", "team-c/nolq"}},
      {{"", "", PendingSort::kWorkload, false}, {"team-a/first", "team-a/late", "team-b/x", "team-c/nolq"}},
  };
  for (const auto& c : cases) {
    INFO("queue '" << c.query.cluster_queue << "' text '" << c.query.text << "' sort " << static_cast<int>(c.query.sort));
    CHECK(keys(rows, pending_items(rows, 1000, c.query)) == c.want);
  }
  const auto all = pending_items(rows, 1000, {});
  CHECK(all[0].waiting_us == 940);
  CHECK(all[0].kind == "topology doesn't fit");
}

TEST_CASE("waiting Workloads are grouped by the kind of their wait, the largest group first", "[viz][pending]") {
  const std::vector<WorkloadRow> rows = {
      row("a/1", "q", WorkloadPhase::kPending, 1, kTopology), row("a/2", "q", WorkloadPhase::kPending, 2, kQuota),
      row("a/3", "q", WorkloadPhase::kPending, 3, kTopology), row("a/4", "q", WorkloadPhase::kPending, 4, kTopology),
      row("a/5", "q", WorkloadPhase::kEvicted, 5, kQuota),    row("a/6", "q", WorkloadPhase::kPending, 6, ""),
  };
  const auto items = pending_items(rows, 0, {});
  const auto groups = group_by_reason(items);
  REQUIRE(groups.size() == 3);
  CHECK(groups[0] == PendingGroup{"topology doesn't fit", {0, 2, 3}});
  CHECK(groups[1] == PendingGroup{"insufficient unused quota", {1, 4}});
  CHECK(groups[2].kind == "held at gate2");
  CHECK(group_by_reason({}).empty());
}
