#include <catch2/catch.hpp>

#include "model/stage3/capacity_keys.h"

namespace m = chaintwin::model;

namespace {

m::Quantity q(const char* text) { return *m::Quantity::parse(text); }

// A managed node carrying one model's acceleratable labels and the given capacity.
m::Node node_with(const std::string& a_key, const std::string& memory, m::ResourceList capacity) {
  m::Node n;
  n.metadata.name = "node-1";
  n.metadata.labels["gpustack.ai/managed"] = "true";
  n.metadata.labels["acceleratable.feature.gpustack.ai/" + a_key] = "true";
  n.metadata.labels["acceleratable.feature.gpustack.ai/" + a_key + ".memory"] = memory;
  n.status.capacity = std::move(capacity);
  return n;
}

m::Accelerator logical_card(const std::string& id, int32_t slices, bool overcommit) {
  m::Accelerator a;
  a.id = id;
  a.status.logical_sliced = {overcommit, slices};
  return a;
}

m::Accelerator mig_card(const std::string& id, std::vector<std::pair<std::string, int32_t>> profiles) {
  m::Accelerator a;
  a.id = id;
  for (const auto& [name, count] : profiles) {
    a.status.physical_sliced.profiles.push_back({name, 0, 0, 0, count, {}});
    a.status.physical_sliced.count = std::max(a.status.physical_sliced.count, count);
  }
  return a;
}

m::Devices devices_with(const std::string& manufacturer, const std::string& id, std::vector<m::Accelerator> cards,
                        bool overcommit = false) {
  m::Devices d;
  m::DevicesGroup g;
  g.manufacturer = manufacturer;
  g.id = id;
  g.accelerators = std::move(cards);
  for (const auto& a : g.accelerators) g.accelerator_sliced_detail.logical.count += a.status.logical_sliced.count;
  g.accelerator_sliced_detail.logical.cores_percentage_overcommit = overcommit;
  d.spec.groups.push_back(std::move(g));
  return d;
}

}  // namespace

TEST_CASE("a saturated sliced family keeps its keys because the gate reads capacity", "[capacity]") {
  auto node = node_with("nvidia-a10g", "24Gi", {{"nvidia.com/gpu.sliced", q("256")}});
  node.status.allocatable["nvidia.com/gpu.sliced"] = q("0");  // every slice is taken
  const auto devs = devices_with("nvidia", "a10g", {logical_card("0", 128, true), logical_card("1", 128, true)}, true);
  const auto desired = m::desired_accelerator_capacity(node, &devs);
  CHECK(desired == m::ResourceList{{"nvidia.com/gpu.sliced.units", q("3200000")},
                                   {"nvidia.com/gpu.sliced.cores-percentage", q("25600")},
                                   {"nvidia.com/gpu.sliced.memory-percentage", q("200")},
                                   {"nvidia.com/gpu.sliced.memory-mib", q("49152")}});
}

TEST_CASE("a zero sliced pool in capacity withholds every sliced key", "[capacity]") {
  const auto node = node_with("nvidia-a10g", "24Gi", {{"nvidia.com/gpu.sliced", q("0")}});
  const auto devs = devices_with("nvidia", "a10g", {logical_card("0", 128, true)}, true);
  CHECK(m::desired_accelerator_capacity(node, &devs).empty());
}

TEST_CASE("a fresh partitioned card advertises its static ceilings", "[capacity]") {
  const auto node = node_with("nvidia-a100", "80Gi", {{"nvidia.com/gpu.partitioned", q("7")}});
  auto devs = devices_with("nvidia", "a100", {mig_card("0", {{"1g.10gb", 7}, {"3g.40gb", 2}, {"7g.80gb", 1}})});
  // A ledger row exists but lists no profiles yet: not ready, so the ceilings stand.
  m::AcceleratorAllocation empty_row;
  empty_row.id = "0";
  devs.status.groups.push_back({"a100", "nvidia", {empty_row}});
  CHECK(m::desired_accelerator_capacity(node, &devs) ==
        m::ResourceList{{"nvidia.com/gpu.partitioned.units", q("1600000")},
                        {"nvidia.com/gpu.partitioned.mig-1g.10gb", q("7")},
                        {"nvidia.com/gpu.partitioned.mig-3g.40gb", q("2")},
                        {"nvidia.com/gpu.partitioned.mig-7g.80gb", q("1")}});
}

