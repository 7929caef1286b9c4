// A pass of the Device Manager's detect loop (model/device_manager/detection_pass.h, operator-domain §10.3): the
// decision table, and what undetecting and publishing a manufacturer do to the Node and Devices.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/admission/device_allocator.h"
#include "model/device_manager/detection_pass.h"
#include "model/device_manager/device_inventory.h"

namespace {

using namespace chaintwin;
using model::DetectionEffect;
using model::DetectionOutcome;
using model::DetectionStanding;

struct Hardware {
  model::Devices devices;
  model::Node node;
};

// A T4 node with `cards` cards, as kubelet, NFD and the Device Manager publish it once detected.
Hardware t4_node(int32_t cards) {
  model::AcceleratorInventory inv;
  inv.manufacturer = "nvidia";
  inv.product = "Tesla T4";
  inv.count = cards;
  auto devices = model::make_devices("node-t4", inv);
  REQUIRE(devices.ok());
  model::NodeSpec spec;
  spec.name = "node-t4";
  spec.cpu_vendor = "Intel";
  spec.cpu = model::Quantity::from_int(16);
  spec.accelerators = {inv};
  model::Node node = model::make_node(spec, &devices.value());
  return {std::move(devices).value(), std::move(node)};
}

// A Pod holding one whole card (container main).
model::Pod whole_card_pod(const std::string& name) {
  model::Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "default";
  pod.node_name = "node-t4";
  model::Container c;
  c.name = "main";
  c.requests["nvidia.com/gpu"] = model::Quantity::from_int(1);
  pod.spec.containers.push_back(c);
  return pod;
}

int64_t cap(const model::Node& n, const std::string& key) {
  const auto it = n.status.capacity.find(key);
  return it == n.status.capacity.end() ? -1 : it->second.value_ceil();
}

int64_t alloc(const model::Node& n, const std::string& key) {
  const auto it = n.status.allocatable.find(key);
  return it == n.status.allocatable.end() ? -1 : it->second.value_ceil();
}

}  // namespace

TEST_CASE("A detection pass keeps, holds back, publishes or undetects as the detect loop does",
          "[detection_pass]") {
  struct Row {
    DetectionStanding standing;
    DetectionOutcome outcome;
    bool no_fast_failed;
    DetectionEffect effect;
    DetectionStanding next;
  };
  using S = DetectionStanding;
  using O = DetectionOutcome;
  using E = DetectionEffect;
  const std::vector<Row> table{
      // Before the first detection: held back, or the empty result published under --no-fast-failed.
      {S::kAwaitingFirst, O::kFailed, false, E::kHoldBack, S::kAwaitingFirst},
      {S::kAwaitingFirst, O::kNothingFound, false, E::kHoldBack, S::kAwaitingFirst},
      {S::kAwaitingFirst, O::kFound, false, E::kPublish, S::kDetected},
      {S::kAwaitingFirst, O::kFailed, true, E::kPublishEmpty, S::kPublishedEmpty},
      {S::kAwaitingFirst, O::kNothingFound, true, E::kPublishEmpty, S::kPublishedEmpty},
      {S::kAwaitingFirst, O::kFound, true, E::kPublish, S::kDetected},
      // Detected: a failure reports the last detection, only an empty answer undetects.
      {S::kDetected, O::kFailed, false, E::kKeep, S::kDetected},
      {S::kDetected, O::kNothingFound, false, E::kUndetect, S::kPublishedEmpty},
      {S::kDetected, O::kFound, false, E::kKeep, S::kDetected},
      {S::kDetected, O::kFailed, true, E::kKeep, S::kDetected},
      {S::kDetected, O::kNothingFound, true, E::kUndetect, S::kPublishedEmpty},
      // Nothing held: a failure cannot bring cards back, a pass that finds them does.
      {S::kPublishedEmpty, O::kFailed, false, E::kKeep, S::kPublishedEmpty},
      {S::kPublishedEmpty, O::kNothingFound, false, E::kKeep, S::kPublishedEmpty},
      {S::kPublishedEmpty, O::kFound, false, E::kPublish, S::kDetected},
      {S::kPublishedEmpty, O::kFailed, true, E::kKeep, S::kPublishedEmpty},
      {S::kPublishedEmpty, O::kFound, true, E::kPublish, S::kDetected},
  };
  for (const auto& row : table) {
    INFO(model::to_string(row.standing) << " + " << model::to_string(row.outcome)
                                        << (row.no_fast_failed ? " --no-fast-failed" : ""));
    const auto d = model::decide_detection_pass(row.standing, row.outcome, row.no_fast_failed, "nvidia");
    CHECK(model::to_string(d.effect) == model::to_string(row.effect));
    CHECK(model::to_string(d.next) == model::to_string(row.next));
    CHECK_FALSE(d.reason.empty());
  }
}

TEST_CASE("Held back before the first detection, the Device Manager says the manufacturer is expected",
          "[detection_pass]") {
  const auto d = model::decide_detection_pass(DetectionStanding::kAwaitingFirst, DetectionOutcome::kNothingFound,
                                              false, "nvidia");
  CHECK_THAT(d.reason, Catch::Contains("manufacturer nvidia is expected but not detected"));
}

