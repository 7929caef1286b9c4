#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "model/workload/workload_codec.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/default_scenario.h"
#include "sim/scenario/scenario_loader.h"

using namespace chaintwin;
using json = nlohmann::json;

namespace {

// A Workload as kube-apiserver returns it for a Deployment's Pod group queued by the operator:
// server metadata, managedFields, owner references, fields this model does not read (requeueState,
// resourceRequests, a newer Kueue's fields), quantities in several spellings, and limits without
// requests for the extended resources.
json served_workload(const std::string& api_version) {
  return json::parse(R"({
  "apiVersion": "API",
  "kind": "Workload",
  "metadata": {
    "name": "pod-chat-7d9f-1a2b3", "namespace": "team-a", "uid": "0b8c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3",
    "resourceVersion": "918273", "generation": 2, "creationTimestamp": "2026-11-30T09:12:44Z",
    "labels": {"kueue.x-k8s.io/job-uid": "4f3e2d1c"},
    "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "chat-7d9f", "uid": "4f3e2d1c", "controller": true}],
    "managedFields": [{"manager": "kueue", "operation": "Update", "apiVersion": "kueue.x-k8s.io/v1beta2",
                       "time": "2026-11-30T09:12:45Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {}},
                       "subresource": "status"}]
  },
  "spec": {
    "queueName": "gpustack-fnv64-0123456789abcdef",
    "priority": 100,
    "podSets": [{
      "name": "main",
      "count": 2,
      "minCount": 1,
      "template": {
        "metadata": {"labels": {"app": "chat"}, "annotations": {"kueue.x-k8s.io/podset-required-topology": "topology.kubernetes.io/zone"}},
        "spec": {
          "containers": [{
            "name": "server", "image": "vllm/vllm-openai:v0.6.0",
            "resources": {"requests": {"cpu": "500m", "memory": "16Gi"},
                          "limits": {"memory": "16Gi", "nvidia.com/gpu.sliced.nvidia-h100-80gb-hbm3": "1"}}
          }],
          "initContainers": [{"name": "sidecar", "restartPolicy": "Always", "resources": {"requests": {"cpu": "100m"}}}],
          "nodeSelector": {"kubernetes.io/os": "linux"},
          "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
          "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "sliced-max-free-units.fit.gpustack.ai/nvidia-h100-80gb-hbm3", "operator": "Gt", "values": ["399999"]}]}]}}}
        }
      }
    }],
    "futureSpecField": {"x": 1}
  },
  "status": {
    "admission": {
      "clusterQueue": "gpustack--nvidia-h100-80gb-hbm3-linux-amd64",
      "podSetAssignments": [{"name": "main", "count": 2,
                             "flavors": {"nvidia.com/gpu.sliced.nvidia-h100-80gb-hbm3": "gpustack--nvidia-h100-80gb-hbm3-linux-amd64"},
                             "resourceUsage": {"nvidia.com/gpu.sliced.nvidia-h100-80gb-hbm3": 800000, "cpu": "1"}}]
    },
    "conditions": [
      {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved", "message": "Quota reserved in ClusterQueue gpustack--nvidia-h100-80gb-hbm3-linux-amd64",
       "lastTransitionTime": "2026-11-30T09:12:45Z", "observedGeneration": 2},
      {"type": "Admitted", "status": "False", "reason": "Pending", "message": "The workload has not all checks ready",
       "lastTransitionTime": "2026-11-30T09:12:45Z"}
    ],
    "admissionChecks": [{"name": "gpustack-node-devices", "state": "Retry", "message": "no node has room",
                         "lastTransitionTime": "2026-11-30T09:12:46Z", "podSetUpdates": []}],
    "requeueState": {"count": 1, "requeueAt": "2026-11-30T09:13:46Z"},
    "resourceRequests": [{"name": "main", "resources": {"cpu": "500m"}}]
  }
})").patch(json::array({{{"op", "replace"}, {"path", "/apiVersion"}, {"value", api_version}}}));
}

}  // namespace