TEST_CASE("a ready ledger counts allocated plus remaining and keeps a consumed profile at 0", "[capacity]") {
  auto devs = devices_with("nvidia", "a100", {mig_card("0", {{"1g.10gb", 7}, {"3g.40gb", 2}, {"7g.80gb", 1}})});
  m::AcceleratorAllocation row;
  row.id = "0";
  row.allocated_profiles = {{"3g.40gb", 1}};
  row.remaining_profiles = {{"1g.10gb", 4}, {"3g.40gb", 1}};
  devs.status.groups.push_back({"a100", "nvidia", {row}});
  CHECK(m::partition_instances_by_profile(devs.spec.groups[0], &devs.status.groups[0]) ==
        m::ProfileCounts{{"1g.10gb", 4}, {"3g.40gb", 2}, {"7g.80gb", 0}});
}

TEST_CASE("a T-Head profile key carries the published spelling", "[capacity]") {
  const auto node = node_with("thead-ppu", "96Gi", {{"alibabacloud.com/ppu.partitioned", q("2")}});
  const auto devs = devices_with("thead", "ppu", {mig_card("0", {{"4g48gb", 2}, {"+me", 1}})});
  const auto desired = m::desired_accelerator_capacity(node, &devs);
  CHECK(desired.count("alibabacloud.com/ppu.partitioned.mig-4g.48gb") == 1);
  CHECK(desired.count("alibabacloud.com/ppu.partitioned.mig-4g48gb") == 0);
  CHECK(desired.size() == 2);  // units + 4g.48gb; "+me" is not a valid resource name
}

TEST_CASE("owned keys are the five fixed suffixes and per-profile keys behind a known base", "[capacity]") {
  struct Row {
    const char* name;
    bool owned;
  };
  const Row rows[] = {
      {"nvidia.com/gpu.sliced.units", true},          {"huawei.com/npu.sliced.memory-percentage", true},
      {"alibabacloud.com/ppu.partitioned.mig-4g.48gb", true}, {"nvidia.com/gpu.partitioned.units", true},
      {"nvidia.com/gpu.sliced", false},               {"nvidia.com/gpu.shared", false},
      {"nvidia.com/gpu.partitioned.mig-", false},     {"example.com/foo.sliced.units", false},
      {"nvidia.com/gpu.sliced.mig-1g.10gb", false},   {"amd.com/gpu.partitioned.mig-1g.10gb", false},
      {"memory", false},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    CHECK(m::is_owned_capacity_key(row.name) == row.owned);
  }
}

TEST_CASE("an unmanaged node has every owned key nulled and nothing else touched", "[capacity]") {
  m::Node node;
  node.status.capacity = {{"cpu", q("8")},
                          {"nvidia.com/gpu.sliced", q("512")},
                          {"nvidia.com/gpu.sliced.units", q("6400000")},
                          {"nvidia.com/gpu.sliced.mig-1g.10gb", q("7")}};
  const auto d = m::reconcile_capacity(node, nullptr);
  REQUIRE(d.patch.has_value());
  CHECK(*d.patch == m::CapacityPatch{{"nvidia.com/gpu.sliced.units", std::nullopt}});
  CHECK(d.node_after.status.capacity ==
        m::ResourceList{{"cpu", q("8")}, {"nvidia.com/gpu.sliced", q("512")}, {"nvidia.com/gpu.sliced.mig-1g.10gb", q("7")}});
}

TEST_CASE("a reconciled node needs no second write", "[capacity]") {
  const auto node = node_with("nvidia-a10g", "24Gi", {{"nvidia.com/gpu.sliced", q("512")}});
  const auto devs = devices_with("nvidia", "a10g",
                                 {logical_card("0", 128, true), logical_card("1", 128, true),
                                  logical_card("2", 128, true), logical_card("3", 128, true)},
                                 true);
  const auto first = m::reconcile_capacity(node, &devs);
  REQUIRE(first.patch.has_value());
  CHECK(first.patch->at("nvidia.com/gpu.sliced.units") == "6400k");
  const auto second = m::reconcile_capacity(first.node_after, &devs);
  CHECK_FALSE(second.patch.has_value());
  CHECK(second.node_after == first.node_after);
}

TEST_CASE("a node being deleted is skipped", "[capacity]") {
  auto node = node_with("nvidia-a10g", "24Gi", {{"nvidia.com/gpu.sliced", q("128")}});
  node.metadata.deletion_timestamp = "2025-01-01T00:00:00Z";
  const auto devs = devices_with("nvidia", "a10g", {logical_card("0", 128, true)}, true);
  const auto d = m::reconcile_capacity(node, &devs);
  CHECK_FALSE(d.patch.has_value());
  CHECK(d.node_after == node);
}

