// InstanceType status on the docs' eight-H100 node (operator-domain §9.3) under the current
// four-view text: SH onceMaxRequest counts cards with a free share, PT onceMaxRequest is 1 while
// any card can host an instance. The recorded `kubectl` rows, taken with the older readings,
// are quoted next to each check.
#include <catch2/catch.hpp>

#include "model/stage4/instance_type_status.h"
#include "tests/model/stage4/instance_type_fixtures.h"

namespace {

using namespace chaintwin::test;
namespace m = chaintwin::model;

const std::string kH100 = "nvidia-h100-80gb-hbm3";
const std::string kType = "gpustack--nvidia-h100-80gb-hbm3-linux-amd64";
const DeviceNotes kH100Notes{"nvidia", "NVIDIA H100 80GB HBM3", "hopper", "80Gi", "16896"};

// node-h100 with its first `mig_cards` cards in MIG mode and the rest logical.
m::ClusterState h100_node(int mig_cards) {
  m::ClusterState s;
  const auto node = make_node("node-h100", "intel-xeon-platinum-8480", 224, kH100, 8);
  s.nodes[node.metadata.name] = node;
  const auto rf = device_flavor("intel-xeon-platinum-8480", kH100, 8, 1, kH100Notes);
  s.resource_flavors[rf.metadata.name] = rf;
  std::vector<m::Accelerator> cards;
  for (int i = 0; i < 8; ++i) cards.push_back(i < mig_cards ? partitioned_card(i, "H100-80GB") : logical_card(i));
  s.devices["node-h100"] = make_devices("node-h100", "nvidia", "h100-80gb-hbm3", "NVIDIA H100 80GB HBM3", cards);
  const auto it = make_type(kType, true, kH100, "generic");
  s.instance_types[kType] = it;
  s.cluster_queues[kType] = active_queue(it, false);
  return s;
}

// The ledger row of a MIG card holding `live` ({profile, start}) as the device plugin publishes it.
void carve(m::ClusterState& s, size_t card, const std::vector<std::pair<std::string, int32_t>>& live) {
  auto& row = row_of(s, "node-h100", card);
  row.mode = m::DeviceAllocationMode::kPartitioned;
  for (const auto& [profile, start] : live) {
    const auto* p = m::find_catalog_model("H100-80GB")->find_profile(profile);
    row.instances.push_back({profile, {start, p->mem_slices}});
    row.allocated_profiles.push_back({profile, 1});
  }
}

void slice(m::ClusterState& s, size_t card, int32_t percent) {
  auto& row = row_of(s, "node-h100", card);
  row.mode = m::DeviceAllocationMode::kSliced;
  row.remaining = static_cast<int32_t>(m::kUnitsPerAccelerator - percent * m::kUnitsPerMemoryPercent);
  row.allocated_slices = 1;
}

m::InstanceTypeStatus status_of(const m::ClusterState& s) {
  return m::compute_instance_type_status(s, s.instance_types.at(kType), s.cluster_queues.at(kType)).status;
}

std::string row(const m::InstanceTypeStatus& st) {
  auto cell = [](const m::InstanceTypeCapacityView& v) {
    return std::to_string(v.once_max_request) + "/" + std::to_string(v.remaining);
  };
  return cell(st.accelerator) + " " + cell(st.accelerator_shared) + " " + cell(st.accelerator_sliced) + " " +
         cell(st.accelerator_partitioned.view);
}

using Profiles = std::map<std::string, int64_t>;

}  // namespace

TEST_CASE("all-logical H100 node reads 8/8 8/80 100/800 0/0 with a 1024-slice catalog") {
  const auto st = status_of(h100_node(0));
  CHECK(row(st) == "8/8 8/80 100/800 0/0");  // recorded `8/8 80/80 100/800 0/0` (old SH share sum)
  CHECK(st.accelerator_sliced.capacity == 800);
  CHECK(st.detail.sliced_detail.logical.count == 1024);
  CHECK(st.detail.sliced_detail.physical.profiles.empty());
  CHECK(st.accelerator_partitioned.remaining_profiles.empty());
}

TEST_CASE("all-MIG H100 node without ledger rows reads 0/0 0/0 0/0 1/56 from the catalog ceilings") {
  auto s = h100_node(8);
  const auto st = status_of(s);
  CHECK(row(st) == "0/0 0/0 0/0 1/56");  // recorded `0/0 0/0 0/0 1/56`: agrees
  CHECK(st.accelerator_partitioned.view.capacity == 56);
  CHECK(st.accelerator_partitioned.remaining_profiles ==
        Profiles{{"1g.10gb", 56}, {"1g.20gb", 32}, {"2g.20gb", 24}, {"3g.40gb", 16}, {"4g.40gb", 8}, {"7g.80gb", 8}});
  CHECK(st.accelerator_partitioned.allocated_profiles.empty());
  CHECK(st.detail.sliced_detail.physical.count == 56);
}

