#include <catch2/catch.hpp>

#include "sim/kube_documents.h"
#include "sim/yaml_writer.h"

using nlohmann::json;

TEST_CASE("YAML output reads back as the same JSON, strings that look like numbers included", "[yaml_writer]") {
  const json v = {
      {"metadata", {{"name", "node-a"}, {"labels", {{"gpustack.ai/managed", "true"}, {"x.count", "16"}, {"empty", ""}}}}},
      {"status", {{"capacity", {{"nvidia.com/gpu.sliced.units", "6400k"}, {"cpu", "8"}}}}},
      {"list", json::array({json{{"a", 1}, {"b", json::array({1, 2})}}, "plain", "it's", nullptr, false})},
      {"patch", {{"gone", nullptr}}},
      {"emptyMap", json::object()},
      {"emptyList", json::array()},
  };
  const std::string text = chaintwin::sim::to_yaml(v);
  const auto back = chaintwin::sim::parse_kubernetes_objects(text, "roundtrip.yaml");
  REQUIRE(back.ok());
  CHECK(back->at(0).object == v);
}

TEST_CASE("plain strings stay unquoted so the output reads like kubectl's", "[yaml_writer]") {
  CHECK(chaintwin::sim::to_yaml(json{{"k", "gpustack--generic-linux-amd64"}}) == "k: gpustack--generic-linux-amd64\n");
  CHECK(chaintwin::sim::to_yaml(json{{"k", "16"}}) == "k: '16'\n");
  CHECK(chaintwin::sim::to_yaml(json{{"k", "true"}}) == "k: 'true'\n");
}