TEST_CASE("Detection outcomes parse by their names and nothing else", "[detection_pass]") {
  const std::vector<std::pair<std::string, std::optional<DetectionOutcome>>> table{
      {"Failed", DetectionOutcome::kFailed},
      {"NothingFound", DetectionOutcome::kNothingFound},
      {"Found", DetectionOutcome::kFound},
      {"found", std::nullopt},
      {"Nothing", std::nullopt},
      {"", std::nullopt},
  };
  for (const auto& [text, want] : table) {
    INFO(text);
    CHECK(model::parse_detection_outcome(text) == want);
  }
}

TEST_CASE("An undetected manufacturer leaves the Devices record and its pools read 0; its labels stay",
          "[detection_pass]") {
  const Hardware hw = t4_node(2);
  const auto u = model::undetect_manufacturer(hw.node, hw.devices, "nvidia");
  CHECK(u.devices.metadata.name == "node-t4");
  CHECK(u.devices.spec.groups.empty());
  CHECK(u.devices.status.groups.empty());
  REQUIRE(u.withdrawn.spec.groups.size() == 1);
  CHECK(u.withdrawn.spec.groups[0].accelerators.size() == 2);
  CHECK(u.withdrawn.status == hw.devices.status);
  struct Row {
    std::string key;
    int64_t before, after;
  };
  const std::vector<Row> pools{
      {"nvidia.com/gpu", 2, 0},
      {"nvidia.com/gpu.shared", 20, 0},
      {"nvidia.com/gpu.sliced", 256, 0},
      {"device.gpustack.ai/nvidia.visibility", 2, 0},
      {"cpu", 16, 16},
  };
  for (const auto& row : pools) {
    INFO(row.key);
    CHECK(cap(hw.node, row.key) == row.before);
    CHECK(cap(u.node, row.key) == row.after);
    CHECK(alloc(u.node, row.key) == row.after);
  }
  CHECK(u.node.metadata.labels == hw.node.metadata.labels);
}

TEST_CASE("Publishing withdrawn cards gives back the pools and the ledger rows the Pods still hold",
          "[detection_pass]") {
  Hardware hw = t4_node(2);
  const model::Pod stays = whole_card_pod("stays");
  const model::Pod leaves = whole_card_pod("leaves");
  REQUIRE(model::allocate_pod(hw.devices, stays).ok());
  REQUIRE(model::allocate_pod(hw.devices, leaves).ok());
  auto u = model::undetect_manufacturer(hw.node, hw.devices, "nvidia");
  // While undetected, one Pod is deleted: its charge goes from the withdrawn rows.
  model::release_pod(u.withdrawn, leaves, true);
  const auto p = model::publish_detected(u.node, u.devices, u.withdrawn, {}, "nvidia");
  REQUIRE(p.devices.status.groups.size() == 1);
  const auto& rows = p.devices.status.groups[0].accelerators;
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].mode == model::DeviceAllocationMode::kExclusive);
  CHECK(rows[0].remaining == 0);
  CHECK(rows[1].mode == model::DeviceAllocationMode::kNone);
  CHECK(rows[1].remaining == 1600000);
  CHECK(p.devices.spec == hw.devices.spec);
  for (const std::string key : {"nvidia.com/gpu", "nvidia.com/gpu.shared", "nvidia.com/gpu.sliced",
                                "device.gpustack.ai/nvidia.visibility"}) {
    INFO(key);
    CHECK(cap(p.node, key) == cap(hw.node, key));
  }
}

TEST_CASE("The first detection publishes the specified record, labels and pools whole", "[detection_pass]") {
  const Hardware hw = t4_node(2);
  model::Node before = hw.node;
  for (auto it = before.metadata.labels.begin(); it != before.metadata.labels.end();)
    it = it->first.find("acceleratable") != std::string::npos ? before.metadata.labels.erase(it) : std::next(it);
  before.status.capacity.erase("nvidia.com/gpu");
  before.status.allocatable.erase("nvidia.com/gpu");
  const auto labels = model::device_manager_labels(hw.node, "nvidia");
  CHECK(labels.count("feature.gpustack.ai/acceleratable") == 1);
  CHECK(labels.count("acceleratable.feature.gpustack.ai/nvidia") == 1);
  CHECK(labels.count("acceleratable.feature.gpustack.ai/nvidia-tesla-t4.count") == 1);
  CHECK(labels.count("kubernetes.io/hostname") == 0);
  CHECK(model::device_manager_labels(hw.node, "nvidi").empty() == false);  // only the shared marker
  CHECK(model::device_manager_labels(hw.node, "nvidi").size() == 1);
  const auto p = model::publish_detected(before, std::nullopt, hw.devices, labels, "nvidia");
  CHECK(p.devices == hw.devices);
  CHECK(p.node.metadata.labels == hw.node.metadata.labels);
  CHECK(cap(p.node, "nvidia.com/gpu") == 2);
  CHECK(alloc(p.node, "nvidia.com/gpu") == 2);
}

TEST_CASE("An empty result publishes a Devices record with no accelerator and no ledger", "[detection_pass]") {
  const Hardware hw = t4_node(1);
  const model::Devices empty = model::empty_detection_result(hw.devices);
  CHECK(empty.metadata == hw.devices.metadata);
  CHECK(empty.spec.groups.empty());
  CHECK(empty.status.groups.empty());
  CHECK(model::detected_manufacturers(empty).empty());
  CHECK(model::detected_manufacturers(hw.devices) == std::vector<std::string>{"nvidia"});
}
