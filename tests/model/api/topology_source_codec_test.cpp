#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/api/topology_source_codec.h"

namespace model = chaintwin::model;
using nlohmann::json;

TEST_CASE("a topology source round-trips selector, levels, arm and conditions", "[topology_source_codec]") {
  model::TopologySource ts;
  ts.metadata.name = "racks";
  ts.node_selector.match_labels = {{"gpustack.ai/managed", "true"}};
  ts.node_selector.match_expressions = {{"topology.kubernetes.io/zone", "In", {"z1", "z2"}},
                                        {"node-role.kubernetes.io/control-plane", "DoesNotExist", {}}};
  ts.levels = {"topology.kubernetes.io/zone", "example.com/rack"};
  ts.arm = "nodeLabels";
  ts.conditions = {{"Ready", "True", "Ready", "", 4}, {"Valid", "True", "Valid", "", 4}};
  const json j = model::encode_topology_source(ts);
  CHECK(j.at("apiVersion") == "worker.gpustack.ai/v1");
  CHECK(j.at("kind") == "TopologySource");
  CHECK(j.at("spec").at("nodeLabels") == json::object());
  CHECK(j.at("spec").at("nodeSelector").at("matchExpressions").at(1) ==
        json::parse(R"({"key": "node-role.kubernetes.io/control-plane", "operator": "DoesNotExist"})"));
  const auto back = model::decode_topology_source(j);
  REQUIRE(back.ok());
  CHECK(*back == ts);
  CHECK(back->ready());
}

TEST_CASE("a configMap arm round-trips its reference, key and maxStaleness", "[topology_source_codec]") {
  const auto ts = model::decode_topology_source(json::parse(
      R"({"apiVersion": "worker.gpustack.ai/v1alpha1", "kind": "TopologySource", "metadata": {"name": "inv"},
          "spec": {"nodeSelector": {}, "levels": ["topology.example.com/block"],
                   "additionalWritePrefix": "topology.example.com/",
                   "configMap": {"configMapRef": {"namespace": "gpustack-system", "name": "inv"}, "key": "snapshot",
                                 "maxStaleness": "1h"}},
          "status": {"sourceKind": "ConfigMap", "lastSuccessfulRevision": "inventory-42",
                     "lastSuccessfulRefreshTime": "2026-01-01T00:10:00Z", "selectedNodes": 4, "mutatedNodes": 2}})"));
  REQUIRE(ts.ok());
  CHECK(ts->arm == "configMap");
  REQUIRE(ts->config_map);
  CHECK(ts->config_map->config_map_ref == model::TopologySourceObjectReference{"gpustack-system", "inv"});
  CHECK(ts->config_map->key == "snapshot");
  CHECK(ts->config_map->max_staleness_us == 3'600'000'000);
  CHECK(ts->max_staleness_us() == 3'600'000'000);
  CHECK(ts->writes());
  CHECK(ts->additional_write_prefix == "topology.example.com/");
  CHECK(ts->status.last_successful_revision == "inventory-42");
  CHECK(ts->status.selected_nodes == 4);
  const json spec = model::encode_topology_source(*ts).at("spec");
  CHECK(spec.at("configMap") ==
        json::parse(R"({"configMapRef": {"namespace": "gpustack-system", "name": "inv"}, "key": "snapshot",
                        "maxStaleness": "1h0m0s"})"));
  const auto back = model::decode_topology_source(model::encode_topology_source(*ts));
  REQUIRE(back.ok());
  CHECK(*back == *ts);
}

TEST_CASE("a webhook arm round-trips its URL, durations and credential references", "[topology_source_codec]") {
  const auto ts = model::decode_topology_source(json::parse(
      R"({"spec": {"nodeSelector": {}, "levels": ["topology.gpustack.ai/rack"],
                   "webhook": {"url": "https://inv.example/snapshot", "pollInterval": "1m", "timeout": "10s",
                               "maxStaleness": "5m",
                               "caBundleConfigMapRef": {"namespace": "gpustack-system", "name": "ca"},
                               "bearerTokenSecretRef": {"namespace": "gpustack-system", "name": "token"}}}})"));
  REQUIRE(ts.ok());
  REQUIRE(ts->webhook);
  CHECK(ts->webhook->poll_interval_us == 60'000'000);
  CHECK(ts->webhook->timeout_us == 10'000'000);
  CHECK(ts->webhook->max_staleness_us == 300'000'000);
  CHECK(ts->webhook->bearer_token_secret_ref->name == "token");
  CHECK_FALSE(ts->webhook->tls_client_certificate_secret_ref);
  const auto back = model::decode_topology_source(model::encode_topology_source(*ts));
  REQUIRE(back.ok());
  CHECK(*back == *ts);
}

TEST_CASE("a label selector decodes on its own with paths relative to it", "[topology_source_codec]") {
  const auto s = model::decode_label_selector(json::parse(R"({"matchExpressions": [{"key": "k", "operator": "Exists"}]})"));
  REQUIRE(s.ok());
  CHECK(s->match_expressions.at(0).operator_ == "Exists");
  const auto bad = model::decode_label_selector(json::parse(R"({"matchExpressions": [{"key": "k", "operator": "Gt"}]})"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == R"(matchExpressions[0].operator: expected "In", "NotIn", "Exists" or "DoesNotExist", got "Gt")");
}

TEST_CASE("a bad topology source field is refused with its JSON path", "[topology_source_codec]") {
  struct Row {
    const char* document;
    std::string message;
  };
  const Row rows[] = {
      {R"({"spec": {"nodeLabels": {}, "webhook": {}}})",
       "spec.webhook: exactly one of nodeLabels, configMap or webhook may be set, but nodeLabels is too"},
      {R"({"spec": {"nodeLabels": true}})", "spec.nodeLabels: expected an object, got true"},
      {R"({"spec": {"levels": "a"}})", R"(spec.levels: expected an array, got "a")"},
      {R"({"spec": {"nodeSelector": {"matchLabels": {"a": false}}}})",
       R"(spec.nodeSelector.matchLabels["a"]: expected a string, got false)"},
      {R"({"spec": {"nodeSelector": {"matchExpressions": [{"key": "k", "operator": "In", "values": [1]}]}}})",
       "spec.nodeSelector.matchExpressions[0].values[0]: expected a string, got 1"},
      {R"({"status": {"conditions": [{"type": "Ready"}]}})",
       R"(status.conditions[0].status: expected "True", "False" or "Unknown", got "")"},
      {R"({"spec": {"configMap": {"maxStaleness": "10"}}})",
       R"(spec.configMap.maxStaleness: time: missing unit in duration "10")"},
      {R"({"spec": {"webhook": {"pollInterval": 60}}})", "spec.webhook.pollInterval: expected a string, got 60"},
      {R"({"status": {"lastSuccessfulRefreshTime": "yesterday"}})",
       R"(status.lastSuccessfulRefreshTime: expected an RFC 3339 time, got "yesterday")"},
      {R"({"apiVersion": "worker.gpustack.ai/v2"})",
       R"(apiVersion: expected "worker.gpustack.ai/v1" or "worker.gpustack.ai/v1alpha1", got "worker.gpustack.ai/v2")"},
  };
  for (const auto& r : rows) {
    INFO(r.document);
    const auto decoded = model::decode_topology_source(json::parse(r.document));
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error() == r.message);
  }
}
