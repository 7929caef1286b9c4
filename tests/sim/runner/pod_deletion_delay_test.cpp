// The runner keeps a finished Workload's Pods until its podDeletionDelay has passed: a partition
// stays charged on the Devices ledger between finish and deletion, a logical slice does not
// (operator-domain.md §3.7 Release, §10.19). Guards the fix that stopped treating the quota
// release of a finished Workload as an eviction.
#include <string>

#include <catch2/catch.hpp>

#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace sim = chaintwin::sim;

namespace {

std::string scenario_text(const std::string& request, const std::string& delay) {
  return R"(apiVersion: chaintwin/v1
kind: Scenario
metadata: {name: pod-deletion-delay}
seed: 1
horizon: 30m
cluster:
  nodes:
    - name: node-h100
      accelerators:
        manufacturer: nvidia
        product: NVIDIA H100 80GB HBM3
        count: 2
        memory: 80Gi
        partitioning: [{cards: [0], mode: mig}]
workloads:
  - name: w
    arrival: {at: [0s]}
    duration: {fixed: 10m}
    podDeletionDelay: )" + delay + R"(
    accelerator: nvidia-h100-80gb-hbm3
    podSets: [{request: )" + request + R"(}]
)";
}

// Runs until `until` and returns how many ledger charges the node's Devices record holds.
size_t charges_at(const std::string& request, const std::string& delay, sim::SimTime until) {
  auto scenario = sim::load_scenario_text(scenario_text(request, delay), "pod-deletion-delay.yaml");
  REQUIRE(scenario.ok());
  sim::RunOptions options;
  options.until = until;
  sim::Simulation simulation(std::move(*scenario), options);
  REQUIRE(simulation.start().ok());
  while (simulation.step()) {
  }
  size_t charges = 0;
  for (const auto& group : simulation.cluster().devices.at("node-h100").status.groups)
    for (const auto& row : group.accelerators) charges += row.charges.size();
  return charges;
}

size_t deleted_lines(const sim::RunRecord& record) {
  size_t n = 0;
  for (const auto& e : record.events) n += e.kind == "PodsDeleted" ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("a finished partition stays charged until its Pods are deleted, a finished slice does not",
          "[runner][pod_deletion]") {
  struct Row {
    const char* request;
    sim::SimTime at;
    size_t charges;
  };
  const auto m = [](int64_t minutes) { return sim::SimTime::minutes(minutes); };
  const Row rows[] = {
      {R"({partitioned: 3g.40gb})", m(5), 1},   // running
      {R"({partitioned: 3g.40gb})", m(12), 1},  // finished at 10m, Pods still there
      {R"({partitioned: 3g.40gb})", m(16), 0},  // Pods deleted at 15m
      {R"({sliced: {memoryPercentage: 50}})", m(5), 1},
      {R"({sliced: {memoryPercentage: 50}})", m(12), 0},  // released at finish
  };
  for (const auto& r : rows) {
    INFO(r.request << " at " << r.at.to_string());
    CHECK(charges_at(r.request, "5m", r.at) == r.charges);
  }
}

TEST_CASE("the Pods of a finished workload are deleted once, after podDeletionDelay", "[runner][pod_deletion]") {
  auto scenario = sim::load_scenario_text(scenario_text("{partitioned: 3g.40gb}", "5m"), "pod-deletion-delay.yaml");
  REQUIRE(scenario.ok());
  sim::Simulation simulation(std::move(*scenario), {});
  auto record = simulation.run();
  REQUIRE(record.ok());
  REQUIRE(deleted_lines(*record) == 1);
  for (const auto& e : record->events)
    // Admitted at 0s (the arrival's own cycle), finished at 10m, its Pods deleted 5m later.
    if (e.kind == "PodsDeleted") CHECK(e.at == sim::SimTime::minutes(15));
  CHECK(simulation.counters().total.evicted == 0);
}