TEST_CASE("a Workload as kube-apiserver sends it decodes to what Kueue and the chain read, in v1beta2 and v1beta1",
          "[model][workload][codec]") {
  for (const char* version : {"kueue.x-k8s.io/v1beta2", "kueue.x-k8s.io/v1beta1"}) {
    INFO(version);
    auto w = model::decode_workload(served_workload(version));
    REQUIRE(w.ok());
    CHECK(w->metadata.name == "pod-chat-7d9f-1a2b3");
    CHECK(w->metadata.namespace_ == "team-a");
    CHECK(w->metadata.creation_timestamp == "2026-11-30T09:12:44Z");
    CHECK(w->queue_name == "gpustack-fnv64-0123456789abcdef");
    CHECK(w->priority == 100);
    CHECK(w->active);
    REQUIRE(w->pod_sets.size() == 1);
    const model::PodSet& ps = w->pod_sets[0];
    CHECK(ps.count == 2);
    CHECK(ps.required_topology_level == "topology.kubernetes.io/zone");
    REQUIRE(ps.template_.containers.size() == 1);
    const auto& requests = ps.template_.containers[0].requests;
    CHECK(requests.at("cpu").to_string() == "500m");
    CHECK(requests.at("memory").to_string() == "16Gi");
    CHECK(requests.at("nvidia.com/gpu.sliced.nvidia-h100-80gb-hbm3").to_string() == "1");  // from its limit
    REQUIRE(ps.template_.init_containers.size() == 1);
    CHECK(ps.template_.init_containers[0].restartable);
    CHECK(ps.template_.node_selector.at("kubernetes.io/os") == "linux");
    REQUIRE(ps.template_.tolerations.size() == 1);
    CHECK(ps.template_.tolerations[0].operator_ == "Exists");
    REQUIRE(ps.template_.required_node_affinity.size() == 1);
    CHECK(ps.template_.required_node_affinity[0].match_expressions[0].op == "Gt");
    CHECK(ps.template_.required_node_affinity[0].match_expressions[0].values == std::vector<std::string>{"399999"});
    REQUIRE(w->status.admission.has_value());
    CHECK(w->status.admission->cluster_queue == "gpustack--nvidia-h100-80gb-hbm3-linux-amd64");
    const auto& psa = w->status.admission->pod_set_assignments.at(0);
    CHECK(psa.count == 2);
    CHECK(psa.resource_usage.at("nvidia.com/gpu.sliced.nvidia-h100-80gb-hbm3").to_string() == "800k");
    CHECK(psa.resource_usage.at("cpu").to_string() == "1");
    CHECK(w->quota_reserved());
    CHECK_FALSE(w->admitted());  // the check says Retry
    REQUIRE(w->status.admission_checks.size() == 1);
    CHECK(w->status.admission_checks[0].state == model::CheckState::kRetry);
    CHECK(w->status.admission_checks[0].message == "no node has room");
  }
}

TEST_CASE("every Workload of a simulated cluster reads back as it was served", "[model][workload][codec]") {
  auto scenario = sim::load_scenario_text(std::string(sim::data::kDefaultScenarioYaml), "default");
  REQUIRE(scenario.ok());
  sim::RunOptions options;
  options.until = sim::SimTime::hours(6);
  options.keep_events = false;
  sim::Simulation simulation(std::move(*scenario), options);
  REQUIRE(simulation.run().ok());
  const auto& workloads = simulation.workloads().workloads;
  REQUIRE(workloads.size() > 50);
  int admitted = 0;
  for (const auto* kv : workloads.in_key_order()) {
    const auto& [key, w] = *kv;
    INFO(key);
    const json served = model::encode_workload(w);
    auto back = model::decode_workload(served);
    REQUIRE(back.ok());
    CHECK(model::encode_workload(*back) == served);
    CHECK(back->queue_name == w.queue_name);
    CHECK(back->pod_sets == w.pod_sets);
    CHECK(back->status.admission == w.status.admission);
    CHECK(back->admitted() == w.admitted());
    CHECK(back->finished() == w.finished());
    admitted += back->admitted() ? 1 : 0;
  }
  CHECK(admitted > 0);
}

