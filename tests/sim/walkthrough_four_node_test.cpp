// The operator's four-node walkthrough (operator-domain.md §9.2 steps 1-5), end to end: the
// cluster of scenarios/walkthroughs/four-node-cluster.yaml converged with the operator's
// controllers (operator_controllers(): stage 3, the stage-4 reconcilers and Kueue's emulation),
// then each step applied as an edit to the converged ClusterState — an admin's write through
// apply_plan, a ledger row as the device plugin publishes it, a setting — and converged again.
// Every number of the walkthrough's tables is asserted. Where the recorded output and the current
// text disagree (operator-domain §12 items 1-3, docs/fidelity.md) the test asserts the current
// text, which the model implements, and keeps the recorded value in a comment beside it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "model/catalog/label_keys.h"
#include "model/stage4/instance_type_flavor.h"
#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/cluster_objects.h"
#include "sim/kube_documents.h"

namespace {

using namespace chaintwin;
namespace m = chaintwin::model;
namespace k = chaintwin::model::keys;
using Names = std::vector<std::string>;

const std::string kNow = "2026-01-01T00:00:00Z";
const std::string kProfile = "-fnv64-87bf574bea2a4f23";  // hostname-only topology profile

// The three derived InstanceTypes (= ClusterQueues) with awareness off.
const std::string kGeneric = "gpustack--generic-linux-amd64";
const std::string kA10g = "gpustack--nvidia-a10g-linux-amd64";
const std::string kT4 = "gpustack--nvidia-tesla-t4-linux-amd64";

// The seven ResourceFlavors of step 1, topology-qualified (§12.6: the docs print them unsuffixed).
const std::string kRf7r13 = "gpustack--amd-epyc-7r13-linux-amd64-16c" + kProfile;
const std::string kRfA10g = "gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64-1d" + kProfile;
const std::string kRf7r32 = "gpustack--amd-epyc-7r32-linux-amd64-4c" + kProfile;
const std::string kRfT4x1 = "gpustack--intel-xeon-platinum-8259cl--nvidia-tesla-t4-linux-amd64-1d" + kProfile;
const std::string kRfT4x4 = "gpustack--intel-xeon-platinum-8259cl--nvidia-tesla-t4-linux-amd64-4d" + kProfile;
const std::string kRf8259x48 = "gpustack--intel-xeon-platinum-8259cl-linux-amd64-48c" + kProfile;
const std::string kRf8259x4 = "gpustack--intel-xeon-platinum-8259cl-linux-amd64-4c" + kProfile;

m::ClusterState settle(m::ClusterState s) {
  const auto r = m::converge(std::move(s), m::operator_controllers(), kNow);
  REQUIRE(r.ok());
  REQUIRE(r->converged);
  return r->state;
}

// Step 1: the walkthrough's cluster as given, converged (with the writes that took it there).
m::ConvergeResult step1_run() {
  const auto objects = sim::load_kubernetes_objects(std::string(CHAINTWIN_SOURCE_DIR) +
                                                    "/scenarios/walkthroughs/four-node-cluster.yaml");
  REQUIRE(objects.ok());
  const auto cluster = sim::read_cluster_objects(*objects, model::Settings{});
  REQUIRE(cluster.ok());
  const auto r = m::converge(static_cast<const m::ClusterState&>(*cluster), m::operator_controllers(), kNow);
  REQUIRE(r.ok());
  REQUIRE(r->converged);
  return *r;
}

m::ClusterState step1() { return step1_run().state; }

// One write by someone outside the chain (an admin, the device plugin), applied like the API
// server does.
m::ClusterState write(const m::ClusterState& s, m::WriteVerb verb, m::Object object) {
  m::Plan p;
  p.writes.push_back({verb, std::move(object), "admin", "walkthrough step"});
  auto next = m::apply_plan(s, p, kNow);
  REQUIRE(next.ok());
  return *next;
}

template <typename Objects>
Names names_of(const Objects& objects) {
  Names out;
  for (const auto& [name, o] : objects) out.push_back(name);
  return out;
}

Names local_queues_in(const m::ClusterState& s, const std::string& ns) {
  Names out;
  for (const auto& [key, lq] : s.local_queues)
    if (lq.metadata.namespace_ == ns) out.push_back(lq.metadata.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::string cell(const m::InstanceTypeCapacityView& v) {
  return std::to_string(v.once_max_request) + "/" + std::to_string(v.remaining);
}

// EX SH SL PT as `kubectl get instancetypes` prints them (onceMaxRequest/remaining).
std::string row(const m::ClusterState& s, const std::string& type) {
  const auto& st = s.instance_types.at(type).status;
  return cell(st.accelerator) + " " + cell(st.accelerator_shared) + " " + cell(st.accelerator_sliced) + " " +
         cell(st.accelerator_partitioned.view);
}

// The CPU column. §12.3: the docs call it remaining/capacity, the recorded numbers are the largest
// node's cores over the pool total; the model follows the numbers (onceMaxRequest = the largest
// node's cores, capacity = the total, remaining = capacity while nothing is reserved).
std::string cpu(const m::ClusterState& s, const std::string& type) {
  const auto& v = s.instance_types.at(type).status.cpu;
  CHECK(v.remaining == v.capacity);  // nothing reserved in the walkthrough
  return std::to_string(v.once_max_request) + "/" + std::to_string(v.capacity);
}

// The unit spec column: CPU/RAM/local storage.
std::string unit(const m::ClusterState& s, const std::string& type) {
  const auto& spec = s.instance_types.at(type).spec;
  return spec.unit_resources.cpu + "/" + spec.unit_resources.ram + "/" + spec.local_storage;
}

// The flavors and nominal quotas of a queue's single resource group.
std::vector<std::pair<std::string, std::string>> quotas(const m::ClusterState& s, const std::string& queue) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& g : s.cluster_queues.at(queue).spec.resource_groups)
    for (const auto& f : g.flavors)
      for (const auto& r : f.resources) out.emplace_back(f.name + " " + r.name, r.nominal_quota.to_string());
  return out;
}

// A queue at rest: stop policy None, no empty-plan marker, no migration under way, Active.
void check_settled(const m::ClusterState& s, const std::string& queue) {
  INFO("queue " << queue);
  const auto& cq = s.cluster_queues.at(queue);
  CHECK(cq.stop_policy() == m::StopPolicy::kNone);
  CHECK(cq.metadata.annotations.count(std::string(k::kEmptyPlanHold)) == 0);
  CHECK(cq.metadata.annotations.count(std::string(k::kMigrationPhase)) == 0);
  CHECK(cq.metadata.annotations.count(std::string(k::kMigrationStopPolicy)) == 0);
  CHECK(s.instance_types.at(queue).status.phase == "Active");
}

m::AcceleratorAllocation& a10g_ledger_row(m::Devices& d) {
  REQUIRE(d.status.groups.size() == 1);
  REQUIRE(d.status.groups[0].accelerators.size() == 1);
  return d.status.groups[0].accelerators[0];
}

// node-a10g's only card as the device plugin publishes it.
m::ClusterState with_a10g_row(const m::ClusterState& s, m::DeviceAllocationMode mode, int32_t allocated,
                              int32_t remaining, int32_t slices) {
  m::Devices d = s.devices.at("node-a10g");
  auto& r = a10g_ledger_row(d);
  r.mode = mode;
  r.allocated = allocated;
  r.remaining = remaining;
  r.allocated_slices = slices;
  return write(s, m::WriteVerb::kUpdateStatus, d);
}

m::ClusterState with_a10g_free(const m::ClusterState& s) {
  return with_a10g_row(s, m::DeviceAllocationMode::kNone, 0, 1'600'000, 0);
}

m::ClusterState with_managed(const m::ClusterState& s, const std::string& node, const std::string& value) {
  m::Node n = s.nodes.at(node);
  n.metadata.labels[std::string(k::kManaged)] = value;
  return write(s, m::WriteVerb::kUpdate, n);
}

const std::string kAdminType = "a10g-12c128g";

m::InstanceType admin_a10g_type() {
  m::InstanceType it;
  it.metadata.name = kAdminType;
  it.spec.acceleratable = true;
  it.spec.accelerator_group = "nvidia-a10g";
  it.spec.general_group = "generic";
  it.spec.os = "linux";
  it.spec.arch = "amd64";
  it.spec.unit_resources = {"12", "128Gi"};
  it.spec.local_storage = "200Gi";
  return it;
}

}  // namespace

