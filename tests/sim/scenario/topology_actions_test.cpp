// The scenario's topology inventory: TopologySource objects checked as admission checks them, the
// topology-snapshot / topology-read-failure actions, and the topologySource expectation — what
// loads and the exact `file:line: field: reason` of what does not.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario_loader.h"

namespace {

using namespace chaintwin;

// Lines 1-3 header, then a cluster with one node, a configMap, a webhook and a nodeLabels source
// (lines 4-29); bodies start on line 30.
const std::string kHead = R"(apiVersion: chaintwin/v1
kind: Scenario
horizon: 2h
cluster:
  nodes:
  - name: gpu-0
  objects:
  - apiVersion: worker.gpustack.ai/v1
    kind: TopologySource
    metadata: {name: inv}
    spec:
      nodeSelector: {}
      levels: [topology.gpustack.ai/zone]
      configMap: {configMapRef: {namespace: gpustack-system, name: inv}, key: snapshot.yaml, maxStaleness: 10m}
  - apiVersion: worker.gpustack.ai/v1
    kind: TopologySource
    metadata: {name: hook}
    spec:
      nodeSelector: {}
      levels: [topology.gpustack.ai/rack]
      webhook: {url: "https://inv.example/snapshot", pollInterval: 1m, timeout: 10s, maxStaleness: 5m,
                bearerTokenSecretRef: {namespace: gpustack-system, name: token}}
  - apiVersion: worker.gpustack.ai/v1
    kind: TopologySource
    metadata: {name: zones}
    spec:
      nodeSelector: {}
      levels: [topology.kubernetes.io/zone]
      nodeLabels: {}
)";

sim::Scenario load_ok(const std::string& body) {
  const auto s = sim::load_scenario_text(kHead + body, "t.yaml");
  INFO((s.ok() ? std::string() : s.error()));
  REQUIRE(s.ok());
  return *s;
}

std::string load_error(const std::string& head, const std::string& body) {
  const auto s = sim::load_scenario_text(head + body, "t.yaml");
  REQUIRE_FALSE(s.ok());
  return s.error();
}

}  // namespace

TEST_CASE("topology actions deliver a snapshot or a read failure to a writing source's arm", "[scenario][topology]") {
  const auto s = load_ok(R"(timeline:
- at: 0s
  action: topology-snapshot
  source: inv
  revision: r1
  nodes: {gpu-0: {topology.gpustack.ai/zone: zone-a}, ghost: {topology.gpustack.ai/zone: zone-b}}
- {at: 5m, action: topology-read-failure, source: inv}
- {at: 6m, action: topology-read-failure, source: inv, reason: SnapshotKeyMissing}
- {at: 7m, action: topology-read-failure, source: hook}
- {at: 8m, action: topology-read-failure, source: inv, reason: SnapshotInvalid, message: "decode topology snapshot: x"}
- {at: 9m, action: delete, kind: TopologySource, name: hook}
)");
  REQUIRE(s.timeline.size() == 6);
  const auto& snap = s.timeline[0].read.snapshot;
  REQUIRE(snap);
  CHECK(snap->api_version == "topology.gpustack.ai/v1alpha1");
  CHECK(snap->revision == "r1");
  CHECK(snap->nodes.at("ghost").at("topology.gpustack.ai/zone") == "zone-b");  // judged by the operator, not the loader
  CHECK(s.timeline[1].read.failure_reason == "ConfigMapReadFailed");
  CHECK(s.timeline[1].read.failure_message == R"(configmaps "inv" not found)");
  CHECK(s.timeline[2].read.failure_message == R"(ConfigMap key "snapshot.yaml" is missing)");
  CHECK(s.timeline[3].read.failure_reason == "WebhookReadFailed");
  CHECK(s.timeline[3].read.failure_message == "topology webhook returned HTTP 503");
  CHECK(s.timeline[4].read.failure_message == "decode topology snapshot: x");
  CHECK(s.cluster.topology_sources.at("hook").webhook->poll_interval_us == 60'000'000);
}

