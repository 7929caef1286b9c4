#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/api/node_codec.h"
#include "model/api/object_meta_codec.h"

namespace model = chaintwin::model;
using nlohmann::json;

namespace {

model::Quantity q(const char* text) { return model::Quantity::parse(text).value(); }

model::Node gpu_node() {
  model::Node n;
  n.metadata.name = "node-a10g";
  n.metadata.uid = "3d9c2b1a-0f1e-4b7d-9c55-8e2a1f0b3c44";
  n.metadata.resource_version = "1207";
  n.metadata.labels = {{"kubernetes.io/os", "linux"}, {"kubernetes.io/arch", "amd64"}, {"gpustack.ai/managed", "true"}};
  n.metadata.annotations = {{"feature.gpustack.ai/cpu-name", "AMD EPYC 7R32"}};
  n.unschedulable = true;
  n.status.capacity = {{"cpu", q("8")}, {"memory", q("32Gi")}, {"nvidia.com/gpu", q("1")},
                       {"nvidia.com/gpu.sliced.units", q("1600k")}, {"nvidia.com/gpu.sliced.memory-mib", q("24576")}};
  n.status.allocatable = {{"cpu", q("7800m")}, {"memory", q("31Gi")}, {"nvidia.com/gpu", q("1")}};
  return n;
}

}  // namespace

TEST_CASE("a GPU node survives a JSON round trip with quantities in canonical form", "[node_codec]") {
  const auto node = gpu_node();
  const json encoded = model::encode_node(node);
  CHECK(encoded.at("apiVersion") == "v1");
  CHECK(encoded.at("kind") == "Node");
  CHECK(encoded.at("spec").at("unschedulable") == true);
  CHECK(encoded.at("status").at("capacity").at("nvidia.com/gpu.sliced.units") == "1600k");
  CHECK(encoded.at("status").at("allocatable").at("cpu") == "7800m");
  const auto decoded = model::decode_node(encoded);
  REQUIRE(decoded.ok());
  CHECK(*decoded == node);
}

TEST_CASE("node quantities read from strings or plain numbers, and print canonically", "[node_codec]") {
  const auto decoded = model::decode_node(json::parse(
      R"({"kind": "Node", "metadata": {"name": "n"}, "status": {"capacity": {"cpu": 4, "nvidia.com/gpu.sliced.units": "6400000"}}})"));
  REQUIRE(decoded.ok());
  CHECK(decoded->status.capacity.at("cpu") == q("4"));
  CHECK(model::encode_node(*decoded).at("status").at("capacity").at("nvidia.com/gpu.sliced.units") == "6400k");
  CHECK_FALSE(decoded->unschedulable);
}

TEST_CASE("a bad node field is refused with its JSON path", "[node_codec]") {
  struct Row {
    const char* document;
    std::string message;
  };
  const Row rows[] = {
      {R"({"status": {"capacity": {"nvidia.com/gpu": "x"}}})",
       "status.capacity[\"nvidia.com/gpu\"]: " + model::Quantity::parse("x").error()},
      {R"({"status": {"allocatable": {"cpu": true}}})", R"(status.allocatable["cpu"]: expected a quantity string, got true)"},
      {R"({"status": {"capacity": []}})", "status.capacity: expected an object, got []"},
      {R"({"spec": {"unschedulable": "yes"}})", R"(spec.unschedulable: expected a boolean, got "yes")"},
      {R"({"apiVersion": "v2"})", R"(apiVersion: expected "v1", got "v2")"},
      {R"({"metadata": {"finalizers": ["a", 2]}})", "metadata.finalizers[1]: expected a string, got 2"},
      {R"({"metadata": {"generation": -1}})", "metadata.generation: must not be negative, got -1"},
  };
  for (const auto& r : rows) {
    INFO(r.document);
    const auto decoded = model::decode_node(json::parse(r.document));
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error() == r.message);
  }
}

TEST_CASE("object metadata round-trips every field it models and omits empty ones", "[object_meta_codec]") {
  model::ObjectMeta meta;
  meta.name = "gpustack-fnv64-1a7145d0a5248d55";
  meta.namespace_ = "team-a";
  meta.uid = "u-1";
  meta.resource_version = "77";
  meta.generation = 3;
  meta.creation_timestamp = "2026-09-25T08:00:00Z";
  meta.deletion_timestamp = "2026-09-25T09:00:00Z";
  meta.labels = {{"a", "1"}};
  meta.annotations = {{"schedule.gpustack.ai/queue", "gpustack--nvidia-a10g-linux-amd64"}};
  meta.finalizers = {"gpustack.ai/controlled"};
  meta.owner_references = {{"kueue.x-k8s.io/v1beta2", "ClusterQueue", "gpustack--nvidia-a10g-linux-amd64", "u-2", true},
                           {"v1", "Node", "node-a", "u-3", false}};
  const json encoded = model::encode_object_meta(meta);
  CHECK(encoded.at("ownerReferences")[0].at("controller") == true);
  CHECK_FALSE(encoded.at("ownerReferences")[1].contains("controller"));
  const auto decoded = model::decode_object_meta(encoded);
  REQUIRE(decoded.ok());
  CHECK(*decoded == meta);

  CHECK(model::encode_object_meta(model::ObjectMeta{}) == json::object());
  const auto bad = model::decode_object_meta(json::parse(R"({"annotations": {"k": 1}})"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == R"(annotations["k"]: expected a string, got 1)");
}
