// The bundled example cluster, derived end to end: the numbers are the operator's own recorded
// ones (operator-domain.md §9.3, configuration 3 with a carved 3g.40gb and a 50 % slice).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "model/stage3/stage3.h"
#include "sim/cluster_objects.h"
#include "sim/kube_documents.h"

namespace {

using namespace chaintwin;

sim::ClusterObjects example_cluster() {
  const auto objects = sim::load_kubernetes_objects(std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/examples/example-cluster.yaml");
  REQUIRE(objects.ok());
  const auto cluster = sim::read_cluster_objects(*objects, model::Settings{});
  REQUIRE(cluster.ok());
  return *cluster;
}

model::NodeStage3 derive(const sim::ClusterObjects& c, const std::string& name) {
  const auto& node = c.nodes.at(name);
  const auto it = c.devices.find(name);
  return model::derive_node_stage3(node, it == c.devices.end() ? nullptr : &it->second, c.settings);
}

std::map<std::string, std::string> as_strings(const model::ResourceList& list) {
  std::map<std::string, std::string> out;
  for (const auto& [k, q] : list) out[k] = q.to_string();
  return out;
}

}  // namespace

TEST_CASE("the mixed H100 node advertises the operator's recorded counting keys", "[example]") {
  const auto c = example_cluster();
  const auto s = derive(c, "node-h100");
  const std::map<std::string, std::string> want{
      {"nvidia.com/gpu.sliced.units", "8M"},
      {"nvidia.com/gpu.sliced.cores-percentage", "64k"},
      {"nvidia.com/gpu.sliced.memory-percentage", "500"},
      {"nvidia.com/gpu.sliced.memory-mib", "409600"},
      {"nvidia.com/gpu.partitioned.units", "4800k"},
      {"nvidia.com/gpu.partitioned.mig-1g.10gb", "17"},
      {"nvidia.com/gpu.partitioned.mig-1g.20gb", "10"},
      {"nvidia.com/gpu.partitioned.mig-2g.20gb", "7"},
      {"nvidia.com/gpu.partitioned.mig-3g.40gb", "6"},
      {"nvidia.com/gpu.partitioned.mig-4g.40gb", "2"},
      {"nvidia.com/gpu.partitioned.mig-7g.80gb", "2"},
  };
  CHECK(as_strings(s.capacity) == want);
  CHECK(s.general_key == "intel-xeon-platinum-8480");
  CHECK(s.fit_labels == model::StringMap{{"sliced-max-free-units.fit.gpustack.ai/nvidia-h100-80gb-hbm3", "1600000"},
                                         {"shared-free-cards.fit.gpustack.ai/nvidia-h100-80gb-hbm3", "4"}});
}

TEST_CASE("a card held exclusively or by sharers grants no slice, and a card with a share left counts once", "[example]") {
  const auto c = example_cluster();
  const auto s = derive(c, "node-t4-b");
  CHECK(s.fit_labels == model::StringMap{{"sliced-max-free-units.fit.gpustack.ai/nvidia-tesla-t4", "1600000"},
                                         {"shared-free-cards.fit.gpustack.ai/nvidia-tesla-t4", "3"}});
  CHECK(as_strings(s.capacity).at("nvidia.com/gpu.sliced.units") == "6400k");
  CHECK(s.worker_labels.at("general.feature.gpustack.ai/intel-xeon-platinum-8259cl.count") == "48");
}

TEST_CASE("a CPU node gets presence labels but no counting keys or fit labels", "[example]") {
  const auto c = example_cluster();
  const auto s = derive(c, "node-cpu");
  CHECK(s.capacity.empty());
  CHECK(s.fit_labels.empty());
  CHECK(s.worker_labels == model::StringMap{{"gpustack.ai/managed", "true"},
                                            {"general.feature.gpustack.ai/amd", "true"},
                                            {"general.feature.gpustack.ai/amd-epyc-7r13", "true"},
                                            {"general.feature.gpustack.ai/amd-epyc-7r13.count", "16"}});
}

TEST_CASE("deriving again from the converged node writes nothing, for every node of the example", "[example]") {
  const auto c = example_cluster();
  for (const auto& [name, node] : c.nodes) {
    INFO(name);
    const auto first = derive(c, name);
    CHECK(first.writes());
    const auto it = c.devices.find(name);
    const auto second = model::derive_node_stage3(first.node_after, it == c.devices.end() ? nullptr : &it->second, c.settings);
    CHECK_FALSE(second.writes());
    CHECK(second.capacity == first.capacity);
    CHECK(second.fit_labels == first.fit_labels);
  }
}
