// The runner's TopologySource controller (sim/runner/topology_sources.cpp): when writing sources are
// reconciled — webhook polls, expiry, a Node leaving, a deletion, a contender — and what reaches the
// Nodes through NFD's projection.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/stage4/topology_source_reconciler.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace sim = chaintwin::sim;
namespace model = chaintwin::model;

namespace {

const std::string kRack = "topology.gpustack.ai/rack";

std::string scenario_text(const std::string& sources, const std::string& timeline) {
  return R"(apiVersion: chaintwin/v1
kind: Scenario
metadata: {name: topology-runner}
seed: 1
horizon: 20m
cluster:
  nodes:
    - namePrefix: n-
      count: 2
      accelerators: {manufacturer: nvidia, product: Tesla T4, count: 1, memory: 16Gi}
  objects:
)" + sources + "timeline:\n" + timeline;
}

const std::string kHook = R"(    - apiVersion: worker.gpustack.ai/v1
      kind: TopologySource
      metadata: {name: hook}
      spec:
        nodeSelector: {}
        levels: [topology.gpustack.ai/rack]
        webhook: {url: "https://inv.example/snapshot", pollInterval: 5m, timeout: 10s, maxStaleness: 7m,
                  bearerTokenSecretRef: {namespace: gpustack-system, name: token}}
)";

const std::string kConfigMap = R"(    - apiVersion: worker.gpustack.ai/v1
      kind: TopologySource
      metadata: {name: cm}
      spec:
        nodeSelector: {}
        levels: [topology.gpustack.ai/rack]
        configMap: {configMapRef: {namespace: gpustack-system, name: inv}, key: k, maxStaleness: 10m}
)";

const std::string kBothRacks = "nodes: {n-0: {topology.gpustack.ai/rack: r0}, n-1: {topology.gpustack.ai/rack: r1}}";

struct Run {
  model::ClusterState cluster;
  std::vector<std::string> status_writes;  // "<time> <source>: <reason>" of every TopologySource status write
};

Run run(const std::string& text) {
  auto scenario = sim::load_scenario_text(text, "topology-runner.yaml");
  INFO((scenario.ok() ? std::string() : scenario.error()));
  REQUIRE(scenario.ok());
  sim::Simulation simulation(std::move(*scenario), {});
  auto record = simulation.run();
  INFO((record.ok() ? std::string() : record.error()));
  REQUIRE(record.ok());
  Run out{simulation.cluster(), {}};
  for (const auto& e : record->events)
    if (e.kind == "write" && e.object.rfind("TopologySource ", 0) == 0)
      out.status_writes.push_back(e.at.to_string() + " " + e.object.substr(15));
  return out;
}

std::string label(const model::ClusterState& c, const std::string& node, const std::string& key) {
  const auto& labels = c.nodes.at(node).metadata.labels;
  const auto it = labels.find(key);
  return it == labels.end() ? "(absent)" : it->second;
}

std::string ready(const model::ClusterState& c, const std::string& source) {
  const model::Condition* r = model::find_condition(c.topology_sources.at(source).conditions, "Ready");
  return r == nullptr ? "(absent)" : r->status + "/" + r->reason;
}

}  // namespace

TEST_CASE("a webhook is polled while it answers and its labels expire maxStaleness after its last answer",
          "[runner][topology]") {
  // The 5m poll answers (a new refresh time: a status write); the failure at 6m makes it Stale with
  // the 5m read kept until 12m (the 10m poll lapses: the 6m reconcile asked for 11m); the 11m poll
  // changes nothing; 12m expires it (2 NodeFeatures deleted); the 17m poll writes mutatedNodes 0.
  const Run r = run(scenario_text(kHook, "  - {at: 0s, action: topology-snapshot, source: hook, revision: a, " +
                                             kBothRacks + "}\n  - {at: 6m, action: topology-read-failure, source: hook}\n"));
  const std::vector<std::string> want{"5m hook", "6m hook", "12m hook", "17m hook"};
  CHECK(r.status_writes == want);
  CHECK(ready(r.cluster, "hook") == "False/Expired");
  CHECK(r.cluster.node_features.empty());
  CHECK(label(r.cluster, "n-0", kRack) == "(absent)");
  CHECK(label(r.cluster, "n-0", "topology.gpustack.ai/profile") == "fnv64-87bf574bea2a4f23");
}

TEST_CASE("a published rack reaches the node, its profile and its Devices", "[runner][topology]") {
  const Run r = run(scenario_text(kConfigMap, "  - {at: 0s, action: topology-snapshot, source: cm, revision: a, " +
                                                  kBothRacks + "}\n"));
  CHECK(ready(r.cluster, "cm") == "True/Observed");
  CHECK(label(r.cluster, "n-1", kRack) == "r1");
  const std::string profile = label(r.cluster, "n-1", "topology.gpustack.ai/profile");
  CHECK(profile != "fnv64-87bf574bea2a4f23");
  CHECK(r.cluster.devices.at("n-1").metadata.labels.at("topology.gpustack.ai/profile") == profile);
  CHECK(r.cluster.topologies.at("gpustack-" + profile).levels == std::vector<std::string>{kRack, "kubernetes.io/hostname"});
}

