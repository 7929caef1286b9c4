// The runner's fast paths (chain_sync.h: sync_nodes, and the settled check --verify uses) keep the
// same state the operator's full fixpoint would: a ledger-only change needs stage 3 on its Node
// alone, a Node that is gone does not take the fast path, and unsettled_write() finds what a fast
// path would have missed (a label stage 4 reads, changed without the full path). Over every Node,
// sync_chain looks at each Node once and then only at those written since: it settles where the
// operator's full fixpoint, which looks at every Node in every pass, settles.
#include <string>

#include <catch2/catch.hpp>

#include "model/admission/device_allocator.h"
#include "model/catalog/label_keys.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/runner/chain_sync.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace sim = chaintwin::sim;
namespace model = chaintwin::model;

namespace {

constexpr const char* kScenario = R"(apiVersion: chaintwin/v1
kind: Scenario
metadata: {name: incremental}
seed: 1
horizon: 10m
cluster:
  nodes:
    - name: node-t4
      accelerators: {manufacturer: nvidia, product: Tesla T4, count: 2, memory: 16Gi}
    - name: node-t4-b
      accelerators: {manufacturer: nvidia, product: Tesla T4, count: 2, memory: 16Gi}
workloads:
  - name: w
    arrival: {at: [0s]}
    duration: {fixed: 5m}
    accelerator: nvidia-tesla-t4
    podSets: [{request: {sliced: {memoryPercentage: 50}}}]
)";

struct Settled {
  model::ClusterState cluster;
  model::Pod running;  // the slice's Pod, with its allocation
};

// The cluster as the runner leaves it after 1 minute (the slice is running on a card).
Settled settled() {
  auto scenario = sim::load_scenario_text(kScenario, "incremental.yaml");
  REQUIRE(scenario.ok());
  sim::RunOptions options;
  options.until = sim::SimTime::minutes(1);
  sim::Simulation simulation(std::move(*scenario), options);
  REQUIRE(simulation.start().ok());
  while (simulation.step()) {
  }
  simulation.settle_status();
  REQUIRE(simulation.workloads().pods.size() == 1);
  return {simulation.cluster(), simulation.workloads().pods.begin()->second};
}

model::ClusterState settled_cluster() { return settled().cluster; }

}  // namespace

TEST_CASE("a settled cluster has nothing left for the full fixpoint to write", "[runner][incremental]") {
  const model::ClusterState cluster = settled_cluster();
  CHECK_FALSE(sim::unsettled_write(cluster, sim::SimTime::minutes(1)).has_value());
}

TEST_CASE("a label stage 4 reads changed behind the runner's back is what the settled check reports",
          "[runner][incremental]") {
  model::ClusterState cluster = settled_cluster();
  cluster.nodes.at("node-t4-b").metadata.labels[std::string(model::keys::kManaged)] = "false";
  const auto missed = sim::unsettled_write(cluster, sim::SimTime::minutes(1));
  REQUIRE(missed.has_value());
  CHECK(missed->find("by ") != std::string::npos);
}

TEST_CASE("a ledger change takes the fast path and leaves the rest settled, a Node that is gone does not",
          "[runner][incremental]") {
  struct Row {
    const char* what;
    bool remove_node;
    bool stage4_needed;
  };
  const Row rows[] = {{"the slice's card released", false, false}, {"node-t4-b gone", true, true}};
  for (const auto& r : rows) {
    INFO(r.what);
    auto [cluster, pod] = settled();
    std::string touched;
    if (r.remove_node) {
      touched = "node-t4-b";
      cluster.nodes.erase(touched);
      cluster.devices.erase(touched);
    } else {
      // The slice's Pod is deleted: the device plugin gives its card back.
      touched = pod.node_name;
      const auto before = cluster.devices.at(touched);
      model::release_pod(cluster.devices.at(touched), pod, true);
      REQUIRE_FALSE(before == cluster.devices.at(touched));
    }
    // cross_check: the ledger-only derivation must agree with the whole one (--verify's check).
    auto synced = sim::sync_nodes(cluster, {touched}, sim::SimTime::minutes(1), /*cross_check=*/true);
    REQUIRE(synced.ok());
    CHECK(synced->stage4_needed == r.stage4_needed);
    if (!r.stage4_needed) CHECK_FALSE(sim::unsettled_write(cluster, sim::SimTime::minutes(1)).has_value());
  }
}

TEST_CASE("the fixpoint over every Node settles where the full fixpoint does, with the same writes", "[runner][incremental]") {
  const char* files[] = {"scenarios/default.yaml", "scenarios/regression/mixed-mig-node.yaml",
                         "scenarios/regression/pod-outside-kueue-holds-tas-room.yaml",
                         "scenarios/regression/device-manager-first-detection.yaml",
                         "scenarios/regression/awareness-flip-keeps-old-pools.yaml"};
  for (const char* file : files) {
    INFO(file);
    auto scenario = sim::load_scenario(std::string(CHAINTWIN_SOURCE_DIR) + "/" + file);
    REQUIRE(scenario.ok());
    const sim::Simulation simulation(std::move(*scenario), sim::RunOptions{});
    model::ClusterState scoped = simulation.cluster();
    const auto synced = sim::sync_chain(scoped, {}, sim::SimTime());
    REQUIRE(synced.ok());
    const auto full = model::converge(simulation.cluster(), sim::simulated_controllers(), sim::rfc3339(sim::SimTime()));
    REQUIRE(full.ok());
    REQUIRE(full->converged);
    CHECK(scoped == full->state);
    REQUIRE(synced->writes.size() == full->writes.size());
    for (std::size_t i = 0; i < full->writes.size(); ++i) {
      CHECK(synced->writes[i].controller == full->writes[i].controller);
      CHECK(synced->writes[i].name == model::metadata_of(full->writes[i].object).name);
      CHECK(synced->writes[i].kind == model::kind_of(full->writes[i].object));
    }
  }
}
