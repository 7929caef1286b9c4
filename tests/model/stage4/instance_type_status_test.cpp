// InstanceType status: the docs' worked examples (operator-domain §9.2 four-node walkthrough,
// §9.3 eight-H100 MIG walkthrough) under the CURRENT text of the four-view table (§3.8). Where
// the docs' recorded outputs were taken with the older readings (§12 items 1–2), the recorded
// value is kept in a comment next to the value the current text gives.
#include <catch2/catch.hpp>

#include "model/stage4/instance_type_status.h"
#include "tests/model/stage4/instance_type_fixtures.h"

namespace {

using namespace chaintwin::test;
namespace m = chaintwin::model;

using View = m::InstanceTypeCapacityView;

const std::string kA10g = "nvidia-a10g";
const std::string kT4 = "nvidia-tesla-t4";
const std::string kH100 = "nvidia-h100-80gb-hbm3";
const DeviceNotes kA10gNotes{"nvidia", "NVIDIA A10G", "ampere", "24Gi", "10240"};
const DeviceNotes kT4Notes{"nvidia", "Tesla T4", "turing", "16Gi", "2560"};
const DeviceNotes kH100Notes{"nvidia", "NVIDIA H100 80GB HBM3", "hopper", "80Gi", "16896"};

// The docs' four-node cluster, stage 3 converged, the queues filled by the NodeQueue reconciler.
m::ClusterState four_node_cluster() {
  m::ClusterState s;
  for (auto n : {make_node("node-cpu", "amd-epyc-7r13", 16), make_node("node-a10g", "amd-epyc-7r32", 4, kA10g, 1),
                 make_node("node-t4-a", "intel-xeon-platinum-8259cl", 4, kT4, 1),
                 make_node("node-t4-b", "intel-xeon-platinum-8259cl", 48, kT4, 4)})
    s.nodes[n.metadata.name] = n;
  for (auto rf : {cpu_flavor("amd-epyc-7r13", 16, 1), cpu_flavor("amd-epyc-7r32", 4, 1),
                  cpu_flavor("intel-xeon-platinum-8259cl", 4, 1), cpu_flavor("intel-xeon-platinum-8259cl", 48, 1),
                  device_flavor("amd-epyc-7r32", kA10g, 1, 1, kA10gNotes),
                  device_flavor("intel-xeon-platinum-8259cl", kT4, 1, 1, kT4Notes),
                  device_flavor("intel-xeon-platinum-8259cl", kT4, 4, 1, kT4Notes)})
    s.resource_flavors[rf.metadata.name] = rf;
  s.devices["node-a10g"] = make_devices("node-a10g", "nvidia", "a10g", "NVIDIA A10G", {logical_card(0)});
  s.devices["node-t4-a"] = make_devices("node-t4-a", "nvidia", "tesla-t4", "Tesla T4", {logical_card(0)});
  s.devices["node-t4-b"] = make_devices("node-t4-b", "nvidia", "tesla-t4", "Tesla T4",
                                        {logical_card(0), logical_card(1), logical_card(2), logical_card(3)});

  const auto generic = make_type("gpustack--generic-linux-amd64", false, "", "generic");
  const auto a10g = make_type("gpustack--nvidia-a10g-linux-amd64", true, kA10g, "generic");
  const auto t4 = make_type("gpustack--nvidia-tesla-t4-linux-amd64", true, kT4, "generic");
  std::vector<const m::ResourceFlavor*> cpu;
  for (const auto& [name, rf] : s.resource_flavors)
    if (rf.metadata.labels.at(std::string(k::kAcceleratable)) == "false") cpu.push_back(&rf);
  s.cluster_queues[generic.metadata.name] = active_queue(generic, false, cpu);
  s.cluster_queues[a10g.metadata.name] = active_queue(a10g, false);
  s.cluster_queues[t4.metadata.name] = active_queue(t4, false);
  for (const auto& it : {generic, a10g, t4}) s.instance_types[it.metadata.name] = it;
  return s;
}

m::InstanceTypeStatus status_of(const m::ClusterState& s, const std::string& type) {
  return m::compute_instance_type_status(s, s.instance_types.at(type), s.cluster_queues.at(type)).status;
}

// The accelerated row as `kubectl get instancetypes` prints it: onceMaxRequest/remaining x4.
std::string row(const m::InstanceTypeStatus& st) {
  auto cell = [](const View& v) { return std::to_string(v.once_max_request) + "/" + std::to_string(v.remaining); };
  return cell(st.accelerator) + " " + cell(st.accelerator_shared) + " " + cell(st.accelerator_sliced) + " " +
         cell(st.accelerator_partitioned.view);
}

}  // namespace