TEST_CASE("a health flip does not fire the Devices predicate, a carve does", "[capacity]") {
  auto before = devices_with("nvidia", "a100", {mig_card("0", {{"1g.10gb", 7}, {"3g.40gb", 2}})});
  auto health = before;
  health.spec.groups[0].accelerators[0].status.unhealthy = true;
  CHECK_FALSE(m::accelerator_detail_changed(&before, &health));
  auto carved = before;
  m::AcceleratorAllocation row;
  row.id = "0";
  row.allocated_profiles = {{"3g.40gb", 1}};
  row.remaining_profiles = {{"1g.10gb", 4}, {"3g.40gb", 1}};
  carved.status.groups.push_back({"a100", "nvidia", {row}});
  CHECK(m::accelerator_detail_changed(&before, &carved));
  CHECK(m::accelerator_signatures(&carved).at("nvidia-a100").partition_profiles == "1g.10gb=4;3g.40gb=2");
}

TEST_CASE("a foreign capacity change does not fire the Node predicate", "[capacity]") {
  const m::ResourceList old_cap{{"cpu", q("8")}, {"example.com/foo.sliced", q("4")}};
  const m::ResourceList new_cap{{"cpu", q("16")}, {"example.com/foo.sliced", q("8")}};
  CHECK_FALSE(m::accelerator_family_capacity_changed(old_cap, new_cap));
  const m::ResourceList with_pool{{"cpu", q("16")}, {"nvidia.com/gpu.partitioned", q("7")}};
  CHECK(m::accelerator_family_capacity_changed(old_cap, with_pool));
}

TEST_CASE("the partition count from a status row and from devices_ledger_by_group's entry agree", "[capacity]") {
  m::Devices devs = devices_with("nvidia", "h100", {mig_card("0", {{"1g.10gb", 7}, {"7g.80gb", 1}}), logical_card("1", 128, true)});
  m::DevicesAllocationGroup row_group;
  row_group.manufacturer = "nvidia";
  row_group.id = "h100";
  m::AcceleratorAllocation row;
  row.id = "0";
  row.allocated_profiles = {{"1g.10gb", 2}};
  row.remaining_profiles = {{"1g.10gb", 5}};
  row_group.accelerators.push_back(row);
  devs.status.groups.push_back(row_group);

  const auto ledger = m::devices_ledger_by_group(&devs);
  REQUIRE(ledger.count("nvidia-h100") == 1);
  const auto& group = devs.spec.groups.at(0);
  CHECK(m::partition_instances_by_profile(group, ledger.at("nvidia-h100")) ==
        m::partition_instances_by_profile(group, &devs.status.groups.at(0)));
  CHECK(m::partition_instances_by_profile(group, ledger.at("nvidia-h100")) == m::ProfileCounts{{"1g.10gb", 7}, {"7g.80gb", 0}});
  CHECK(m::accelerator_cards(group) == m::AcceleratorCards{1, 128, 1});
  CHECK(m::devices_ledger_by_group(nullptr).empty());
}

TEST_CASE("only a partitioned card lets a ledger change move the counting keys", "[capacity]") {
  // The same Node and spec with an empty ledger and with a ledger that took something: the keys
  // move only where capacity_reads_ledger says the ledger is read at all.
  m::AcceleratorAllocation held;
  held.id = "0";
  held.mode = m::DeviceAllocationMode::kSliced;
  held.allocated_slices = 64;
  m::AcceleratorAllocation carved;
  carved.id = "0";
  carved.mode = m::DeviceAllocationMode::kPartitioned;
  carved.allocated_profiles = {{"3g.40gb", 1}};
  carved.remaining_profiles = {{"1g.10gb", 3}, {"3g.40gb", 1}};
  struct Row {
    const char* what;
    m::Node node;
    m::Devices devices;
    m::AcceleratorAllocation row;
    bool reads_ledger;
  };
  const Row rows[] = {
      {"a logically sliced card", node_with("nvidia-a10g", "24Gi", {{"nvidia.com/gpu.sliced", q("128")}}),
       devices_with("nvidia", "a10g", {logical_card("0", 128, true)}, true), held, false},
      {"a whole card", node_with("nvidia-tesla-t4", "16Gi", {{"nvidia.com/gpu", q("1")}}),
       devices_with("nvidia", "tesla-t4", {m::Accelerator{"0", 0, {}, "", {}}}), held, false},
      {"a partitioned card", node_with("nvidia-a100", "80Gi", {{"nvidia.com/gpu.partitioned", q("7")}}),
       devices_with("nvidia", "a100", {mig_card("0", {{"1g.10gb", 7}, {"3g.40gb", 2}})}), carved, true},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(m::capacity_reads_ledger(r.devices) == r.reads_ledger);
    const auto before = m::desired_accelerator_capacity(r.node, &r.devices);
    m::Devices allocated = r.devices;
    const auto& g = allocated.spec.groups.front();
    allocated.status.groups.push_back({g.id, g.manufacturer, {r.row}});
    const auto after = m::desired_accelerator_capacity(r.node, &allocated);
    CHECK((before != after) == r.reads_ledger);
  }
}
