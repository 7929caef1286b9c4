// Issue 17, capacity labels: a card's health is not an input of the counting keys, and one
// NodeCapacityReconciler pass converges a managed Node so that the next pass writes nothing.
// Expected values are worked by hand from operator-code-rules.md §3a (desiredAcceleratorCapacity,
// the patch, the Devices signature) and operator-domain.md §2.6; M = 1,600,000 (§2).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/stage3/capacity_keys.h"

namespace m = chaintwin::model;

namespace {

m::Quantity q(const char* text) { return *m::Quantity::parse(text); }

m::Node managed_node(const std::string& a_key, const std::string& memory, m::ResourceList capacity) {
  m::Node n;
  n.metadata.name = "node-5";
  n.metadata.labels["gpustack.ai/managed"] = "true";
  n.metadata.labels["acceleratable.feature.gpustack.ai/" + a_key] = "true";
  n.metadata.labels["acceleratable.feature.gpustack.ai/" + a_key + ".memory"] = memory;
  n.status.capacity = std::move(capacity);
  return n;
}

m::Accelerator logical_card(const std::string& id, int32_t slices) {
  m::Accelerator a;
  a.id = id;
  a.status.logical_sliced = {true, slices};
  return a;
}

m::Accelerator partitioned_card(const std::string& id) {
  m::Accelerator a;
  a.id = id;
  for (const auto& [name, count] : std::vector<std::pair<std::string, int32_t>>{
           {"1g.10gb", 7}, {"3g.40gb", 2}, {"7g.80gb", 1}})
    a.status.physical_sliced.profiles.push_back({name, 0, 0, 0, count, {}});
  a.status.physical_sliced.count = 7;
  return a;
}

m::Devices one_group(const std::string& id, std::vector<m::Accelerator> cards, bool overcommit) {
  m::Devices d;
  d.metadata.name = "node-5";
  m::DevicesGroup g;
  g.manufacturer = "nvidia";
  g.id = id;
  g.accelerators = std::move(cards);
  for (const auto& a : g.accelerators) g.accelerator_sliced_detail.logical.count += a.status.logical_sliced.count;
  g.accelerator_sliced_detail.logical.cores_percentage_overcommit = overcommit;
  d.spec.groups.push_back(std::move(g));
  return d;
}

struct HealthFlipRow {
  std::string name;
  m::Node node;
  m::Devices devices;
  std::vector<size_t> flipped;  // cards whose status.unhealthy turns true
  m::ResourceList want;         // desired capacity, before and after the flip
};

}  // namespace

TEST_CASE("a health flip of a card moves no capacity value and does not fire the detail predicate",
          "[capacity][issue17]") {
  // Logical: 2 × a10g, 128 slices each, overcommit → units 2M = 3,200,000, cores 256 × 100 =
  // 25,600, memory-percentage 2 × 100, memory-mib 2 × 24Gi/MiB = 49,152 (§3a table).
  // Partitioned: one A100 80GB card with static ceilings 7/2/1 and no ledger → units M, each
  // profile its ceiling (§3a: "a card whose ledger row is not ready counts its static ceiling").
  const std::vector<HealthFlipRow> rows{
      {"one of two logical cards turns unhealthy",
       managed_node("nvidia-a10g", "24Gi", {{"nvidia.com/gpu.sliced", q("256")}}),
       one_group("a10g", {logical_card("0", 128), logical_card("1", 128)}, true),
       {1},
       {{"nvidia.com/gpu.sliced.units", q("3200000")},
        {"nvidia.com/gpu.sliced.cores-percentage", q("25600")},
        {"nvidia.com/gpu.sliced.memory-percentage", q("200")},
        {"nvidia.com/gpu.sliced.memory-mib", q("49152")}}},
      {"every logical card turns unhealthy",
       managed_node("nvidia-a10g", "24Gi", {{"nvidia.com/gpu.sliced", q("256")}}),
       one_group("a10g", {logical_card("0", 128), logical_card("1", 128)}, true),
       {0, 1},
       {{"nvidia.com/gpu.sliced.units", q("3200000")},
        {"nvidia.com/gpu.sliced.cores-percentage", q("25600")},
        {"nvidia.com/gpu.sliced.memory-percentage", q("200")},
        {"nvidia.com/gpu.sliced.memory-mib", q("49152")}}},
      {"the only partitioned card turns unhealthy",
       managed_node("nvidia-a100", "80Gi", {{"nvidia.com/gpu.partitioned", q("7")}}),
       one_group("a100", {partitioned_card("0")}, false),
       {0},
       {{"nvidia.com/gpu.partitioned.units", q("1600000")},
        {"nvidia.com/gpu.partitioned.mig-1g.10gb", q("7")},
        {"nvidia.com/gpu.partitioned.mig-3g.40gb", q("2")},
        {"nvidia.com/gpu.partitioned.mig-7g.80gb", q("1")}}},
  };
  for (const auto& row : rows) {
    SECTION(row.name) {
      auto flipped = row.devices;
      for (const size_t i : row.flipped) flipped.spec.groups[0].accelerators[i].status.unhealthy = true;
      CHECK(m::desired_accelerator_capacity(row.node, &row.devices) == row.want);
      CHECK(m::desired_accelerator_capacity(row.node, &flipped) == row.want);
      CHECK_FALSE(m::accelerator_detail_changed(&row.devices, &flipped));
      CHECK_FALSE(m::accelerator_detail_changed(&flipped, &row.devices));
      CHECK(m::accelerator_signatures(&row.devices) == m::accelerator_signatures(&flipped));
    }
  }
}

