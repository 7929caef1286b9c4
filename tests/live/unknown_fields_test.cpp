#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "live/unknown_fields.h"
#include "model/api/devices_codec.h"
#include "model/api/instance_type_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/scenario/default_scenario.h"
#include "sim/scenario/scenario_loader.h"

using namespace chaintwin;
using json = nlohmann::json;

TEST_CASE("a replace keeps what the model does not read and drops what the plan removes", "[live][unknown-fields]") {
  struct Row {
    const char* what;
    json sent, round_trip, planned, expected;
  };
  const std::vector<Row> rows = {
      {"a field the model does not know is put back", json{{"a", 1}, {"future", {{"x", true}}}}, json{{"a", 1}},
       json{{"a", 2}}, json{{"a", 2}, {"future", {{"x", true}}}}},
      {"a key the model reads and the plan drops stays dropped", json{{"labels", {{"keep", "1"}, {"gone", "2"}}}},
       json{{"labels", {{"keep", "1"}, {"gone", "2"}}}}, json{{"labels", {{"keep", "1"}}}},
       json{{"labels", {{"keep", "1"}}}}},
      {"a scalar the model reads is the plan's", json{{"q", "25600k"}}, json{{"q", "25600k"}}, json{{"q", "1600k"}},
       json{{"q", "1600k"}}},
      {"list items are matched by name, wherever the plan puts them",
       json{{"fl", {{{"name", "a"}, {"n", 1}, {"extra", "A"}}, {{"name", "b"}, {"n", 2}, {"extra", "B"}}}}},
       json{{"fl", {{{"name", "a"}, {"n", 1}}, {{"name", "b"}, {"n", 2}}}}},
       json{{"fl", {{{"name", "b"}, {"n", 5}}, {{"name", "c"}, {"n", 6}}}}},
       json{{"fl", {{{"name", "b"}, {"n", 5}, {"extra", "B"}}, {{"name", "c"}, {"n", 6}}}}}},
      {"unnamed list items are matched by position when the lengths agree",
       json{{"g", {{{"v", 1}, {"x", 9}}}}}, json{{"g", {{{"v", 1}}}}}, json{{"g", {{{"v", 3}}}}},
       json{{"g", {{{"v", 3}, {"x", 9}}}}}},
      {"and left alone when the plan changes the list's length", json{{"g", {{{"v", 1}, {"x", 9}}}}},
       json{{"g", {{{"v", 1}}}}}, json{{"g", {{{"v", 3}}, {{"v", 4}}}}}, json{{"g", {{{"v", 3}}, {{"v", 4}}}}}},
      {"nothing unknown changes nothing", json{{"a", {{"b", 1}}}}, json{{"a", {{"b", 1}}}}, json{{"a", {{"b", 2}}}},
       json{{"a", {{"b", 2}}}}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(live::with_unknown_fields(r.planned, live::unknown_fields(r.sent, r.round_trip)) == r.expected);
  }
  CHECK(live::unknown_fields(json{{"a", 1}}, json{{"a", 2}}).is_null());
}

TEST_CASE("a ClusterQueue as a real API server sends it keeps its server and foreign fields through a replace",
          "[live][unknown-fields]") {
  auto s = sim::load_scenario_text(std::string(sim::data::kDefaultScenarioYaml), "default");
  REQUIRE(s.ok());
  auto settled = model::converge(s->cluster, model::operator_controllers(), "2026-01-01T00:00:00Z");
  REQUIRE(settled.ok());
  REQUIRE_FALSE(settled->state.cluster_queues.empty());
  const model::ClusterQueue& cq = settled->state.cluster_queues.begin()->second;

  // What the API server sends: server-set metadata, managedFields, another controller's annotation,
  // fields of a newer Kueue, a quantity written another way and Kueue's status.
  json sent = model::encode_cluster_queue(cq);
  sent["metadata"]["uid"] = "6f1c2a9e-3d4b-4c8a-9e1f-0a1b2c3d4e5f";
  sent["metadata"]["generation"] = 3;
  sent["metadata"]["creationTimestamp"] = "2026-11-02T08:15:00Z";
  sent["metadata"]["managedFields"] = json::array(
      {{{"manager", "gpustack-operator"}, {"operation", "Update"}, {"apiVersion", "kueue.x-k8s.io/v1beta2"},
        {"fieldsType", "FieldsV1"}, {"fieldsV1", {{"f:spec", {{"f:stopPolicy", json::object()}}}}}}});
  sent["metadata"]["annotations"]["example.com/owner-team"] = "ml-platform";
  sent["spec"]["preemption"]["futurePreemptionKnob"] = "LowerPriority";
  sent["spec"]["futureKnob"] = {{"enabled", true}};
  auto& flavor = sent["spec"]["resourceGroups"][0]["flavors"][0];
  flavor["futureFlavorField"] = "kept";
  const std::string flavor_name = flavor["name"];
  auto decoded = model::decode_cluster_queue(sent);
  REQUIRE(decoded.ok());
  CHECK(decoded->spec == cq.spec);  // the model reads what it knows, whatever else is there

  // The operator's plan: hold the queue.
  model::ClusterQueue planned_cq = *decoded;
  planned_cq.spec.stop_policy = model::StopPolicy::kHold;
  const json unknown = live::unknown_fields(sent, model::encode_cluster_queue(*decoded));
  const json put = live::with_unknown_fields(model::encode_cluster_queue(planned_cq), unknown);

  CHECK(put["spec"]["stopPolicy"] == "Hold");
  CHECK(put["spec"]["preemption"]["futurePreemptionKnob"] == "LowerPriority");
  CHECK(put["spec"]["futureKnob"] == json{{"enabled", true}});
  CHECK(put["metadata"]["uid"] == sent["metadata"]["uid"]);
  CHECK(put["metadata"]["managedFields"] == sent["metadata"]["managedFields"]);
  CHECK(put["metadata"]["annotations"]["example.com/owner-team"] == "ml-platform");
  CHECK(put["spec"]["resourceGroups"][0]["flavors"][0]["name"] == flavor_name);
  CHECK(put["spec"]["resourceGroups"][0]["flavors"][0]["futureFlavorField"] == "kept");
  // And what the model reads stays the model's: the plan decodes back to itself.
  auto back = model::decode_cluster_queue(put);
  REQUIRE(back.ok());
  CHECK(back->spec == planned_cq.spec);
}

namespace {

// What an API server and other writers add to an object the operator owns, at every level the
// model reads: server metadata, another controller's annotation, and fields of newer releases.
json as_served(json o) {
  o["metadata"]["uid"] = "2a1b3c4d-0000-4000-8000-000000000001";
  o["metadata"]["resourceVersion"] = "4711";
  o["metadata"]["managedFields"] = json::array({{{"manager", "kube-controller-manager"}, {"operation", "Update"}}});
  o["metadata"]["annotations"]["example.com/audit"] = "kept";
  if (o.contains("spec")) o["spec"]["futureSpecField"] = {{"x", 1}};
  if (o.contains("status")) o["status"]["futureStatusField"] = "kept";
  return o;
}

template <typename T, typename Encode, typename Decode>
void check_kept(const char* kind, const T& object, Encode encode, Decode decode) {
  INFO(kind);
  const json sent = as_served(encode(object));
  auto decoded = decode(sent);
  REQUIRE(decoded.ok());
  // The extra fields change nothing the model reads but the metadata the server set.
  const auto same_reading = [&](const json& a, const json& b) {
    return a.value("spec", json()) == b.value("spec", json()) && a.value("status", json()) == b.value("status", json()) &&
           a["metadata"].value("labels", json()) == b["metadata"].value("labels", json());
  };
  CHECK(same_reading(encode(*decoded), encode(object)));
  const json put = live::with_unknown_fields(encode(*decoded), live::unknown_fields(sent, encode(*decoded)));
  CHECK(put["metadata"]["managedFields"] == sent["metadata"]["managedFields"]);
  CHECK(put["metadata"]["annotations"]["example.com/audit"] == "kept");
  if (sent.contains("spec")) CHECK(put["spec"]["futureSpecField"] == json{{"x", 1}});
  if (sent.contains("status")) CHECK(put["status"]["futureStatusField"] == "kept");
  auto back = decode(put);
  REQUIRE(back.ok());
  CHECK(encode(*back) == encode(*decoded));
}

}  // namespace

TEST_CASE("every kind the operator writes keeps foreign fields through a replace", "[live][unknown-fields]") {
  auto s = sim::load_scenario_text(std::string(sim::data::kDefaultScenarioYaml), "default");
  REQUIRE(s.ok());
  auto settled = model::converge(s->cluster, model::operator_controllers(), "2026-01-01T00:00:00Z");
  REQUIRE(settled.ok());
  const model::ClusterState& c = settled->state;
  REQUIRE_FALSE(c.instance_types.empty());
  REQUIRE_FALSE(c.devices.empty());
  REQUIRE_FALSE(c.resource_flavors.empty());
  REQUIRE_FALSE(c.local_queues.empty());
  REQUIRE_FALSE(c.admission_checks.empty());
  check_kept("InstanceType", c.instance_types.begin()->second, model::encode_instance_type, model::decode_instance_type);
  check_kept("Devices", c.devices.begin()->second, model::encode_devices, model::decode_devices);
  check_kept("ResourceFlavor", c.resource_flavors.begin()->second, model::encode_resource_flavor,
             model::decode_resource_flavor);
  check_kept("LocalQueue", c.local_queues.begin()->second, model::encode_local_queue, model::decode_local_queue);
  check_kept("AdmissionCheck", c.admission_checks.begin()->second, model::encode_admission_check,
             model::decode_admission_check);
  check_kept("ClusterQueue", c.cluster_queues.begin()->second, model::encode_cluster_queue, model::decode_cluster_queue);
  if (!c.topologies.empty())
    check_kept("Topology", c.topologies.begin()->second, model::encode_topology, model::decode_topology);
}