TEST_CASE("bad topology actions, sources and expectations are refused with the line and the reason",
          "[scenario][topology]") {
  const std::vector<std::pair<std::string, std::string>> table{
      {"timeline:\n- {at: 1m, action: topology-snapshot, source: nope, revision: r, nodes: {}}\n",
       "t.yaml:31: timeline[0].source: no TopologySource 'nope' exists at 1m (writing sources: hook, inv)"},
      {"timeline:\n- {at: 1m, action: topology-snapshot, source: zones, revision: r, nodes: {}}\n",
       "t.yaml:31: timeline[0].source: TopologySource 'zones' has a nodeLabels arm: only a configMap or webhook "
       "source reads a snapshot"},
      {"timeline:\n- {at: 1m, action: delete, kind: TopologySource, name: inv}\n"
       "- {at: 2m, action: topology-read-failure, source: inv}\n",
       "t.yaml:32: timeline[1].source: no TopologySource 'inv' exists at 2m (writing sources: hook)"},
      {"timeline:\n- {at: 1m, action: topology-read-failure, source: hook, reason: ConfigMapReadFailed}\n",
       "t.yaml:31: timeline[0].reason: a webhook source reports every read failure as WebhookReadFailed"},
      {"timeline:\n- {at: 1m, action: topology-read-failure, source: inv, reason: WebhookReadFailed}\n",
       "t.yaml:31: timeline[0].reason: a configMap source reports ConfigMapReadFailed, SnapshotKeyMissing or "
       "SnapshotInvalid"},
      {"timeline:\n- {at: 1m, action: topology-read-failure, source: inv, reason: Timeout}\n",
       "t.yaml:31: timeline[0].reason: unknown value 'Timeout' (expected one of: ConfigMapReadFailed, "
       "SnapshotKeyMissing, SnapshotInvalid, WebhookReadFailed)"},
      {"timeline:\n- {at: 1m, action: topology-snapshot, source: inv, revision: r,\n"
       "   nodes: {gpu-0: {topology.gpustack.ai/zone: 1}}}\n",
       "t.yaml:32: timeline[0].nodes.gpu-0[\"topology.gpustack.ai/zone\"]: expected a string (quote numbers), got an "
       "integer"},
      {"timeline:\n- {at: 1m, action: topology-snapshot, source: inv, nodes: {}}\n",
       "t.yaml:31: timeline[0]: missing field 'revision'"},
      {"timeline:\n- {at: 1m, action: topology-snapshot, source: inv, revision: r, nodes: {}, reason: x}\n",
       "t.yaml:31: timeline[0].reason: not a field of action topology-snapshot (expected: at, action, source, "
       "revision, nodes, apiVersion)"},
      {"timeline:\n- {at: 1m, action: delete, kind: TopologySource, name: nope}\n",
       "t.yaml:31: timeline[0].name: no TopologySource 'nope' exists at 1m"},
      {"expect:\n- {at: 1m, topologySource: nope, conditions: {Ready: \"True\"}}\n",
       "t.yaml:31: expect[0].topologySource: no TopologySource 'nope' in the cluster"},
      {"expect:\n- {at: 1m, topologySource: inv, conditions: {Ready: Yes}}\n",
       "t.yaml:31: expect[0].conditions.Ready: 'Yes' is not a condition reading"},
      {"expect:\n- {at: 1m, topologySource: inv, stopPolicy: None}\n",
       "t.yaml:31: expect[0].stopPolicy: not a check of a topologySource expectation (expected: conditions, "
       "messages, lastSuccessfulRevision, nodeFeatures)"},
  };
  for (const auto& [body, want] : table) {
    INFO(body);
    CHECK_THAT(load_error(kHead, body), Catch::StartsWith(want));
  }
}

TEST_CASE("a TopologySource admission would refuse stops the load at its field", "[scenario][topology]") {
  const std::string head = R"(apiVersion: chaintwin/v1
kind: Scenario
cluster:
  objects:
  - apiVersion: worker.gpustack.ai/v1
    kind: TopologySource
    metadata: {name: inv}
    spec:
      nodeSelector: {}
      levels: [topology.gpustack.ai/zone, kubernetes.io/hostname]
      configMap: {configMapRef: {namespace: gpustack-system, name: inv}, key: k, maxStaleness: 10m}
)";
  CHECK_THAT(load_error(head, ""), Catch::Contains("TopologySource/inv") &&
                                       Catch::EndsWith("spec.levels[1]: Forbidden: kubernetes.io/hostname is implicit"));
  std::string zero = head;
  zero.replace(zero.find("kubernetes.io/hostname"), 22, "topology.gpustack.ai/rack");
  zero.replace(zero.find("maxStaleness: 10m"), 17, "maxStaleness: 0s");
  CHECK_THAT(load_error(zero, ""),
             Catch::EndsWith(R"(spec.configMap.maxStaleness: Invalid value: "0s": must be positive)"));
}