TEST_CASE("step 1: four nodes settle into seven flavors, three pools, their queues and entrances", "[walkthrough]") {
  const auto s = step1();

  CHECK(names_of(s.resource_flavors) == Names{kRf7r13, kRfA10g, kRf7r32, kRfT4x1, kRfT4x4, kRf8259x48, kRf8259x4});
  // Each flavor's per-Node count and its capacity (contributors x count).
  const std::vector<std::tuple<std::string, std::string, std::string, std::string>> counted{
      {kRf7r13, "general.feature.gpustack.ai/amd-epyc-7r13", "16", "16"},
      {kRfA10g, "acceleratable.feature.gpustack.ai/nvidia-a10g", "1", "1"},
      {kRf7r32, "general.feature.gpustack.ai/amd-epyc-7r32", "4", "4"},
      {kRfT4x1, "acceleratable.feature.gpustack.ai/nvidia-tesla-t4", "1", "1"},
      {kRfT4x4, "acceleratable.feature.gpustack.ai/nvidia-tesla-t4", "4", "4"},
      {kRf8259x48, "general.feature.gpustack.ai/intel-xeon-platinum-8259cl", "48", "48"},
      {kRf8259x4, "general.feature.gpustack.ai/intel-xeon-platinum-8259cl", "4", "4"},
  };
  for (const auto& [flavor, feature, count, capacity] : counted) {
    INFO(flavor);
    const auto& labels = s.resource_flavors.at(flavor).metadata.labels;
    CHECK(labels.at(feature + ".count") == count);
    CHECK(labels.at(feature + ".capacity") == capacity);
  }

  CHECK(names_of(s.instance_types) == Names{kGeneric, kA10g, kT4});
  CHECK(names_of(s.cluster_queues) == Names{kGeneric, kA10g, kT4});
  // §9.1: generic 3b93966fd73eb9ec, A10G c4680bb149644f1c, T4 6b371caa2da0b799.
  CHECK(local_queues_in(s, "default") == Names{"gpustack-fnv64-3b93966fd73eb9ec", "gpustack-fnv64-6b371caa2da0b799",
                                              "gpustack-fnv64-c4680bb149644f1c"});
  CHECK(s.local_queues.at("default/gpustack-fnv64-3b93966fd73eb9ec").cluster_queue == kGeneric);
  CHECK(s.local_queues.at("default/gpustack-fnv64-c4680bb149644f1c").cluster_queue == kA10g);
  CHECK(s.local_queues.at("default/gpustack-fnv64-6b371caa2da0b799").cluster_queue == kT4);
  CHECK(local_queues_in(s, "kube-system").empty());
  CHECK(local_queues_in(s, "gpustack-system").empty());
  CHECK(s.local_queues.size() == 3);
  CHECK(s.instance_types.at(kGeneric).status.entrance == "gpustack-fnv64-3b93966fd73eb9ec");
  CHECK(s.instance_types.at(kA10g).status.entrance == "gpustack-fnv64-c4680bb149644f1c");
  CHECK(s.instance_types.at(kT4).status.entrance == "gpustack-fnv64-6b371caa2da0b799");

  // Devices for the three accelerated nodes, none for node-cpu.
  CHECK(names_of(s.devices) == Names{"node-a10g", "node-t4-a", "node-t4-b"});

  // InstanceTypeFlavors: generic, A10G (24Gi, 10240), T4 (16Gi, 2560).
  const auto catalog = m::instance_type_flavor_catalog(s.resource_flavors, false);
  Names catalog_names;
  for (const auto& f : catalog) catalog_names.push_back(f.metadata.name);
  CHECK(catalog_names == Names{"gpustack--generic", "gpustack--nvidia-a10g", "gpustack--nvidia-tesla-t4"});
  REQUIRE(catalog.size() == 3);
  CHECK(catalog[1].spec.memory == "24Gi");
  CHECK(catalog[1].spec.cores == "10240");
  // The walkthrough lists the A10G as sliceable; the flavor reconciler followed writes no
  // `sliceable` note, so the twin's catalog reads false (docs/fidelity.md, InstanceTypeFlavor).
  CHECK_FALSE(catalog[1].spec.sliceable);
  CHECK(catalog[2].spec.memory == "16Gi");
  CHECK(catalog[2].spec.cores == "2560");

  // The InstanceType rows: unit spec, the four views, the CPU column.
  CHECK(unit(s, kGeneric) == "1/2Gi/100Gi");
  CHECK(row(s, kGeneric) == "0/0 0/0 0/0 0/0");
  // 16 + 4 + 4 + 48 cores; the largest node has 48. §12.3: the text calls the column
  // remaining/capacity (72/72 here); the recorded 48/72 is onceMaxRequest/capacity, the reading
  // the model implements (capacity 72, onceMaxRequest 48, remaining 72).
  CHECK(cpu(s, kGeneric) == "48/72");
  CHECK(s.instance_types.at(kGeneric).status.cpu == m::InstanceTypeCapacityView{72, 48, 72});
  CHECK(unit(s, kA10g) == "8/64Gi/100Gi");
  // Recorded: `1/1 10/10 100/100 0/0` — SH onceMaxRequest in the old share-sum reading (§12.1);
  // the current text counts the cards with a free share on the freest node: one.
  CHECK(row(s, kA10g) == "1/1 1/10 100/100 0/0");
  CHECK(unit(s, kT4) == "8/32Gi/100Gi");
  // Recorded: `4/5 40/50 100/500 0/0` (§12.1): node-t4-b has 4 cards with a free share.
  CHECK(row(s, kT4) == "4/5 4/50 100/500 0/0");

  // The A10G pool: capacity label 1, nominal credits 1600k, a free ledger row.
  CHECK(s.resource_flavors.at(kRfA10g).metadata.labels.at("acceleratable.feature.gpustack.ai/nvidia-a10g.capacity") == "1");
  CHECK(quotas(s, kA10g) == std::vector<std::pair<std::string, std::string>>{{kRfA10g + " credits.gpustack.ai/nvidia", "1600k"}});
  CHECK(s.devices.at("node-a10g").status.groups.at(0).accelerators.at(0).remaining == 1'600'000);
  CHECK(quotas(s, kT4) == std::vector<std::pair<std::string, std::string>>{
                              {kRfT4x1 + " credits.gpustack.ai/nvidia", "1600k"},
                              {kRfT4x4 + " credits.gpustack.ai/nvidia", "6400k"}});
  // The generic queue tries the small Nodes first: the two 4c flavors by name, 16c, 48c.
  CHECK(quotas(s, kGeneric) == std::vector<std::pair<std::string, std::string>>{
                                   {kRf7r32 + " cpu", "4"}, {kRf8259x4 + " cpu", "4"},
                                   {kRf7r13 + " cpu", "16"}, {kRf8259x48 + " cpu", "48"}});

  // Every queue was created Hold + empty-plan-hold and ends released, unmarked and Active.
  const auto run = step1_run();
  for (const auto& q : {kGeneric, kA10g, kT4}) {
    INFO("queue " << q);
    int creates = 0;
    for (const auto& w : run.writes)
      if (const auto* cq = m::object_if<m::ClusterQueue>(w.object);
          cq != nullptr && w.verb == m::WriteVerb::kCreate && cq->metadata.name == q) {
        ++creates;
        CHECK(w.controller == "InstanceType");
        CHECK(cq->stop_policy() == m::StopPolicy::kHold);
        CHECK(cq->metadata.annotations.at(std::string(k::kEmptyPlanHold)) == "true");
      }
    CHECK(creates == 1);
    check_settled(s, q);
  }
}