TEST_CASE("one 3g.40gb on an all-MIG H100 node reads PT 1/52 and keeps every profile listed") {
  auto s = h100_node(8);
  carve(s, 0, {{"3g.40gb", 0}});
  const auto st = status_of(s);
  // Recorded `0/0 0/0 0/0 7/52`: the older reading reported the freest card's count (7) as
  // onceMaxRequest; the current text (and code) reports 1, a partition request being one instance.
  CHECK(row(st) == "0/0 0/0 0/0 1/52");
  CHECK(st.accelerator_partitioned.view.capacity == 56);
  CHECK(st.accelerator_partitioned.remaining_profiles ==
        Profiles{{"1g.10gb", 52}, {"1g.20gb", 30}, {"2g.20gb", 22}, {"3g.40gb", 15}, {"4g.40gb", 7}, {"7g.80gb", 7}});
  CHECK(st.accelerator_partitioned.allocated_profiles == Profiles{{"3g.40gb", 1}});
  CHECK(st.detail.sliced_detail.physical.count == 56);  // the catalog never moves with carving
}

TEST_CASE("mixed H100 node (GPUs 0-2 MIG) reads 5/5 5/50 100/500 1/21") {
  const auto st = status_of(h100_node(3));
  CHECK(row(st) == "5/5 5/50 100/500 1/21");  // recorded `5/5 50/50 100/500 7/21`
  CHECK(st.accelerator.capacity == 5);
  CHECK(st.accelerator_partitioned.view.capacity == 21);
}

TEST_CASE("mixed H100 node with a 3g.40gb on GPU0 and a 50 % slice on GPU5 reads 4/4 4/40 100/450 1/17") {
  auto s = h100_node(3);
  carve(s, 0, {{"3g.40gb", 0}});
  slice(s, 5, 50);
  const auto st = status_of(s);
  CHECK(row(st) == "4/4 4/40 100/450 1/17");  // recorded `4/4 40/40 100/450 7/17`
  CHECK(st.accelerator_sliced.capacity == 500);
  CHECK(st.accelerator_partitioned.remaining_profiles.at("1g.10gb") == 17);
}

TEST_CASE("back to all-logical the H100 node reads config 1 again") {
  CHECK(row(status_of(h100_node(0))) == "8/8 8/80 100/800 0/0");
}

TEST_CASE("a MIG card whose ledger row is present but not ready counts at its ceilings, never as full") {
  auto s = h100_node(1);
  auto with_row = status_of(s);  // free_row: no profiles listed → not ready → ceilings
  s.devices.at("node-h100").status.groups[0].accelerators.erase(
      s.devices.at("node-h100").status.groups[0].accelerators.begin());
  auto without_row = status_of(s);
  CHECK(with_row.accelerator_partitioned.view == m::InstanceTypeCapacityView{7, 1, 7});
  CHECK(without_row.accelerator_partitioned == with_row.accelerator_partitioned);
}

TEST_CASE("a full MIG card lists every profile at 0 and PT onceMaxRequest drops to 0") {
  auto s = h100_node(1);
  carve(s, 0, {{"7g.80gb", 0}});
  const auto st = status_of(s);
  CHECK(st.accelerator_partitioned.view == m::InstanceTypeCapacityView{7, 0, 0});
  CHECK(st.accelerator_partitioned.remaining_profiles ==
        Profiles{{"1g.10gb", 0}, {"1g.20gb", 0}, {"2g.20gb", 0}, {"3g.40gb", 0}, {"4g.40gb", 0}, {"7g.80gb", 0}});
}

TEST_CASE("another accelerator group on the same node does not feed the pool") {
  auto s = h100_node(0);
  m::DevicesGroup other = s.devices.at("node-h100").spec.groups[0];
  other.id = "a100-80gb";
  s.devices.at("node-h100").spec.groups.push_back(other);
  m::DevicesAllocationGroup ledger = s.devices.at("node-h100").status.groups[0];
  ledger.id = "a100-80gb";
  s.devices.at("node-h100").status.groups.push_back(ledger);
  CHECK(row(status_of(s)) == "8/8 8/80 100/800 0/0");
}