TEST_CASE("a Workload that cannot be read is refused with the path of the field", "[model][workload][codec]") {
  struct Row {
    const char* what;
    const char* patch;
    const char* message;
  };
  const std::vector<Row> rows = {
      {"another kind", R"([{"op":"replace","path":"/kind","value":"Job"}])", "kind"},
      {"no PodSet", R"([{"op":"replace","path":"/spec/podSets","value":[]}])", "spec.podSets: must have at least one PodSet"},
      {"a count that is not a number", R"([{"op":"replace","path":"/spec/podSets/0/count","value":"two"}])",
       "spec.podSets[0].count"},
      {"a malformed quantity", R"([{"op":"replace","path":"/spec/podSets/0/template/spec/containers/0/resources/requests/cpu","value":"lots"}])",
       "spec.podSets[0].template.spec.containers[0].resources.requests"},
      {"an unknown check state", R"([{"op":"replace","path":"/status/admissionChecks/0/state","value":"Maybe"}])",
       "status.admissionChecks[0].state: expected Pending, Ready, Retry or Rejected, got \"Maybe\""},
      {"a condition without a status", R"([{"op":"remove","path":"/status/conditions/0/status"}])", "status.conditions[0].status"},
      {"a priority class of another kind",
       R"([{"op":"add","path":"/spec/priorityClassRef","value":{"group":"kueue.x-k8s.io","kind":"PriorityClass","name":"x"}}])",
       "spec.priorityClassRef: group 'kueue.x-k8s.io' and kind 'PriorityClass'"},
      {"a priority class without a name",
       R"([{"op":"add","path":"/spec/priorityClassRef","value":{"group":"scheduling.k8s.io","kind":"PriorityClass"}}])",
       "spec.priorityClassRef.name: Required value"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    auto w = model::decode_workload(served_workload("kueue.x-k8s.io/v1beta2").patch(json::parse(r.patch)));
    REQUIRE_FALSE(w.ok());
    CHECK_THAT(w.error(), Catch::Matchers::Contains(r.message));
  }
}

TEST_CASE("a Workload's priority class reference reads from v1beta2's priorityClassRef and v1beta1's source and name",
          "[model][workload][codec]") {
  json v2 = served_workload("kueue.x-k8s.io/v1beta2");
  v2["spec"]["priorityClassRef"] = {{"group", "kueue.x-k8s.io"}, {"kind", "WorkloadPriorityClass"}, {"name", "urgent"}};
  const auto a = model::decode_workload(v2);
  REQUIRE(a.ok());
  REQUIRE(a->priority_class_ref);
  CHECK(*a->priority_class_ref == model::PriorityClassRef{"kueue.x-k8s.io", "WorkloadPriorityClass", "urgent"});
  // It is written back as it was read.
  const auto again = model::decode_workload(model::encode_workload(*a));
  REQUIRE(again.ok());
  CHECK(again->priority_class_ref == a->priority_class_ref);
  json v1 = served_workload("kueue.x-k8s.io/v1beta1");
  v1["spec"]["priorityClassSource"] = "scheduling.k8s.io/priorityclass";
  v1["spec"]["priorityClassName"] = "batch-low";
  const auto b = model::decode_workload(v1);
  REQUIRE(b.ok());
  REQUIRE(b->priority_class_ref);
  CHECK(*b->priority_class_ref == model::PriorityClassRef{"scheduling.k8s.io", "PriorityClass", "batch-low"});
  // None given: none kept, none written.
  const auto c = model::decode_workload(served_workload("kueue.x-k8s.io/v1beta2"));
  REQUIRE(c.ok());
  CHECK_FALSE(c->priority_class_ref);
  CHECK_FALSE(model::encode_workload(*c)["spec"].contains("priorityClassRef"));
}