TEST_CASE("step 2: unmanaging node-a10g deletes its flavors and empties the A10G row, and restoring it restores the counts", "[walkthrough]") {
  const auto before = step1();
  const auto off = settle(with_managed(before, "node-a10g", "false"));

  // Both of node-a10g's flavors lose their only contributor and are gone once Kueue released them.
  CHECK(off.resource_flavors.count(kRfA10g) == 0);
  CHECK(off.resource_flavors.count(kRf7r32) == 0);
  CHECK(names_of(off.resource_flavors) == Names{kRf7r13, kRfT4x1, kRfT4x4, kRf8259x48, kRf8259x4});
  CHECK(row(off, kA10g) == "0/0 0/0 0/0 0/0");
  CHECK(off.instance_types.at(kA10g).status.accelerator.capacity == 0);
  CHECK(off.instance_types.at(kA10g).status.accelerator_sliced.capacity == 0);
  CHECK(cpu(off, kGeneric) == "48/68");  // 72 - node-a10g's 4 cores
  check_settled(off, kGeneric);
  check_settled(off, kT4);
  CHECK(row(off, kT4) == "4/5 4/50 100/500 0/0");
  // The emptied A10G queue waits, held and drained, on an empty plan (docs/controllers/node-queue.md).
  const auto& held = off.cluster_queues.at(kA10g);
  CHECK(held.stop_policy() == m::StopPolicy::kHoldAndDrain);
  CHECK(held.spec.resource_groups.empty());
  CHECK(held.metadata.annotations.at(std::string(k::kMigrationPhase)) == "switched");
  CHECK(off.instance_types.at(kA10g).status.phase == "Inactive");

  const auto on = settle(with_managed(off, "node-a10g", "true"));
  CHECK(names_of(on.resource_flavors) == names_of(before.resource_flavors));
  CHECK(row(on, kA10g) == "1/1 1/10 100/100 0/0");  // recorded `1/1 10/10 100/100 0/0` (§12.1)
  CHECK(cpu(on, kGeneric) == "48/72");
  CHECK(quotas(on, kA10g) == quotas(before, kA10g));
  CHECK(quotas(on, kGeneric) == quotas(before, kGeneric));
  for (const auto& q : {kGeneric, kA10g, kT4}) {
    check_settled(on, q);
    CHECK(on.instance_types.at(q).status == before.instance_types.at(q).status);
  }
}