TEST_CASE("a node leaving makes the snapshot naming it a rejected revision, and its NodeFeature goes",
          "[runner][topology]") {
  const Run r = run(scenario_text(kConfigMap, "  - {at: 0s, action: topology-snapshot, source: cm, revision: a, " +
                                                  kBothRacks + "}\n  - {at: 2m, action: remove-node, node: n-1}\n"));
  const model::TopologySource& cm = r.cluster.topology_sources.at("cm");
  // Stale until 10m, then Expired: staleness counts from the read at 0s.
  CHECK(ready(r.cluster, "cm") == "False/Expired");
  CHECK(model::find_condition(cm.conditions, "Valid")->message ==
        R"(topology snapshot references unknown or unselected Node "n-1")");
  const std::vector<std::string> want{"2m cm", "10m cm"};
  CHECK(r.status_writes == want);
  CHECK(r.cluster.node_features.empty());
  CHECK(label(r.cluster, "n-0", kRack) == "(absent)");
}

TEST_CASE("deleting a writing source takes its NodeFeatures and labels with it", "[runner][topology]") {
  const Run r = run(scenario_text(kConfigMap, "  - {at: 0s, action: topology-snapshot, source: cm, revision: a, " +
                                                  kBothRacks + "}\n  - {at: 5m, action: delete, kind: TopologySource, "
                                                               "name: cm}\n"));
  CHECK(r.cluster.topology_sources.count("cm") == 0);
  CHECK(r.cluster.node_features.empty());
  CHECK(label(r.cluster, "n-0", kRack) == "(absent)");
  CHECK(label(r.cluster, "n-0", "topology.gpustack.ai/profile") == "fnv64-87bf574bea2a4f23");
}

TEST_CASE("of two writing sources over one level, each steps back at its own next reconcile",
          "[runner][topology]") {
  // At the start cm (reconciled first, by name) has nothing to read; hook finds cm contending and
  // steps back (OwnershipConflict, looked at again every minute). cm's snapshot at 3m contends
  // with hook: it steps back too. Nobody publishes; the nodes stay hostname-only.
  const Run r = run(scenario_text(kConfigMap + kHook,
                                  "  - {at: 0s, action: topology-snapshot, source: hook, revision: a, " + kBothRacks +
                                      "}\n  - {at: 3m, action: topology-snapshot, source: cm, revision: b, " +
                                      kBothRacks + "}\n"));
  CHECK(ready(r.cluster, "hook") == "False/OwnershipConflict");
  CHECK(ready(r.cluster, "cm") == "False/OwnershipConflict");
  CHECK(model::find_condition(r.cluster.topology_sources.at("cm").conditions, "OwnershipConflict")->message ==
        R"(writing sources "hook" select the same Nodes and levels)");
  CHECK(r.cluster.topology_sources.at("cm").status.conflicted_nodes == 2);
  CHECK(r.cluster.node_features.empty());
  CHECK(label(r.cluster, "n-0", "topology.gpustack.ai/profile") == "fnv64-87bf574bea2a4f23");
}

TEST_CASE("a writing source no action feeds keeps the status it was given", "[runner][topology]") {
  const std::string given = R"(    - apiVersion: worker.gpustack.ai/v1
      kind: TopologySource
      metadata: {name: captured}
      spec:
        nodeSelector: {}
        levels: [topology.gpustack.ai/rack]
        configMap: {configMapRef: {namespace: gpustack-system, name: inv}, key: k, maxStaleness: 10m}
      status:
        lastSuccessfulRevision: live-7
        conditions: [{type: Ready, status: "True", reason: Observed}]
)";
  // The nodes already carry the rack NFD projected in the captured cluster.
  std::string text = scenario_text(given, "  - {at: 5m, action: cordon, node: n-0}\n");
  text.replace(text.find("count: 2\n"), 9, "count: 2\n      labels: {topology.gpustack.ai/rack: r9}\n");
  const Run r = run(text);
  CHECK(ready(r.cluster, "captured") == "True/Observed");
  CHECK(r.cluster.topology_sources.at("captured").status.last_successful_revision == "live-7");
  CHECK(r.status_writes.empty());
  CHECK(r.cluster.node_features.empty());
  // Ready and selecting the nodes, it gives them its rack level.
  const std::string profile = label(r.cluster, "n-0", "topology.gpustack.ai/profile");
  CHECK(r.cluster.topologies.at("gpustack-" + profile).levels == std::vector<std::string>{kRack, "kubernetes.io/hostname"});
}
