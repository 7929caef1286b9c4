#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/kueue/cluster_queue_codec.h"

namespace model = chaintwin::model;
using nlohmann::json;

namespace {

model::Quantity q(const char* text) { return model::Quantity::parse(text).value(); }

// The queue the operator writes for an A10G pool, with the status Kueue reports.
model::ClusterQueue a10g_queue() {
  model::ClusterQueue cq;
  cq.metadata.name = "gpustack--nvidia-a10g-linux-amd64";
  cq.metadata.generation = 3;
  cq.metadata.labels = {{"resource.gpustack.ai/type", "instancetypes"}};
  cq.metadata.annotations = {{"topology.gpustack.ai/tas-queue", "true"}};
  cq.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
  model::ResourceGroup g;
  g.covered_resources = {"credits.gpustack.ai/nvidia"};
  g.flavors = {{"gpustack--intel--nvidia-a10g-linux-amd64-1d-fnv64-87bf574bea2a4f23",
                {{"credits.gpustack.ai/nvidia", q("1600k"), std::nullopt, std::nullopt}}},
               {"gpustack--intel--nvidia-a10g-linux-amd64-4d-fnv64-87bf574bea2a4f23",
                {{"credits.gpustack.ai/nvidia", q("12800k"), std::nullopt, std::nullopt}}}};
  cq.spec.resource_groups = {g};
  cq.spec.stop_policy = model::StopPolicy::kNone;
  cq.spec.admission_checks = {"gpustack-node-devices", "gpustack-model-deployment-joint"};
  cq.spec.flavor_fungibility.when_can_borrow = "TryNextFlavor";
  cq.spec.flavor_fungibility.when_can_preempt = "MayStopSearch";
  cq.spec.preemption.reclaim_within_cohort = "Never";
  cq.spec.preemption.borrow_within_cohort_policy = "Never";
  cq.spec.preemption.within_cluster_queue = "LowerPriority";
  cq.status.conditions = {{"Active", "True", "Ready", "Can admit new workloads", 3},
                          {"TopologyReady", "True", "Ready", "", 3}};
  cq.status.pending_workloads = 2;
  cq.status.reserving_workloads = 1;
  cq.status.admitted_workloads = 1;
  cq.status.flavors_reservation = {
      {"gpustack--intel--nvidia-a10g-linux-amd64-1d-fnv64-87bf574bea2a4f23", {{"credits.gpustack.ai/nvidia", q("800k"), q("0")}}}};
  cq.status.flavors_usage = cq.status.flavors_reservation;
  return cq;
}

}  // namespace

TEST_CASE("an operator cluster queue round-trips with the v1beta2 field names", "[cluster_queue_codec]") {
  const auto cq = a10g_queue();
  const json j = model::encode_cluster_queue(cq);
  CHECK(j.at("apiVersion") == "kueue.x-k8s.io/v1beta2");
  CHECK(j.at("kind") == "ClusterQueue");
  const json& spec = j.at("spec");
  CHECK_FALSE(spec.contains("cohortName"));
  CHECK(spec.at("resourceGroups").at(0).at("coveredResources") == json::array({"credits.gpustack.ai/nvidia"}));
  CHECK(spec.at("resourceGroups").at(0).at("flavors").at(1).at("resources").at(0) ==
        json::parse(R"({"name": "credits.gpustack.ai/nvidia", "nominalQuota": "12800k"})"));
  CHECK(spec.at("stopPolicy") == "None");
  CHECK(spec.at("admissionChecksStrategy") ==
        json::parse(R"({"admissionChecks": [{"name": "gpustack-node-devices"}, {"name": "gpustack-model-deployment-joint"}]})"));
  CHECK(spec.at("namespaceSelector") == json::object());
  CHECK(spec.at("flavorFungibility") == json::parse(R"({"whenCanBorrow": "TryNextFlavor", "whenCanPreempt": "MayStopSearch"})"));
  CHECK(spec.at("preemption") == json::parse(
                                     R"({"reclaimWithinCohort": "Never", "borrowWithinCohort": {"policy": "Never"},
                                         "withinClusterQueue": "LowerPriority"})"));
  CHECK(spec.at("queueingStrategy") == "BestEffortFIFO");
  const json& status = j.at("status");
  CHECK(status.at("pendingWorkloads") == 2);
  CHECK(status.at("flavorsReservation").at(0).at("resources").at(0) ==
        json::parse(R"({"name": "credits.gpustack.ai/nvidia", "total": "800k", "borrowed": "0"})"));
  CHECK(status.at("conditions").size() == 2);
  const auto back = model::decode_cluster_queue(j);
  REQUIRE(back.ok());
  CHECK(*back == cq);
}

