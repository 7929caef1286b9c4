// What happens to a running workload when its queue is stopped by the admin (operator-domain.md
// §4.5, §10.10, §10.11): deleting the InstanceType deletes its ClusterQueue, the operator sets the
// terminating queue to HoldAndDrain and Kueue evicts what it admitted (Kueue reads the stop policy
// of a terminating queue as of any other); an admin Hold (spec.inactive) keeps it running.
#include <string>

#include <catch2/catch.hpp>

#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace sim = chaintwin::sim;

namespace {

std::string scenario_text(const std::string& action) {
  return R"(apiVersion: chaintwin/v1
kind: Scenario
metadata: {name: queue-stop}
seed: 1
horizon: 20m
cluster:
  nodes:
    - name: node-t4
      accelerators: {manufacturer: nvidia, product: Tesla T4, count: 2, memory: 16Gi}
  objects:
    - apiVersion: worker.gpustack.ai/v1
      kind: InstanceType
      metadata: {name: team-t4}
      spec: {acceleratable: true, acceleratorGroup: nvidia-tesla-t4, generalGroup: generic, os: linux, arch: amd64,
             unitResources: {cpu: "4", ram: 16Gi}, localStorage: 100Gi}
workloads:
  - name: w
    arrival: {at: [0s]}
    duration: {fixed: 1h}
    instanceType: team-t4
    podSets: [{request: {exclusive: 1}}]
timeline:
  - )" + action + "\n";
}

}  // namespace

TEST_CASE("deleting an admin instance type evicts its running workload, an admin Hold does not",
          "[runner][queue_stop]") {
  struct Row {
    const char* action;
    int64_t evicted;
    int64_t running;
    const char* eviction_line;  // the Evicted event's message, "" when none
  };
  const Row rows[] = {
      {"{at: 10m, action: delete, kind: InstanceType, name: team-t4}", 1, 0,
       "ClusterQueueStopped: The ClusterQueue is stopped"},
      {"{at: 10m, action: set-inactive, instanceType: team-t4, value: true}", 0, 1, ""},
  };
  for (const auto& r : rows) {
    INFO(r.action);
    auto scenario = sim::load_scenario_text(scenario_text(r.action), "queue-stop.yaml");
    REQUIRE(scenario.ok());
    sim::Simulation simulation(std::move(*scenario), {});
    auto record = simulation.run();
    REQUIRE(record.ok());
    const auto counters = simulation.counters().total;
    CHECK(counters.admitted == 1);
    CHECK(counters.evicted == r.evicted);
    CHECK(counters.running == r.running);
    std::string evicted;
    for (const auto& e : record->events)
      if (e.kind == "Evicted") evicted = e.message;
    CHECK(evicted == r.eviction_line);
  }
}
