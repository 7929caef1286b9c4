#include <catch2/catch.hpp>

#include "model/stage3/fit_labels.h"
#include "model/stage3/stage3.h"

namespace {

using namespace chaintwin::model;

Node t4_node(int cards) {
  Node n;
  n.metadata.name = "node-t4";
  n.metadata.labels = {
      {"kubernetes.io/os", "linux"},
      {"kubernetes.io/arch", "amd64"},
      {"feature.node.kubernetes.io/cpu-model.vendor_id", "Intel"},
      {"feature.node.kubernetes.io/cpu-model.family", "6"},
      {"feature.node.kubernetes.io/cpu-model.id", "85"},
      {"acceleratable.feature.gpustack.ai/nvidia", "true"},
      {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4", "true"},
      {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4.count", std::to_string(cards)},
      {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4.memory", "16Gi"},
  };
  n.status.capacity["cpu"] = Quantity::from_int(8);
  n.status.capacity["nvidia.com/gpu.sliced"] = Quantity::from_int(128 * cards);
  return n;
}

Devices t4_devices(int cards, int32_t remaining) {
  Devices d;
  d.metadata.name = "node-t4";
  DevicesGroup g;
  g.id = "tesla-t4";
  g.manufacturer = "nvidia";
  g.name = "Tesla T4";
  g.accelerator_sliced_detail.logical = {true, 128 * cards};
  DevicesAllocationGroup lg{"tesla-t4", "nvidia", {}};
  for (int i = 0; i < cards; ++i) {
    Accelerator a;
    a.id = "GPU-" + std::to_string(i);
    a.index = static_cast<uint32_t>(i);
    a.status.logical_sliced = {true, 128};
    g.accelerators.push_back(a);
    AcceleratorAllocation row;
    row.id = a.id;
    row.index = a.index;
    row.remaining = remaining;
    lg.accelerators.push_back(row);
  }
  d.spec.groups.push_back(g);
  d.status.groups.push_back(lg);
  return d;
}

}  // namespace

TEST_CASE("a saturated sliced family keeps its counting keys because the gate reads capacity", "[stage3]") {
  Node n = t4_node(2);
  n.status.allocatable["nvidia.com/gpu.sliced"] = Quantity::from_int(0);
  const Devices d = t4_devices(2, 0);
  const auto s = derive_node_stage3(n, &d, Settings{});
  CHECK(s.capacity.at("nvidia.com/gpu.sliced.units").to_string() == "3200k");
  CHECK(s.fit_labels.at("sliced-max-free-units.fit.gpustack.ai/nvidia-tesla-t4") == "0");
  CHECK(s.fit_labels.at("shared-free-cards.fit.gpustack.ai/nvidia-tesla-t4") == "0");
}

TEST_CASE("a kubelet restart that zeroes the sliced pool removes every counting key of the family", "[stage3]") {
  const Devices d = t4_devices(2, 1600000);
  Node n = t4_node(2);
  const auto converged = derive_node_stage3(n, &d, Settings{}).node_after;
  Node restarted = converged;
  restarted.status.capacity["nvidia.com/gpu.sliced"] = Quantity::from_int(0);
  const auto s = derive_node_stage3(restarted, &d, Settings{});
  REQUIRE(s.capacity_patch.has_value());
  CHECK(s.capacity.empty());
  for (const char* key : {"nvidia.com/gpu.sliced.units", "nvidia.com/gpu.sliced.cores-percentage",
                          "nvidia.com/gpu.sliced.memory-percentage", "nvidia.com/gpu.sliced.memory-mib"}) {
    INFO(key);
    REQUIRE(s.capacity_patch->count(key) == 1);
    CHECK_FALSE(s.capacity_patch->at(key).has_value());
  }
}

TEST_CASE("under manual management a node without the admin's mark is left unmanaged", "[stage3]") {
  Settings manual;
  manual.node_management_manual = true;
  const Devices d = t4_devices(1, 1600000);
  const auto s = derive_node_stage3(t4_node(1), &d, manual);
  CHECK_FALSE(s.managed);
  CHECK(s.worker_labels.count("gpustack.ai/managed") == 0);
  CHECK(s.capacity.empty());
  CHECK(s.fit_labels.empty());

  Node marked = t4_node(1);
  marked.metadata.labels["gpustack.ai/managed"] = "true";
  const auto m = derive_node_stage3(marked, &d, manual);
  CHECK(m.managed);
  CHECK(m.capacity.count("nvidia.com/gpu.sliced.units") == 1);
}

TEST_CASE("with mixing off only an accelerator-less node is pinned cpu-only", "[stage3]") {
  Settings no_mixing;
  no_mixing.instance_type_mixed_on_node = false;
  Node cpu = t4_node(1);
  for (auto it = cpu.metadata.labels.begin(); it != cpu.metadata.labels.end();)
    it = it->first.rfind("acceleratable.", 0) == 0 ? cpu.metadata.labels.erase(it) : std::next(it);
  CHECK(desired_worker_labels(cpu, no_mixing).at("feature.gpustack.ai/cpu-only") == "true");
  CHECK(desired_worker_labels(t4_node(1), no_mixing).count("feature.gpustack.ai/cpu-only") == 0);
  CHECK(desired_worker_labels(cpu, Settings{}).count("feature.gpustack.ai/cpu-only") == 0);
}

TEST_CASE("the presence-label patch removes stale worker labels but never the managed mark", "[stage3]") {
  const StringMap desired{{"general.feature.gpustack.ai/intel", "true"}};
  const StringMap current{{"gpustack.ai/managed", "true"},
                          {"general.feature.gpustack.ai/intel", "true"},
                          {"general.feature.gpustack.ai/intel-old", "true"},
                          {"feature.gpustack.ai/cpu-only", "true"},
                          {"zone", "a"}};
  const auto patch = build_worker_label_patch(desired, current);
  REQUIRE(patch.has_value());
  CHECK(*patch == LabelMergePatch{{"general.feature.gpustack.ai/intel-old", std::nullopt},
                                  {"feature.gpustack.ai/cpu-only", std::nullopt}});
  CHECK_FALSE(build_worker_label_patch(desired, {{"general.feature.gpustack.ai/intel", "true"}}).has_value());
}

TEST_CASE("unmanaging a node removes its counting keys and fit labels", "[stage3]") {
  const Devices d = t4_devices(2, 1600000);
  const auto converged = derive_node_stage3(t4_node(2), &d, Settings{}).node_after;
  Node unmanaged = converged;
  unmanaged.metadata.labels["gpustack.ai/managed"] = "false";
  const auto s = derive_node_stage3(unmanaged, &d, Settings{});
  CHECK_FALSE(s.managed);
  CHECK(s.capacity.empty());
  CHECK(s.fit_labels.empty());
  REQUIRE(s.fit_label_patch.has_value());
  CHECK(s.fit_label_patch->size() == 2);
  REQUIRE(s.capacity_patch.has_value());
  CHECK(s.capacity_patch->size() == 4);
  CHECK(s.node_after.status.capacity.count("nvidia.com/gpu.sliced") == 1);  // the device plugin's pool stays
}

TEST_CASE("stage 3 decides everything but the fit labels without reading the fit labels", "[stage3]") {
  // The simulator relies on this after a coalesced fit-label write: the write cannot change what
  // NodeProfile writes besides the fit labels, so stage 3 is not derived again for that Node.
  struct Row {
    const char* node;
    int cards;
    int32_t remaining;  // per card
    bool manual;        // node-management-manual on, no managed mark
    StringMap fit;      // the fit labels the Node carries
  };
  const std::string sliced = "sliced-max-free-units.fit.gpustack.ai/nvidia-tesla-t4";
  const std::string shared = "shared-free-cards.fit.gpustack.ai/nvidia-tesla-t4";
  const std::vector<Row> rows = {
      {"idle cards, the fit labels they call for", 2, 1600000, false, {{sliced, "1600000"}, {shared, "2"}}},
      {"idle cards, stale fit labels", 2, 1600000, false, {{sliced, "0"}, {shared, "0"}}},
      {"saturated cards, the labels of idle ones", 2, 0, false, {{sliced, "1600000"}, {shared, "2"}}},
      {"half-used card, one label only", 1, 800000, false, {{sliced, "800000"}}},
      {"fit labels of a model the Node does not have", 1, 1600000, false,
       {{"sliced-max-free-units.fit.gpustack.ai/nvidia-a100", "7"}, {"shared-free-cards.fit.gpustack.ai/amd-mi300", "1"}}},
      {"an unmanaged Node with fit labels left over", 2, 1600000, true, {{sliced, "1600000"}, {shared, "2"}}},
  };
  for (const auto& row : rows) {
    INFO(row.node);
    Settings settings;
    settings.node_management_manual = row.manual;
    const Devices d = t4_devices(row.cards, row.remaining);
    const Node bare = t4_node(row.cards);
    Node labelled = bare;
    for (const auto& [k, v] : row.fit) {
      REQUIRE(is_fit_label_key(k));
      labelled.metadata.labels[k] = v;
    }
    const NodeStage3 a = derive_node_stage3(bare, &d, settings);
    const NodeStage3 b = derive_node_stage3(labelled, &d, settings);
    CHECK(a.managed == b.managed);
    CHECK(a.general_key == b.general_key);
    CHECK(a.accelerator_keys == b.accelerator_keys);
    CHECK(a.worker_labels == b.worker_labels);
    CHECK(a.worker_label_patch == b.worker_label_patch);
    CHECK(a.capacity == b.capacity);
    CHECK(a.capacity_patch == b.capacity_patch);
    CHECK(a.fit_labels == b.fit_labels);  // what is desired, not the patch to it
    CHECK(a.node_after.status == b.node_after.status);
    CHECK(equal_ignoring_fit_labels(a.node_after.metadata.labels, b.node_after.metadata.labels));
  }
}
