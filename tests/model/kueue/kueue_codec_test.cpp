#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/kueue/condition_codec.h"
#include "model/kueue/kueue_codec.h"

namespace model = chaintwin::model;
using nlohmann::json;

namespace {

model::ResourceFlavor a10g_flavor() {
  model::ResourceFlavor rf;
  rf.metadata.name = "gpustack--intel--nvidia-a10g-linux-amd64-1d-fnv64-87bf574bea2a4f23";
  rf.metadata.labels = {{"resource.gpustack.ai/type", "nodes"}, {"kubernetes.io/os", "linux"}};
  rf.metadata.annotations = {{"note.gpustack.ai/product", "NVIDIA A10G"}};
  rf.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
  rf.spec.node_labels = {{"gpustack.ai/managed", "true"},
                         {"acceleratable.feature.gpustack.ai/nvidia-a10g", "true"},
                         {"topology.gpustack.ai/profile", "fnv64-87bf574bea2a4f23"}};
  rf.spec.tolerations = {{"", "Exists", "", ""}};
  rf.spec.topology_name = "gpustack-fnv64-87bf574bea2a4f23";
  return rf;
}

template <typename T, typename Decode>
void check_refusals(Decode decode, std::initializer_list<std::pair<const char*, std::string>> rows) {
  for (const auto& [document, message] : rows) {
    INFO(document);
    const auto decoded = decode(json::parse(document));
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error() == message);
  }
}

}  // namespace

TEST_CASE("a resource flavor round-trips with v1beta2 type meta and the API's field names", "[kueue_codec]") {
  auto rf = a10g_flavor();
  rf.spec.node_taints = {{"gpu", "", "NoSchedule"}};
  const json j = model::encode_resource_flavor(rf);
  CHECK(j.at("apiVersion") == "kueue.x-k8s.io/v1beta2");
  CHECK(j.at("kind") == "ResourceFlavor");
  CHECK(j.at("spec").at("topologyName") == "gpustack-fnv64-87bf574bea2a4f23");
  CHECK(j.at("spec").at("tolerations") == json::parse(R"([{"operator": "Exists"}])"));
  CHECK(j.at("spec").at("nodeTaints") == json::parse(R"([{"key": "gpu", "effect": "NoSchedule"}])"));
  CHECK(j.at("spec").at("nodeLabels").at("gpustack.ai/managed") == "true");
  const auto back = model::decode_resource_flavor(j);
  REQUIRE(back.ok());
  CHECK(*back == rf);
}

TEST_CASE("a flavor with nothing in its spec writes an empty spec object", "[kueue_codec]") {
  model::ResourceFlavor rf;
  rf.metadata.name = "default";
  const json j = model::encode_resource_flavor(rf);
  CHECK(j.at("spec") == json::object());
  CHECK(*model::decode_resource_flavor(j) == rf);
}

TEST_CASE("a v1beta1 resource flavor is read too", "[kueue_codec]") {
  const auto rf = model::decode_resource_flavor(json::parse(
      R"({"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ResourceFlavor", "metadata": {"name": "f"},
          "spec": {"nodeLabels": {"a": "b"}}})"));
  REQUIRE(rf.ok());
  CHECK(rf->spec.node_labels.at("a") == "b");
}

