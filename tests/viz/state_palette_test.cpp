#include <catch2/catch.hpp>

#include <set>
#include <tuple>

#include "viz/drift_marks.h"
#include "viz/state_palette.h"

using namespace chaintwin::viz;

namespace {
auto key(Rgba c) { return std::tuple(c.r, c.g, c.b); }
}  // namespace

TEST_CASE("each family, stop policy and Workload phase has a colour of its own", "[viz][colours]") {
  std::set<std::tuple<uint8_t, uint8_t, uint8_t>> families, policies, phases;
  for (Family f : {Family::kExclusive, Family::kShared, Family::kSliced, Family::kPartitioned, Family::kCpu})
    families.insert(key(family_colour(f)));
  for (StopPolicy p : {StopPolicy::kNone, StopPolicy::kHold, StopPolicy::kHoldAndDrain}) policies.insert(key(stop_policy_colour(p)));
  for (WorkloadPhase p : {WorkloadPhase::kPending, WorkloadPhase::kAdmitted, WorkloadPhase::kEvicted,
                          WorkloadPhase::kFinished, WorkloadPhase::kRejected})
    phases.insert(key(workload_phase_colour(p)));
  CHECK(families.size() == 5);
  CHECK(policies.size() == 3);
  CHECK(phases.size() == 5);
  CHECK(families.count(key(background_colour())) == 0);
}

TEST_CASE("a card is drawn in the colour of the family its ledger mode serves, an idle one apart", "[viz][colours]") {
  struct Row {
    const char* mode;
    Family family;
  };
  const Row rows[] = {{"Exclusive", Family::kExclusive},
                      {"Shared", Family::kShared},
                      {"Sliced", Family::kSliced},
                      {"Partitioned", Family::kPartitioned}};
  for (const auto& row : rows) {
    INFO(row.mode);
    CHECK(card_mode_colour(row.mode) == family_colour(row.family));
  }
  const Rgba idle = card_mode_colour("None");
  for (const auto& row : rows) CHECK_FALSE(idle == family_colour(row.family));
  CHECK(card_mode_colour("something else") == idle);
  CHECK(topology_ready_colour("True") == stop_policy_colour(StopPolicy::kNone));
  CHECK(topology_ready_colour("False") == stop_policy_colour(StopPolicy::kHoldAndDrain));
  CHECK(workload_phase_label(WorkloadPhase::kEvicted) == "Evicted");
}

TEST_CASE("a pool drifts when its ClusterQueue or its InstanceType does, a Node by its own name", "[viz][drift]") {
  Snapshot s;
  s.drift = {{"InstanceType", "q1", "update-status", "InstanceType", ""}, {"Node", "n1", "update", "NodeProfile", ""}};
  CHECK(pool_drifts(s, "q1"));
  CHECK_FALSE(pool_drifts(s, "q2"));
  CHECK(drifts(s, "Node", "n1"));
  CHECK_FALSE(drifts(s, "Node", "q1"));
  s.drift.push_back({"ClusterQueue", "q2", "update", "NodeQueue", ""});
  CHECK(pool_drifts(s, "q2"));
}

TEST_CASE("an event line is coloured by its kind, a check and an expectation by their verdict", "[viz][colours]") {
  const Rgba green = event_colour("Admitted", ""), red = event_colour("expect", "FAILED: x"),
             orange = event_colour("Evicted", "Preempted: ..."), amber = event_colour("check", "c Retry: no room");
  struct Row {
    std::string kind, message;
    Rgba want;
  };
  const std::vector<Row> rows = {
      {"expect", "holds", green},
      {"expect", "FAILED: workloads admitted 3, expected 4", red},
      {"check", "gpustack-node-devices Ready: 1 whole free accelerator(s)", green},
      {"check", "gpustack-node-devices Retry: the exclusive demand needs 2; will retry as capacity frees", amber},
      {"check", "gpustack-node-devices Rejected: no such profile", red},
      {"Evicted", "AdmissionCheck: At least one admission check is false", orange},
      {"PodRunning", "", green},
  };
  for (const auto& r : rows) {
    INFO(r.kind << " " << r.message);
    CHECK(event_colour(r.kind, r.message) == r.want);
  }
  CHECK(event_colour("expect", "not judged: the run stopped before the horizon") != green);
  CHECK(event_colour("expect", "not judged: the run stopped before the horizon") != red);
  CHECK(event_colour("write", "") != event_colour("action", ""));
  CHECK(orange != red);
  CHECK(amber != orange);
}
