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

TEST_CASE("a topology source keeps only the name of a configMap or webhook arm", "[topology_source_codec]") {
  const auto ts = model::decode_topology_source(json::parse(
      R"({"apiVersion": "worker.gpustack.ai/v1alpha1", "kind": "TopologySource", "metadata": {"name": "inv"},
          "spec": {"nodeSelector": {}, "levels": ["example.com/block"],
                   "configMap": {"configMapRef": {"namespace": "gpustack-system", "name": "inv"}, "key": "snapshot",
                                 "maxStaleness": "1h"}}})"));
  REQUIRE(ts.ok());
  CHECK(ts->arm == "configMap");
  CHECK(ts->node_selector == model::LabelSelector{});
  CHECK(model::encode_topology_source(*ts).at("spec") ==
        json::parse(R"({"nodeSelector": {}, "levels": ["example.com/block"], "configMap": {}})"));
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
