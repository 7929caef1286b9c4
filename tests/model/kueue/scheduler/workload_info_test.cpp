#include <catch2/catch.hpp>

#include "model/kueue/scheduler/flavor_assigner.h"
#include "model/kueue/scheduler/workload_info.h"
#include "scheduler_fixtures.h"

using namespace chaintwin::model;
using namespace chaintwin::model::testing;

namespace {

// A transformation that leaves the requests as they are (no credits).
ResourceList untransformed(const ResourceList& requests) { return requests; }

}  // namespace

TEST_CASE("a Workload's info holds each PodSet's amounts after the transformations it was built with",
          "[kueue][workload-info]") {
  struct Row {
    const char* what;
    EffectiveRequestsFn transform;
    int64_t cards;
    ResourceAmounts expected;
  };
  const std::vector<Row> rows = {
      {"the operator's credits, one card", kueue_effective_requests, 1, {{kCredits, kM}}},
      {"the operator's credits, three cards", kueue_effective_requests, 3, {{kCredits, 3 * kM}}},
      {"no transformation: the device-plugin resource", untransformed, 2, {{kGpu, 2}}},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    Fixture f;
    f.queue("cq", {{"f1", 8}});
    const Workload& wl = f.submit("w", "cq", row.cards);
    const WorkloadInfo info = workload_info(wl, row.transform);
    CHECK(info.transformed_by == row.transform);
    REQUIRE(info.pod_sets.size() == 1);
    CHECK(info.pod_sets.front().kueue_amounts == row.expected);
    CHECK(info.pod_sets.front().requests.at(kGpu) == q(row.cards));  // before the transformation
  }
}

TEST_CASE("flavor assignment reads the kept amounts only when they went through the cycle's transformations",
          "[kueue][workload-info]") {
  Fixture f;
  f.flavor("f1");
  const ClusterQueue& cq = f.queue("cq", {{"f1", 8}});
  const Workload& wl = f.submit("w", "cq", 2);
  const FlavorResourceAmounts no_usage;
  const FlavorAssignment derived = assign_flavors(f.cluster, cq, wl, no_usage, f.config, nullptr, nullptr);
  REQUIRE(derived.fits);  // two cards of credits fit a queue of eight
  // Kept with the cycle's own transformations: the same answer from the kept amounts.
  const WorkloadInfo same = workload_info(wl, f.config.effective_requests);
  CHECK(assign_flavors(f.cluster, cq, wl, no_usage, f.config, nullptr, &same) == derived);
  // Kept without them (amounts in nvidia.com/gpu, which the queue does not cover): the cycle
  // transforms the kept requests itself and still finds the credits.
  const WorkloadInfo other = workload_info(wl, untransformed);
  CHECK(assign_flavors(f.cluster, cq, wl, no_usage, f.config, nullptr, &other) == derived);
}

TEST_CASE("a reserved Workload's usage from its kept info is what its Pod templates give", "[kueue][workload-info]") {
  Fixture f;
  for (int i = 0; i < 3; ++i) f.node("n" + std::to_string(i), 4);
  f.flavor("f1");
  f.queue("cq", {{"f1", 64}});
  f.submit("w", "cq", 2, 3);  // three Pods of two cards on four-card Nodes: two Nodes
  const WorkloadInfo info = workload_info(f.wl("w"));
  f.cycle();
  const Workload& wl = f.wl("w");
  REQUIRE(wl.status.admission);
  const WorkloadUsage plain = workload_usage(wl);
  REQUIRE(plain.nodes.size() == 2);
  CHECK(workload_usage(wl, &info) == plain);
  // The amounts are read from the info: kept amounts of another shape show in the usage.
  WorkloadInfo other = info;
  other.pod_sets.front().amounts[kGpu] = 5;
  const WorkloadUsage read = workload_usage(wl, &other);
  CHECK_FALSE(read == plain);
  CHECK(read.quota == plain.quota);  // the quota comes from the admission, not the info
  // An info of another Workload's PodSets (a count that does not match) is not read.
  WorkloadInfo mismatched = other;
  mismatched.pod_sets.push_back(mismatched.pod_sets.front());
  CHECK(workload_usage(wl, &mismatched) == plain);
}
