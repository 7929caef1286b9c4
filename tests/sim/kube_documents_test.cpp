#include <catch2/catch.hpp>

#include "sim/kube_documents.h"

using chaintwin::sim::parse_kubernetes_objects;

TEST_CASE("several YAML documents and a List come out as one object each, with their lines", "[kube_documents]") {
  const std::string text =
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  labels:\n    kubernetes.io/os: linux\n---\n"
      "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: b\n"
      "- apiVersion: worker.gpustack.ai/v1\n  kind: Devices\n  metadata:\n    name: b\n";
  const auto objs = parse_kubernetes_objects(text, "c.yaml");
  REQUIRE(objs.ok());
  REQUIRE(objs->size() == 3);
  CHECK(objs->at(0).describe() == "Node/a");
  CHECK(objs->at(0).where("metadata.labels[\"kubernetes.io/os\"]") == "c.yaml:6");
  CHECK(objs->at(1).describe() == "Node/b");
  CHECK(objs->at(1).where("metadata.name") == "c.yaml:14");
  CHECK(objs->at(2).describe() == "Devices/b");
  CHECK(objs->at(2).where("spec.groups[3].id") == "c.yaml:15");
}

TEST_CASE("YAML scalars are typed as the core schema and quoted ones stay strings", "[kube_documents]") {
  const auto objs = parse_kubernetes_objects("kind: X\na: 12\nb: '12'\nc: true\nd: 1.5\ne: 24Gi\nf: null\n", "t.yaml");
  REQUIRE(objs.ok());
  const auto& o = objs->at(0).object;
  CHECK(o["a"] == 12);
  CHECK(o["b"] == "12");
  CHECK(o["c"] == true);
  CHECK(o["d"] == 1.5);
  CHECK(o["e"] == "24Gi");
  CHECK(o["f"].is_null());
}

TEST_CASE("JSON input is read the same way as YAML", "[kube_documents]") {
  const auto objs = parse_kubernetes_objects("{\"kind\": \"Node\", \"metadata\": {\"name\": \"n\"}, \"x\": [1, \"2\"]}", "n.json");
  REQUIRE(objs.ok());
  CHECK(objs->at(0).object["x"][0] == 1);
  CHECK(objs->at(0).object["x"][1] == "2");
}

TEST_CASE("text that is not YAML is refused with the file and line", "[kube_documents]") {
  const auto objs = parse_kubernetes_objects("kind: Node\nmetadata: [unclosed\n", "bad.yaml");
  REQUIRE_FALSE(objs.ok());
  CHECK(objs.error().rfind("bad.yaml:", 0) == 0);
  CHECK(objs.error().find("not valid YAML or JSON") != std::string::npos);
  const auto scalar = parse_kubernetes_objects("just a string\n", "s.yaml");
  REQUIRE_FALSE(scalar.ok());
  CHECK(scalar.error() == "s.yaml:1: expected a Kubernetes object (a mapping with apiVersion and kind)");
}