TEST_CASE("a bad resource flavor field is refused with its JSON path", "[kueue_codec]") {
  check_refusals<model::ResourceFlavor>(
      model::decode_resource_flavor,
      {
          {R"({"kind": "ClusterQueue"})", R"(kind: expected "ResourceFlavor", got "ClusterQueue")"},
          {R"({"apiVersion": "kueue.x-k8s.io/v1alpha1"})",
           R"(apiVersion: expected "kueue.x-k8s.io/v1beta2" or "kueue.x-k8s.io/v1beta1", got "kueue.x-k8s.io/v1alpha1")"},
          {R"({"spec": {"tolerations": [{"operator": "In"}]}})",
           R"(spec.tolerations[0].operator: expected "Exists" or "Equal", got "In")"},
          {R"({"spec": {"tolerations": [{"effect": "Never"}]}})",
           R"(spec.tolerations[0].effect: expected "NoSchedule", "PreferNoSchedule" or "NoExecute", got "Never")"},
          {R"({"spec": {"nodeTaints": [{"effect": "NoSchedule"}]}})", "spec.nodeTaints[0].key: must not be empty"},
          {R"({"spec": {"nodeTaints": [{"key": "k"}]}})",
           R"(spec.nodeTaints[0].effect: expected "NoSchedule", "PreferNoSchedule" or "NoExecute", got "")"},
          {R"({"spec": {"nodeLabels": {"a": 1}}})", R"(spec.nodeLabels["a"]: expected a string, got 1)"},
          {R"({"spec": {"topologyName": 3}})", "spec.topologyName: expected a string, got 3"},
          {R"({"spec": []})", "spec: expected an object, got []"},
          {R"([])", "expected an object, got []"},
      });
}

TEST_CASE("a local queue round-trips its namespace, owner reference and cluster queue", "[kueue_codec]") {
  model::LocalQueue lq;
  lq.metadata.name = "gpustack-fnv64-c4680bb149644f1c";
  lq.metadata.namespace_ = "team-a";
  lq.metadata.annotations = {{"schedule.gpustack.ai/queue", "gpustack--nvidia-a10g-linux-amd64"}};
  lq.metadata.owner_references = {
      {"kueue.x-k8s.io/v1beta2", "ClusterQueue", "gpustack--nvidia-a10g-linux-amd64", "uid-7", true}};
  lq.cluster_queue = "gpustack--nvidia-a10g-linux-amd64";
  const json j = model::encode_local_queue(lq);
  CHECK(j.at("kind") == "LocalQueue");
  CHECK(j.at("metadata").at("namespace") == "team-a");
  CHECK(j.at("spec") == json{{"clusterQueue", "gpustack--nvidia-a10g-linux-amd64"}});
  CHECK(j.at("metadata").at("ownerReferences").at(0).at("controller") == true);
  const auto back = model::decode_local_queue(j);
  REQUIRE(back.ok());
  CHECK(*back == lq);
  check_refusals<model::LocalQueue>(model::decode_local_queue,
                                    {{R"({"spec": {"clusterQueue": ["q"]}})",
                                      R"(spec.clusterQueue: expected a string, got ["q"])"}});
}

TEST_CASE("an admission check round-trips its controller name, retry delay and Active condition", "[kueue_codec]") {
  model::AdmissionCheck ac;
  ac.metadata.name = "gpustack-node-devices";
  ac.controller_name = "worker.gpustack.ai/node-devices";
  ac.conditions = {{"Active", "True", "Ready", "the node-devices admission check controller is running", 2}};
  json j = model::encode_admission_check(ac);
  CHECK(j.at("spec") == json{{"controllerName", "worker.gpustack.ai/node-devices"}});
  CHECK(j.at("status").at("conditions").at(0).at("observedGeneration") == 2);
  auto back = model::decode_admission_check(j);
  REQUIRE(back.ok());
  CHECK(*back == ac);
  CHECK(back->active());

  ac.retry_delay_minutes = 15;
  ac.conditions.clear();
  j = model::encode_admission_check(ac);
  CHECK(j.at("spec").at("retryDelayMinutes") == 15);
  CHECK(j.at("status") == json::object());
  back = model::decode_admission_check(j);
  REQUIRE(back.ok());
  CHECK(*back == ac);
  CHECK_FALSE(back->active());
}

