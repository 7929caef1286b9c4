#include <catch2/catch.hpp>

#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

using namespace chaintwin;

namespace {

// One H100 node; `workload` is the generator's selector lines, `timeline` the timeline section.
std::string scenario_with(const std::string& workload, const std::string& timeline = "") {
  return "apiVersion: chaintwin/v1\nkind: Scenario\nmetadata: {name: refs}\nseed: 1\nhorizon: 10m\n"
         "cluster:\n  nodes:\n    - name: node-h100\n"
         "      cpu: {vendor: AMD, name: \"AMD EPYC 7763 64-Core Processor\", cores: 64}\n"
         "      memory: 512Gi\n"
         "      accelerators: {manufacturer: nvidia, product: NVIDIA H100 80GB HBM3, count: 2, memory: 80Gi}\n"
         "workloads:\n  - name: w\n    arrival: {at: [0s]}\n    duration: {fixed: 1h}\n" +
         workload + "    podSets:\n      - {name: main, count: 1, request: {exclusive: 1}}\n" + timeline;
}

const std::string kAddL40s =
    "timeline:\n  - at: 5m\n    action: add-node\n    node:\n      name: node-l40s\n"
    "      cpu: {vendor: AMD, name: \"AMD EPYC 7763 64-Core Processor\", cores: 64}\n"
    "      memory: 512Gi\n"
    "      accelerators: {manufacturer: nvidia, product: NVIDIA L40S, count: 4, memory: 48Gi}\n";

}  // namespace

TEST_CASE("a workload naming an InstanceType, accelerator or topology level the run never holds is refused before "
          "the run, by its line",
          "[workload-references]") {
  struct Row {
    std::string what;
    std::string selector;
    std::string timeline;
    std::string want_error;  // "" = the run starts
  };
  const std::vector<Row> rows = {
      {"an accelerator key of the node", "    accelerator: nvidia-h100-80gb-hbm3\n", "", ""},
      {"the accelerator key in capitals", "    accelerator: NVIDIA-H100-80GB-HBM3\n", "", ""},
      {"an accelerator no node carries", "    accelerator: nvidia-h999\n", "",
       "refs.yaml:13: workloads[0].accelerator: no InstanceType of the run serves accelerator 'nvidia-h999' at any "
       "time (the accelerators of its InstanceTypes: nvidia-h100-80gb-hbm3)"},
      {"an accelerator only a node added later carries", "    accelerator: nvidia-l40s\n", kAddL40s, ""},
      {"the derived InstanceType", "    instanceType: gpustack--nvidia-h100-80gb-hbm3-linux-amd64\n", "", ""},
      {"an InstanceType nobody derives", "    instanceType: gpustack--nvidia-h100-80gb-hbm3-linux-arm64\n", "",
       "refs.yaml:13: workloads[0].instanceType: no InstanceType 'gpustack--nvidia-h100-80gb-hbm3-linux-arm64' "
       "exists or is derived at any time of the run (InstanceTypes: gpustack--generic-linux-amd64, "
       "gpustack--nvidia-h100-80gb-hbm3-linux-amd64)"},
      {"an InstanceType derived for a node added later", "    instanceType: gpustack--nvidia-l40s-linux-amd64\n",
       kAddL40s, ""},
      {"the hostname level", "    accelerator: nvidia-h100-80gb-hbm3\n    requiredTopologyLevel: kubernetes.io/hostname\n",
       "", ""},
      {"a level no Topology has",
       "    accelerator: nvidia-h100-80gb-hbm3\n    requiredTopologyLevel: example.com/rack\n", "",
       "refs.yaml:13: workloads[0].requiredTopologyLevel: no Topology of the run has the level 'example.com/rack'"},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    auto scenario = sim::load_scenario_text(scenario_with(row.selector, row.timeline), "refs.yaml");
    REQUIRE(scenario.ok());
    sim::Simulation simulation(std::move(scenario).value(), {});
    const auto started = simulation.start();
    if (row.want_error.empty()) {
      CHECK(started.ok());
      if (!started.ok()) UNSCOPED_INFO(started.error());
    } else {
      REQUIRE_FALSE(started.ok());
      CHECK_THAT(started.error(), Catch::Matchers::StartsWith(row.want_error));
    }
  }
}