TEST_CASE("the four-node walkthrough's generic CPU type reads 48/72: the largest node's cores over the pool total") {
  const auto st = status_of(four_node_cluster(), "gpustack--generic-linux-amd64");
  CHECK(st.cpu == View{72, 48, 72});
  CHECK(row(st) == "0/0 0/0 0/0 0/0");
  CHECK(st.entrance == "gpustack-fnv64-3b93966fd73eb9ec");
  CHECK(st.phase == "Active");
  CHECK(st.detail == m::InstanceTypeDetail{});  // the collapsed generic pool has no representative flavor
}

TEST_CASE("the four-node walkthrough's A10G type reads 1/1 1/10 100/100 0/0 under the current SH reading") {
  const auto st = status_of(four_node_cluster(), "gpustack--nvidia-a10g-linux-amd64");
  // Recorded in the walkthrough: `1/1 10/10 100/100 0/0` — the SH column there is the old
  // share-sum reading (the node's 10 free shares). The current text counts the cards with a free
  // share on the largest node: one.
  CHECK(row(st) == "1/1 1/10 100/100 0/0");
  CHECK(st.accelerator == View{1, 1, 1});
  CHECK(st.accelerator_shared == View{10, 1, 10});
  CHECK(st.accelerator_sliced == View{100, 100, 100});
  CHECK(st.accelerator_partitioned == m::InstanceTypePartitionedView{});
  CHECK(st.cpu == View{});
  CHECK(st.entrance == "gpustack-fnv64-c4680bb149644f1c");
  CHECK(st.detail.manufacturer == "nvidia");
  CHECK(st.detail.memory == "24Gi");
  CHECK(st.detail.cores == "10240");
  CHECK(st.detail.cpu.empty());  // cpuDetail rides an accelerated type only with awareness on
  CHECK(st.detail.sliced_detail.logical == m::AcceleratorLogicalSliced{true, 128});
}

TEST_CASE("the four-node walkthrough's T4 type reads 4/5 4/50 100/500 0/0 under the current SH reading") {
  const auto st = status_of(four_node_cluster(), "gpustack--nvidia-tesla-t4-linux-amd64");
  // Recorded: `4/5 40/50 100/500 0/0` (SH = node-t4-b's 40 free shares, the old reading). The
  // current text: node-t4-b has 4 cards with a free share.
  CHECK(row(st) == "4/5 4/50 100/500 0/0");
  CHECK(st.accelerator.capacity == 5);
  CHECK(st.accelerator_shared.capacity == 50);
  CHECK(st.accelerator_sliced.capacity == 500);
  CHECK(st.detail.sliced_detail.logical.count == 5 * 128);
}

TEST_CASE("a 20 % slice leaves the A10G neither whole nor shareable: 0/0 0/0 80/80 0/0") {
  auto s = four_node_cluster();
  auto& r = row_of(s, "node-a10g", 0);
  r.mode = m::DeviceAllocationMode::kSliced;
  r.remaining = 1'280'000;
  r.allocated = 320'000;
  r.allocated_slices = 1;
  CHECK(row(status_of(s, "gpustack--nvidia-a10g-linux-amd64")) == "0/0 0/0 80/80 0/0");
}

TEST_CASE("a whole-card instance zeroes the A10G row, and releasing it restores 1/1 1/10 100/100") {
  auto s = four_node_cluster();
  auto& r = row_of(s, "node-a10g", 0);
  r.mode = m::DeviceAllocationMode::kExclusive;
  r.remaining = 0;
  r.allocated = 1'600'000;
  CHECK(row(status_of(s, "gpustack--nvidia-a10g-linux-amd64")) == "0/0 0/0 0/0 0/0");
  r = free_row(s.devices.at("node-a10g").spec.groups[0].accelerators[0]);
  CHECK(row(status_of(s, "gpustack--nvidia-a10g-linux-amd64")) == "1/1 1/10 100/100 0/0");
}

TEST_CASE("an unmanaged A10G node leaves its type at 0/0 0/0 0/0 0/0, with or without its flavor") {
  auto s = four_node_cluster();
  s.nodes.at("node-a10g").metadata.labels[std::string(k::kManaged)] = "false";
  const auto& st = status_of(s, "gpustack--nvidia-a10g-linux-amd64");
  CHECK(row(st) == "0/0 0/0 0/0 0/0");
  CHECK(st.accelerator.capacity == 0);
  s.resource_flavors.erase("gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64-1d-" + kProfile);
  CHECK(status_of(s, "gpustack--nvidia-a10g-linux-amd64").accelerator_sliced.capacity == 0);
}

