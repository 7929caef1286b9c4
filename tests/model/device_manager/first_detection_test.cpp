// The Device Manager before its first detection (model/device_manager/first_detection.h, operator-domain §10.3):
// the Node keeps what kubelet and NFD publish and loses everything the Device Manager would.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/device_manager/device_inventory.h"
#include "model/device_manager/first_detection.h"

TEST_CASE("Before the first detection a node carries no accelerator label and no device-plugin pool",
          "[first_detection]") {
  using namespace chaintwin;
  model::AcceleratorInventory inv;
  inv.manufacturer = "nvidia";
  inv.product = "NVIDIA H100 80GB HBM3";
  inv.count = 2;
  const auto devices = model::make_devices("node-b", inv);
  REQUIRE(devices.ok());
  model::NodeSpec spec;
  spec.name = "node-b";
  spec.cpu_vendor = "AMD";
  spec.cpu = model::Quantity::from_int(64);
  spec.labels["topology.kubernetes.io/zone"] = "z1";
  spec.accelerators = {inv};
  const model::Node detected = model::make_node(spec, &devices.value());
  const model::Node before = model::node_before_first_detection(detected, devices.value());
  struct Row {
    std::string key;
    bool label;    // a label (else a capacity and allocatable key)
    bool kept;
  };
  const std::vector<Row> table{
      {"feature.gpustack.ai/acceleratable", true, false},
      {"acceleratable.feature.gpustack.ai/nvidia-h100-80gb-hbm3", true, false},
      {"acceleratable.feature.gpustack.ai/nvidia-h100-80gb-hbm3.memory", true, false},
      {"feature.node.kubernetes.io/cpu-model.vendor_id", true, true},
      {"kubernetes.io/hostname", true, true},
      {"topology.kubernetes.io/zone", true, true},
      {"nvidia.com/gpu", false, false},
      {"nvidia.com/gpu.shared", false, false},
      {"nvidia.com/gpu.sliced", false, false},
      {"cpu", false, true},
      {"memory", false, true},
      {"pods", false, true},
  };
  for (const auto& row : table) {
    INFO(row.key);
    if (row.label) {
      REQUIRE(detected.metadata.labels.count(row.key) == 1);
      CHECK(before.metadata.labels.count(row.key) == (row.kept ? 1u : 0u));
    } else {
      REQUIRE(detected.status.capacity.count(row.key) == 1);
      CHECK(before.status.capacity.count(row.key) == (row.kept ? 1u : 0u));
      CHECK(before.status.allocatable.count(row.key) == (row.kept ? 1u : 0u));
    }
  }
}