TEST_CASE("step 3: a 20 % slice on the A10G leaves only 80 % to slice, and releasing it restores the row", "[walkthrough]") {
  const auto before = step1();
  // The device plugin's ledger row for `accelerator: 1` at 20 % memory: Sliced, 320000 of 1600000.
  const auto sliced = settle(with_a10g_row(before, m::DeviceAllocationMode::kSliced, 320'000, 1'280'000, 1));
  CHECK(row(sliced, kA10g) == "0/0 0/0 80/80 0/0");
  CHECK(row(sliced, kT4) == "4/5 4/50 100/500 0/0");
  check_settled(sliced, kA10g);

  const auto released = settle(with_a10g_free(sliced));
  // Recorded: `1/1 10/10 100/100 0/0` (§12.1).
  CHECK(row(released, kA10g) == "1/1 1/10 100/100 0/0");
  CHECK(released.instance_types.at(kA10g).status == before.instance_types.at(kA10g).status);
}

TEST_CASE("step 4: an admin A10G type gets its own queue and entrance, shares the card, and leaves through HoldAndDrain", "[walkthrough]") {
  const auto before = step1();
  const auto s = settle(write(before, m::WriteVerb::kCreate, admin_a10g_type()));

  REQUIRE(s.cluster_queues.count(kAdminType) == 1);
  // §12.7: the docs print `gpustack-fnv64-8cf5b3114035c84a`; FNV-1a-64 of the name (the rule
  // every other example satisfies) is d4c0e6cd72686015.
  const std::string entrance = "gpustack-fnv64-d4c0e6cd72686015";
  CHECK(s.instance_types.at(kAdminType).status.entrance == entrance);
  REQUIRE(s.local_queues.count("default/" + entrance) == 1);
  CHECK(s.local_queues.at("default/" + entrance).cluster_queue == kAdminType);
  CHECK(local_queues_in(s, "default").size() == 4);
  CHECK(quotas(s, kAdminType) == quotas(s, kA10g));  // the same A10G flavor, 1600k
  check_settled(s, kAdminType);
  CHECK(unit(s, kAdminType) == "12/128Gi/200Gi");
  // Recorded: `1/1 10/10 100/100 0/0` for both rows (§12.1).
  CHECK(row(s, kAdminType) == "1/1 1/10 100/100 0/0");
  CHECK(row(s, kA10g) == "1/1 1/10 100/100 0/0");
  CHECK(unit(s, kA10g) == "8/64Gi/100Gi");

  // A whole-card Instance on the admin type takes the only card: both A10G rows read empty.
  const auto taken = settle(with_a10g_row(s, m::DeviceAllocationMode::kExclusive, 1'600'000, 0, 0));
  CHECK(row(taken, kAdminType) == "0/0 0/0 0/0 0/0");
  CHECK(row(taken, kA10g) == "0/0 0/0 0/0 0/0");

  // Deleting the admin type: its queue is held and drained, then Kueue releases it, the type's
  // finalizer goes, and the entrance is collected.
  const auto deleting = write(taken, m::WriteVerb::kDelete, taken.instance_types.at(kAdminType));
  const auto r = m::converge(deleting, m::operator_controllers(), kNow);
  REQUIRE(r.ok());
  REQUIRE(r->converged);
  bool drained = false, terminating_status = false;
  for (const auto& w : r->writes) {
    if (const auto* cq = m::object_if<m::ClusterQueue>(w.object))
      drained |= w.controller == "NodeQueue" && cq->metadata.name == kAdminType &&
                 cq->stop_policy() == m::StopPolicy::kHoldAndDrain;
    if (const auto* it = m::object_if<m::InstanceType>(w.object))
      terminating_status |= it->metadata.name == kAdminType && it->status.phase == "Inactive" &&
                            it->status.phase_message == "instance type is terminating";
  }
  CHECK(drained);
  CHECK(terminating_status);
  const auto& gone = r->state;
  CHECK(gone.instance_types.count(kAdminType) == 0);
  CHECK(gone.cluster_queues.count(kAdminType) == 0);
  CHECK(gone.local_queues.count("default/" + entrance) == 0);
  CHECK(names_of(gone.instance_types) == Names{kGeneric, kA10g, kT4});
  // The derived row is unaffected: the card is still taken until the Instance stops...
  CHECK(row(gone, kA10g) == "0/0 0/0 0/0 0/0");
  check_settled(gone, kA10g);
  CHECK(quotas(gone, kA10g) == quotas(before, kA10g));
  // ...and once the stopped Instance releases it, the derived row is back. Recorded:
  // `1/1 10/10 100/100` (§12.1).
  const auto back = settle(with_a10g_free(gone));
  CHECK(row(back, kA10g) == "1/1 1/10 100/100 0/0");
  CHECK(back.instance_types.at(kA10g).status == before.instance_types.at(kA10g).status);
}

TEST_CASE("step 5: CPU-manufacturer awareness adds the aware pools beside the collapsed ones", "[walkthrough]") {
  auto aware = step1();
  aware.settings.instance_type_aware_cpu_manufacturer = true;
  const auto s = settle(aware);

  const std::string k7r13 = "gpustack--amd-epyc-7r13-linux-amd64";
  const std::string k7r32 = "gpustack--amd-epyc-7r32-linux-amd64";
  const std::string k8259 = "gpustack--intel-xeon-platinum-8259cl-linux-amd64";
  const std::string kAwareA10g = "gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64";
  const std::string kAwareT4 = "gpustack--intel-xeon-platinum-8259cl--nvidia-tesla-t4-linux-amd64";

  // The old collapsed types remain (NodeFlavor authors types, never removes them).
  CHECK(names_of(s.instance_types) == Names{k7r13, kAwareA10g, k7r32, kGeneric, kAwareT4, k8259, kA10g, kT4});
  CHECK(names_of(s.cluster_queues) == names_of(s.instance_types));
  CHECK(s.resource_flavors.size() == 7);
  CHECK(names_of(s.resource_flavors) == names_of(step1().resource_flavors));

  // CPU columns (§12.3 reading): each aware CPU pool's largest node over its total.
  CHECK(cpu(s, k7r13) == "16/16");
  CHECK(cpu(s, k7r32) == "4/4");
  CHECK(cpu(s, k8259) == "48/52");
  CHECK(cpu(s, kGeneric) == "48/72");
  for (const auto& t : {k7r13, k7r32, k8259}) {
    CHECK(row(s, t) == "0/0 0/0 0/0 0/0");
    CHECK(unit(s, t) == "1/2Gi/100Gi");
  }
  // Recorded: `1/1 10/10 100/100` and `4/5 40/50 100/500` (§12.1).
  CHECK(row(s, kAwareA10g) == "1/1 1/10 100/100 0/0");
  CHECK(row(s, kAwareT4) == "4/5 4/50 100/500 0/0");
  CHECK(row(s, kA10g) == "1/1 1/10 100/100 0/0");
  CHECK(row(s, kT4) == "4/5 4/50 100/500 0/0");
  CHECK(unit(s, kAwareA10g) == "8/64Gi/100Gi");
  CHECK(unit(s, kAwareT4) == "8/32Gi/100Gi");

  // §9.1 entrances of the aware pools.
  const std::vector<std::pair<std::string, std::string>> entrances{
      {k7r13, "gpustack-fnv64-8dde992f64a17a2f"},      {kAwareA10g, "gpustack-fnv64-029fd9550e0c70bd"},
      {k7r32, "gpustack-fnv64-d3390f10cd57a632"},      {kAwareT4, "gpustack-fnv64-5b59e508edc027b7"},
      {k8259, "gpustack-fnv64-c6aee2b7b5c4dc6b"},
  };
  for (const auto& [queue, lq] : entrances) {
    INFO(queue);
    CHECK(s.instance_types.at(queue).status.entrance == lq);
    REQUIRE(s.local_queues.count("default/" + lq) == 1);
    CHECK(s.local_queues.at("default/" + lq).cluster_queue == queue);
  }
  CHECK(local_queues_in(s, "default").size() == 8);
  CHECK(local_queues_in(s, "kube-system").empty());

  // The aware A10G queue selects by CPU too; the collapsed one does not.
  CHECK(s.cluster_queues.at(kAwareA10g).metadata.labels.at("general.feature.gpustack.ai/amd-epyc-7r32") == "true");
  CHECK(s.cluster_queues.at(kA10g).metadata.labels.count("general.feature.gpustack.ai/amd-epyc-7r32") == 0);
  CHECK(quotas(s, kAwareA10g) == std::vector<std::pair<std::string, std::string>>{{kRfA10g + " credits.gpustack.ai/nvidia", "1600k"}});
  CHECK(quotas(s, k8259) == std::vector<std::pair<std::string, std::string>>{{kRf8259x4 + " cpu", "4"}, {kRf8259x48 + " cpu", "48"}});
  for (const auto& [name, cq] : s.cluster_queues) check_settled(s, name);

  // The InstanceTypeFlavor catalog regroups to five entries.
  Names catalog;
  for (const auto& f : m::instance_type_flavor_catalog(s.resource_flavors, true)) catalog.push_back(f.metadata.name);
  CHECK(catalog == Names{"gpustack--amd-epyc-7r13", "gpustack--amd-epyc-7r32", "gpustack--intel-xeon-platinum-8259cl",
                         "gpustack--amd-epyc-7r32--nvidia-a10g", "gpustack--intel-xeon-platinum-8259cl--nvidia-tesla-t4"});
}