TEST_CASE("with awareness on, the aware A10G and T4 types read the same cards as the collapsed ones") {
  auto s = four_node_cluster();
  s.settings.instance_type_aware_cpu_manufacturer = true;
  auto a10g = make_type("gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64", true, kA10g, "amd-epyc-7r32");
  auto t4 = make_type("gpustack--intel-xeon-platinum-8259cl--nvidia-tesla-t4-linux-amd64", true, kT4,
                      "intel-xeon-platinum-8259cl");
  for (const auto& it : {a10g, t4}) {
    s.instance_types[it.metadata.name] = it;
    s.cluster_queues[it.metadata.name] = active_queue(it, true);
  }
  CHECK(s.cluster_queues.at(a10g.metadata.name).metadata.labels.count(gen("amd-epyc-7r32")) == 1);
  CHECK(row(status_of(s, a10g.metadata.name)) == "1/1 1/10 100/100 0/0");  // recorded `1/1 10/10 100/100`
  CHECK(row(status_of(s, t4.metadata.name)) == "4/5 4/50 100/500 0/0");    // recorded `4/5 40/50 100/500`
  CHECK(status_of(s, a10g.metadata.name).detail.cpu == "");  // the fixture's device flavor carries no cpuDetail
  auto& r = row_of(s, "node-a10g", 0);
  r.mode = m::DeviceAllocationMode::kExclusive;
  r.remaining = 0;
  CHECK(row(status_of(s, a10g.metadata.name)) == "0/0 0/0 0/0 0/0");
  CHECK(row(status_of(s, "gpustack--nvidia-a10g-linux-amd64")) == "0/0 0/0 0/0 0/0");
}

TEST_CASE("a reservation on the CPU queue lowers remaining and caps onceMaxRequest") {
  auto s = four_node_cluster();
  auto& cq = s.cluster_queues.at("gpustack--generic-linux-amd64");
  cq.status.flavors_reservation.push_back({"f", {{"cpu", m::Quantity::from_int(30), m::Quantity::from_int(0)}}});
  CHECK(status_of(s, "gpustack--generic-linux-amd64").cpu == View{72, 42, 42});
}

TEST_CASE("a draining queue reports every view at zero and reads Draining while work is reserved") {
  auto s = four_node_cluster();
  auto& cq = s.cluster_queues.at("gpustack--nvidia-a10g-linux-amd64");
  cq.spec.stop_policy = m::StopPolicy::kHoldAndDrain;
  cq.status.admitted_workloads = 1;
  auto st = status_of(s, "gpustack--nvidia-a10g-linux-amd64");
  CHECK(row(st) == "0/0 0/0 0/0 0/0");
  CHECK(st.accelerator.capacity == 0);
  CHECK(st.phase == "Draining");
  cq.status.admitted_workloads = 0;
  st = status_of(s, "gpustack--nvidia-a10g-linux-amd64");
  CHECK(st.phase == "Inactive");
  CHECK(st.phase_message == "cluster queue is held and drained");
  CHECK(st.detail.product == "NVIDIA A10G");  // the detail is kept while draining
}

TEST_CASE("an admin Hold reads Inactive, a queue Kueue has not reported on reads Activating") {
  auto s = four_node_cluster();
  auto& cq = s.cluster_queues.at("gpustack--nvidia-a10g-linux-amd64");
  cq.spec.stop_policy = m::StopPolicy::kHold;
  CHECK(status_of(s, "gpustack--nvidia-a10g-linux-amd64").phase == "Inactive");
  CHECK(row(status_of(s, "gpustack--nvidia-a10g-linux-amd64")) == "1/1 1/10 100/100 0/0");  // Hold is not a drain
  cq.spec.stop_policy = m::StopPolicy::kNone;
  cq.status.conditions.clear();
  CHECK(status_of(s, "gpustack--nvidia-a10g-linux-amd64").phase == "Activating");
}

TEST_CASE("a flavor name's per-node count is read before its topology suffix") {
  CHECK(m::node_flavor_count_from_name("gpustack--generic-linux-amd64-4c-fnv64-87bf574bea2a4f23") == 4);
  CHECK(m::node_flavor_count_from_name("gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64-1d") == 1);
  CHECK(m::node_flavor_count_from_name("gpustack--generic-linux-amd64") == 0);
}