TEST_CASE("a bad admission check field is refused with its JSON path", "[kueue_codec]") {
  check_refusals<model::AdmissionCheck>(
      model::decode_admission_check,
      {
          {R"({"spec": {"retryDelayMinutes": -1}})", "spec.retryDelayMinutes: must not be negative, got -1"},
          {R"({"spec": {"retryDelayMinutes": "15"}})", R"(spec.retryDelayMinutes: expected an integer, got "15")"},
          {R"({"status": {"conditions": [{"type": "Active", "status": "yes"}]}})",
           R"(status.conditions[0].status: expected "True", "False" or "Unknown", got "yes")"},
          {R"({"status": {"conditions": [{"status": "True"}]}})", "status.conditions[0].type: must not be empty"},
          {R"({"status": {"conditions": {}}})", "status.conditions: expected an array, got {}"},
          {R"({"status": {"conditions": [{"type": "Active", "status": "True", "observedGeneration": -2}]}})",
           "status.conditions[0].observedGeneration: must not be negative, got -2"},
      });
}

TEST_CASE("conditions ignore lastTransitionTime and omit a zero observedGeneration", "[condition_codec]") {
  const auto decoded = model::decode_conditions(json::parse(
      R"([{"type": "TopologyReady", "status": "Unknown", "reason": "AwaitingQueueStatus", "message": "m",
           "lastTransitionTime": "2025-01-01T00:00:00Z"}])"));
  REQUIRE(decoded.ok());
  REQUIRE(decoded->size() == 1);
  CHECK(decoded->front().reason == "AwaitingQueueStatus");
  CHECK(model::encode_conditions(*decoded) ==
        json::parse(R"([{"type": "TopologyReady", "status": "Unknown", "reason": "AwaitingQueueStatus", "message": "m"}])"));
}

TEST_CASE("a topology writes its levels as nodeLabel entries and reads v1beta1 and v1alpha1 too", "[kueue_codec]") {
  model::Topology t;
  t.metadata.name = "gpustack-fnv64-570aeab478df5111";
  t.metadata.labels = {{"resource.gpustack.ai/type", "topology"}};
  t.levels = {"topology.kubernetes.io/region", "topology.kubernetes.io/zone", "kubernetes.io/hostname"};
  const json j = model::encode_topology(t);
  CHECK(j.at("apiVersion") == "kueue.x-k8s.io/v1beta2");
  CHECK(j.at("spec").at("levels").at(2) == json{{"nodeLabel", "kubernetes.io/hostname"}});
  CHECK(*model::decode_topology(j) == t);
  for (const char* version : {"kueue.x-k8s.io/v1beta1", "kueue.x-k8s.io/v1alpha1"}) {
    json old = j;
    old["apiVersion"] = version;
    CHECK(*model::decode_topology(old) == t);
  }
  check_refusals<model::Topology>(model::decode_topology,
                                  {{R"({"spec": {"levels": [{"nodeLabel": ""}]}})",
                                    "spec.levels[0].nodeLabel: must not be empty"},
                                   {R"({"spec": {"levels": ["kubernetes.io/hostname"]}})",
                                    R"(spec.levels[0]: expected an object, got "kubernetes.io/hostname")"}});
}

TEST_CASE("a namespace round-trips its metadata and ignores its status", "[kueue_codec]") {
  model::Namespace ns;
  ns.metadata.name = "team-a";
  ns.metadata.labels = {{"kubernetes.io/metadata.name", "team-a"}};
  const json j = model::encode_namespace(ns);
  CHECK(j == json::parse(
                 R"({"apiVersion": "v1", "kind": "Namespace",
                     "metadata": {"name": "team-a", "labels": {"kubernetes.io/metadata.name": "team-a"}}})"));
  json with_status = j;
  with_status["status"] = {{"phase", "Active"}};
  CHECK(*model::decode_namespace(with_status) == ns);
  check_refusals<model::Namespace>(model::decode_namespace,
                                   {{R"({"apiVersion": "v2"})", R"(apiVersion: expected "v1", got "v2")"},
                                    {R"({"metadata": {"name": 5}})", "metadata.name: expected a string, got 5"}});
}