TEST_CASE("what does change capacity still fires the detail predicate beside a health flip",
          "[capacity][issue17]") {
  // Signature = (logical cards, partitioned cards, detail count, overcommit, profiles) (§3a
  // triggers): a card moving to the partitioned population changes the first two.
  const auto before = one_group("a10g", {logical_card("0", 128), logical_card("1", 128)}, true);
  auto after = before;
  after.spec.groups[0].accelerators[0].status.unhealthy = true;
  after.spec.groups[0].accelerators[1] = partitioned_card("1");
  CHECK(m::accelerator_detail_changed(&before, &after));
}

TEST_CASE("reconciling a managed node writes the four sliced keys and a second pass writes nothing",
          "[capacity][issue17]") {
  // 4 × a10g (128 slices, overcommit), 24Gi label, pool nvidia.com/gpu.sliced = 512 > 0:
  // units 4M = 6,400,000 → "6400k"; cores 512 × 100 = 51,200 → "51200" (not a whole k);
  // memory-percentage 400; memory-mib 4 × 24,576 = 98,304. Patch values are canonical quantities.
  struct Row {
    std::string name;
    m::ResourceList capacity;
    m::CapacityPatch want_patch;
  };
  const std::vector<Row> rows{
      {"from a node without any sliced key",
       {{"cpu", q("8")}, {"nvidia.com/gpu.sliced", q("512")}},
       {{"nvidia.com/gpu.sliced.units", "6400k"},
        {"nvidia.com/gpu.sliced.cores-percentage", "51200"},
        {"nvidia.com/gpu.sliced.memory-percentage", "400"},
        {"nvidia.com/gpu.sliced.memory-mib", "98304"}}},
      {"from a node whose units key is stale",
       {{"cpu", q("8")},
        {"nvidia.com/gpu.sliced", q("512")},
        {"nvidia.com/gpu.sliced.units", q("3200000")},
        {"nvidia.com/gpu.sliced.cores-percentage", q("51200")},
        {"nvidia.com/gpu.sliced.memory-percentage", q("400")},
        {"nvidia.com/gpu.sliced.memory-mib", q("98304")}},
       {{"nvidia.com/gpu.sliced.units", "6400k"}}},
  };
  const auto devices = one_group(
      "a10g", {logical_card("0", 128), logical_card("1", 128), logical_card("2", 128), logical_card("3", 128)},
      true);
  for (const auto& row : rows) {
    SECTION(row.name) {
      const auto node = managed_node("nvidia-a10g", "24Gi", row.capacity);
      const auto first = m::reconcile_capacity(node, &devices);
      REQUIRE(first.patch.has_value());
      CHECK(*first.patch == row.want_patch);
      const m::ResourceList want_after{{"cpu", q("8")},
                                       {"nvidia.com/gpu.sliced", q("512")},
                                       {"nvidia.com/gpu.sliced.units", q("6400000")},
                                       {"nvidia.com/gpu.sliced.cores-percentage", q("51200")},
                                       {"nvidia.com/gpu.sliced.memory-percentage", q("400")},
                                       {"nvidia.com/gpu.sliced.memory-mib", q("98304")}};
      CHECK(first.node_after.status.capacity == want_after);
      const auto second = m::reconcile_capacity(first.node_after, &devices);
      CHECK_FALSE(second.patch.has_value());
      CHECK(second.node_after.status.capacity == want_after);
    }
  }
}