TEST_CASE("a held queue with no groups or checks omits them and keeps its stop policy", "[cluster_queue_codec]") {
  model::ClusterQueue cq;
  cq.metadata.name = "empty";
  cq.spec.stop_policy = model::StopPolicy::kHold;
  cq.spec.cohort_name = "pool";
  cq.spec.resource_groups = {{{"cpu"}, {{"f", {{"cpu", q("8"), q("2"), q("500m")}}}}}};
  const json j = model::encode_cluster_queue(cq);
  CHECK(j.at("spec").at("stopPolicy") == "Hold");
  CHECK(j.at("spec").at("cohortName") == "pool");
  CHECK_FALSE(j.at("spec").contains("admissionChecksStrategy"));
  CHECK(j.at("spec").at("resourceGroups").at(0).at("flavors").at(0).at("resources").at(0) ==
        json::parse(R"({"name": "cpu", "nominalQuota": "8", "borrowingLimit": "2", "lendingLimit": "500m"})"));
  CHECK(*model::decode_cluster_queue(j) == cq);
  cq.spec.resource_groups.clear();
  cq.spec.stop_policy.reset();
  const json bare = model::encode_cluster_queue(cq);
  CHECK_FALSE(bare.at("spec").contains("resourceGroups"));
  CHECK_FALSE(bare.at("spec").contains("stopPolicy"));
  CHECK(*model::decode_cluster_queue(bare) == cq);
}

