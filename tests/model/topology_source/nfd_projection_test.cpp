#include <catch2/catch.hpp>

#include "model/stage3/nfd_projection.h"

using namespace chaintwin::model;

namespace {

NodeFeature feature(const std::string& name, const std::string& node, StringMap labels) {
  NodeFeature f;
  f.metadata.namespace_ = "gpustack-system";
  f.metadata.name = name;
  f.metadata.labels[std::string(kNfdNodeNameLabel)] = node;
  f.labels = std::move(labels);
  return f;
}

ClusterState one_node(StringMap labels) {
  ClusterState s;
  s.nodes["a"].metadata.name = "a";
  s.nodes["a"].metadata.labels = std::move(labels);
  return s;
}

}  // namespace

TEST_CASE("a node's labels are its own with its NodeFeatures' labels laid over them", "[nfd_projection]") {
  ClusterState s = one_node({{"own", "x"}, {"topology.gpustack.ai/zone", "old"}});
  s.node_features["gpustack-system/f1"] = feature("f1", "a", {{"topology.gpustack.ai/zone", "z1"}});
  s.node_features["gpustack-system/f2"] = feature("f2", "b", {{"topology.gpustack.ai/zone", "other"}});
  CHECK(projected_node_labels(s.nodes.at("a"), s.node_features) ==
        StringMap{{"own", "x"}, {"topology.gpustack.ai/zone", "z1"}});
}

TEST_CASE("NFD sets the labels NodeFeatures now carry and removes only those the old ones carried",
          "[nfd_projection]") {
  struct Row {
    const char* what;
    std::map<std::string, NodeFeature> before, after;
    StringMap node_before, node_after;
  };
  const NodeFeature zr = feature("f", "a", {{"topology.gpustack.ai/zone", "z1"}, {"topology.gpustack.ai/rack", "k1"}});
  const NodeFeature z = feature("f", "a", {{"topology.gpustack.ai/zone", "z2"}});
  const Row rows[] = {
      {"a new NodeFeature", {}, {{"gpustack-system/f", zr}}, {{"own", "x"}},
       {{"own", "x"}, {"topology.gpustack.ai/zone", "z1"}, {"topology.gpustack.ai/rack", "k1"}}},
      {"a NodeFeature that drops a key and changes one", {{"gpustack-system/f", zr}}, {{"gpustack-system/f", z}},
       {{"own", "x"}, {"topology.gpustack.ai/zone", "z1"}, {"topology.gpustack.ai/rack", "k1"}},
       {{"own", "x"}, {"topology.gpustack.ai/zone", "z2"}}},
      {"a deleted NodeFeature", {{"gpustack-system/f", zr}}, {},
       {{"own", "x"}, {"topology.gpustack.ai/zone", "z1"}, {"topology.gpustack.ai/rack", "k1"}}, {{"own", "x"}}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    ClusterState s = one_node(r.node_before);
    s.node_features = r.after;
    const Plan plan = project_node_features(r.before, s);
    REQUIRE(plan.writes.size() == 1);
    CHECK(plan.writes[0].controller == "NFD");
    CHECK(std::get<Node>(plan.writes[0].object).metadata.labels == r.node_after);
  }
}

TEST_CASE("NodeFeatures that did not change leave every node alone", "[nfd_projection]") {
  ClusterState s = one_node({{"topology.gpustack.ai/zone", "z1"}});
  s.node_features["gpustack-system/f"] = feature("f", "a", {{"topology.gpustack.ai/zone", "z1"}});
  CHECK(project_node_features(s.node_features, s).writes.empty());
}
