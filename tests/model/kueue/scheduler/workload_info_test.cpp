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

namespace {

// A Workload of one PodSet of `count` Pods, each with one container requesting `cards` GPUs.
Workload workload_of(int64_t cards, int32_t count = 1) {
  Workload wl;
  wl.metadata.name = "w";
  wl.metadata.namespace_ = "default";
  PodSet ps;
  ps.name = "main";
  ps.count = count;
  ps.template_.containers.push_back(Container{"c", {{kGpu, q(cards)}}, false});
  wl.pod_sets.push_back(ps);
  return wl;
}

}  // namespace

TEST_CASE("Workloads with identical PodSets share one info, and any difference gets its own", "[kueue][workload-info]") {
  struct Row {
    const char* what;
    void (*change)(Workload&);
    bool shared;
  };
  const std::vector<Row> rows = {
      {"another name and queue, the same PodSets", [](Workload& w) { w.metadata.name = "x"; w.queue_name = "lq"; }, true},
      {"another request", [](Workload& w) { w.pod_sets[0].template_.containers[0].requests = {{kGpu, q(2)}}; }, false},
      {"another Pod count", [](Workload& w) { w.pod_sets[0].count = 3; }, false},
      {"another PodSet name", [](Workload& w) { w.pod_sets[0].name = "worker"; }, false},
      {"a node selector", [](Workload& w) { w.pod_sets[0].template_.node_selector = {{"zone", "a"}}; }, false},
      {"a required topology level", [](Workload& w) { w.pod_sets[0].required_topology_level = "rack"; }, false},
      {"a second container", [](Workload& w) { w.pod_sets[0].template_.containers.push_back(Container{"d", {}, false}); }, false},
      {"an init container", [](Workload& w) { w.pod_sets[0].template_.init_containers.push_back(Container{"i", {{kGpu, q(1)}}, false}); }, false},
      {"the same value written otherwise (1000m for 1)",
       [](Workload& w) { w.pod_sets[0].template_.containers[0].requests = {{kGpu, Quantity::from_scaled(1000, -3, Quantity::Format::kDecimalExponent)}}; },
       false},
      {"a second PodSet", [](Workload& w) { w.pod_sets.push_back(w.pod_sets[0]); w.pod_sets[1].name = "b"; }, false},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    SharedWorkloadInfos infos;
    const Workload first = workload_of(1);
    Workload other = first;
    row.change(other);
    const auto a = infos.of(first);
    const auto b = infos.of(other);
    CHECK((a == b) == row.shared);
    CHECK(*a == workload_info(first));
    CHECK(*b == workload_info(other));
    CHECK(infos.of(first) == a);  // still held: shared again
  }
}

TEST_CASE("a Workload gets the info workload_info derives whichever infos are held", "[kueue][workload-info]") {
  SharedWorkloadInfos infos;
  // More shapes than are held, over and over, each under both transformations.
  for (int round = 0; round < 3; ++round)
    for (int32_t count = 1; count <= 40; ++count)
      for (const EffectiveRequestsFn transform : {kueue_effective_requests, &untransformed}) {
        const Workload wl = workload_of(1 + count % 3, count);
        const auto info = infos.of(wl, transform);
        REQUIRE(info != nullptr);
        CHECK(*info == workload_info(wl, transform));
        CHECK(info->transformed_by == transform);
      }
}