TEST_CASE("decoding applies the API's defaults: no selector matches nothing, FIFO is best effort", "[cluster_queue_codec]") {
  const auto cq = model::decode_cluster_queue(json::parse(
      R"({"kind": "ClusterQueue", "metadata": {"name": "q"},
          "spec": {"resourceGroups": [{"coveredResources": ["cpu"],
                   "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 4}]}]}]}})"));
  REQUIRE(cq.ok());
  CHECK_FALSE(cq->spec.namespace_selector_all);
  CHECK(cq->spec.queueing_strategy == "BestEffortFIFO");
  CHECK_FALSE(cq->spec.stop_policy.has_value());
  CHECK(cq->stop_policy() == model::StopPolicy::kNone);
  CHECK(cq->spec.resource_groups.at(0).flavors.at(0).resources.at(0).nominal_quota == q("4"));
  const auto strict = model::decode_cluster_queue(json::parse(R"({"spec": {"queueingStrategy": "StrictFIFO"}})"));
  REQUIRE(strict.ok());
  CHECK(strict->spec.queueing_strategy == "StrictFIFO");
}

TEST_CASE("a v1beta1 queue's cohort and admissionChecks list stand in for the v1beta2 fields", "[cluster_queue_codec]") {
  const auto cq = model::decode_cluster_queue(json::parse(
      R"({"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue", "metadata": {"name": "q"},
          "spec": {"cohort": "c", "admissionChecks": ["a", "b"], "namespaceSelector": {"matchLabels": {}}}})"));
  REQUIRE(cq.ok());
  CHECK(cq->spec.cohort_name == "c");
  CHECK(cq->spec.admission_checks == std::vector<std::string>{"a", "b"});
  CHECK(cq->spec.namespace_selector_all);
}

TEST_CASE("a bad cluster queue field is refused with its JSON path", "[cluster_queue_codec]") {
  struct Row {
    const char* document;
    std::string message;
  };
  const Row rows[] = {
      {R"({"spec": {"stopPolicy": "Drain"}})", R"(spec.stopPolicy: expected "None", "Hold" or "HoldAndDrain", got "Drain")"},
      {R"({"spec": {"resourceGroups": [{"flavors": [{"name": "f", "resources": [{"name": "cpu"}]}]}]}})",
       "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: is required"},
      {R"({"spec": {"resourceGroups": [{"flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": "x"}]}]}]}})",
       "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: " + model::Quantity::parse("x").error()},
      {R"({"spec": {"resourceGroups": [{"flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": "1", "lendingLimit": true}]}]}]}})",
       "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: expected a quantity string, got true"},
      {R"({"spec": {"resourceGroups": [{"coveredResources": "cpu"}]}})",
       R"(spec.resourceGroups[0].coveredResources: expected an array, got "cpu")"},
      {R"({"spec": {"admissionChecksStrategy": {"admissionChecks": ["gpustack-node-devices"]}}})",
       R"(spec.admissionChecksStrategy.admissionChecks[0]: expected an object, got "gpustack-node-devices")"},
      {R"({"spec": {"namespaceSelector": {"matchLabels": {"team": "a"}}}})",
       R"(spec.namespaceSelector: only {} (every namespace) is modelled, got {"matchLabels":{"team":"a"}})"},
      {R"({"spec": {"preemption": {"borrowWithinCohort": "Never"}}})",
       R"(spec.preemption.borrowWithinCohort: expected an object, got "Never")"},
      {R"({"status": {"admittedWorkloads": -1}})", "status.admittedWorkloads: must not be negative, got -1"},
      {R"({"status": {"reservingWorkloads": 4294967296}})",
       "status.reservingWorkloads: expected an integer within int32, got 4294967296"},
      {R"({"status": {"flavorsUsage": [{"name": "f", "resources": [{"name": "cpu", "total": "1.2.3"}]}]}})",
       "status.flavorsUsage[0].resources[0].total: " + model::Quantity::parse("1.2.3").error()},
      {R"({"status": {"conditions": [{"type": "Active", "status": "maybe"}]}})",
       R"(status.conditions[0].status: expected "True", "False" or "Unknown", got "maybe")"},
      {R"({"kind": "LocalQueue"})", R"(kind: expected "ClusterQueue", got "LocalQueue")"},
  };
  for (const auto& r : rows) {
    INFO(r.document);
    const auto decoded = model::decode_cluster_queue(json::parse(r.document));
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error() == r.message);
  }
}

TEST_CASE("a fair-sharing weight is read as Kueue's webhook allows it, and written back", "[cluster_queue_codec][fair-sharing]") {
  struct Row {
    json weight;
    std::string expected;  // the weight as written back, or the refusal
    bool ok;
  };
  const std::vector<Row> rows = {
      {"3", "3", true},
      {0.5, "500m", true},
      {"0", "0", true},  // weight 0: an infinite share when borrowing
      {"2n", "2n", true},
      {"1n", "spec.fairSharing: '1n': when not 0, weight must be > 10e-9", false},
      {"-1", "spec.fairSharing: '-1': must be greater than or equal to 0", false},
      {"many", "spec.fairSharing.weight", false},
  };
  for (const auto& r : rows) {
    INFO(r.weight.dump());
    const json doc = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                      {"kind", "ClusterQueue"},
                      {"metadata", {{"name", "q"}}},
                      {"spec", {{"fairSharing", {{"weight", r.weight}}}}}};
    const auto cq = model::decode_cluster_queue(doc);
    REQUIRE(cq.ok() == r.ok);
    if (!r.ok) {
      CHECK_THAT(cq.error(), Catch::Contains(r.expected));
      continue;
    }
    REQUIRE(cq->spec.fair_sharing_weight.has_value());
    CHECK(model::encode_cluster_queue(*cq)["spec"]["fairSharing"]["weight"] == r.expected);
  }
  const auto none = model::decode_cluster_queue(
      {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "ClusterQueue"}, {"metadata", {{"name", "q"}}}, {"spec", json::object()}});
  REQUIRE(none.ok());
  CHECK_FALSE(none->spec.fair_sharing_weight.has_value());
  CHECK_FALSE(model::encode_cluster_queue(*none)["spec"].contains("fairSharing"));
}
