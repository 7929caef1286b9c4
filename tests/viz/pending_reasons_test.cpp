#include <catch2/catch.hpp>

#include "viz/pending_reasons.h"

using namespace chaintwin::viz;

TEST_CASE("a pending Workload's wait is named by the kind of Kueue's or the operator's message", "[viz][pending]") {
  struct Row {
    std::string gate, message, want;
  };
  const std::vector<Row> rows = {
      {"gate2",
       "couldn't assign flavors to pod set main: insufficient unused quota for credits.gpustack.ai/nvidia in flavor f, "
       "2800k more needed",
       "insufficient unused quota"},
      {"gate2",
       "couldn't assign flavors to pod set main: topology \"gpustack-x\" doesn't allow to fit any of 1 pod(s). Total "
       "nodes: 2; excluded: affinity: 2",
       "topology doesn't fit"},
      {"gate2", "couldn't assign flavors to pod set main: topology \"t\" does not contain the requested level", "topology lacks the level"},
      {"queue", "LocalQueue gpustack-fnv64-0123 doesn't exist", "no LocalQueue"},
      {"gate3", "the admission check answered Retry", "admission check retry"},
      {"gate3",
       "the sliced demand for role \"main\" places 0 of 1 slice(s) of 400000 units on node t4-0; no accelerator has that "
       "much free with a free slice slot; will retry as capacity frees",
       "cards don't fit (node-devices check)"},
      {"gate3",
       "the partition ledger on node h100-0 for role \"main\" is not ready (device manager rolling out); will retry as "
       "capacity frees",
       "cards don't fit (node-devices check)"},
      {"", "", "not yet considered"},
      {"gate2", "something new", "other (gate2)"},
  };
  for (const auto& row : rows) {
    INFO(row.message);
    CHECK(pending_reason_kind(row.gate, row.message) == row.want);
  }
}

TEST_CASE("a pool's waiting Workloads are counted by reason, most first, its own and waiting only", "[viz][pending]") {
  auto row = [](const std::string& queue, WorkloadPhase phase, const std::string& message) {
    WorkloadRow w;
    w.cluster_queue = queue;
    w.phase = phase;
    w.gate = "gate2";
    w.reason = message;
    return w;
  };
  const std::string quota = "insufficient unused quota for cpu in flavor f, 4 more needed";
  const std::string topo = "topology \"t\" doesn't allow to fit any of 1 pod(s)";
  const std::vector<WorkloadRow> rows = {row("a", WorkloadPhase::kPending, topo),   row("a", WorkloadPhase::kPending, quota),
                                         row("a", WorkloadPhase::kPending, topo),   row("b", WorkloadPhase::kPending, quota),
                                         row("a", WorkloadPhase::kAdmitted, quota), row("a", WorkloadPhase::kEvicted, topo),
                                         row("a", WorkloadPhase::kFinished, topo)};
  CHECK(pending_reasons(rows, "a") ==
        std::vector<ReasonCount>{{"topology doesn't fit", 3}, {"insufficient unused quota", 1}});
  CHECK(pending_reasons(rows, "b") == std::vector<ReasonCount>{{"insufficient unused quota", 1}});
  CHECK(pending_reasons(rows, "c").empty());
}

TEST_CASE("a reason kind has a short form for the Pools badge", "[viz][pending]") {
  CHECK(short_reason("insufficient unused quota") == "quota");
  CHECK(short_reason("topology doesn't fit") == "topology");
  CHECK(short_reason("no LocalQueue") == "no LocalQueue");
  CHECK(short_reason("cards don't fit (node-devices check)") == "cards");
  CHECK(short_reason("other (gate3)") == "other");
}
