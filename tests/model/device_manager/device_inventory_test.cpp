// Generated nodes (model/device_manager/device_inventory.h) must look to the chain exactly like the objects a
// real Device Manager, device plugin and NFD publish: the §9.3 H100 numbers through stage 3, and
// the §9.2 four-node walkthrough objects.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "model/device_manager/device_inventory.h"
#include "model/stage3/stage3.h"
#include "sim/cluster_objects.h"
#include "sim/kube_documents.h"

namespace {

using namespace chaintwin;
using Keys = std::map<std::string, std::string>;

model::AcceleratorInventory h100(std::vector<model::CardPartitioning> partitioning = {}) {
  model::AcceleratorInventory inv;
  inv.manufacturer = "nvidia";
  inv.product = "NVIDIA H100 80GB HBM3";
  inv.count = 8;
  inv.partitioning = std::move(partitioning);
  return inv;
}

model::NodeSpec h100_node(const model::AcceleratorInventory& inv) {
  model::NodeSpec spec;
  spec.name = "node-h100";
  spec.cpu_vendor = "Intel";
  spec.cpu_name = "Intel(R) Xeon(R) Platinum 8480+";
  spec.cpu = model::Quantity::from_int(224);
  spec.accelerators = {inv};
  return spec;
}

// Node allocatable (the nvidia.com/gpu… part) after stage 3, with the prefix cut off.
Keys allocatable_after_stage3(const model::Devices& devices, const model::NodeSpec& spec) {
  const model::Node node = model::make_node(spec, &devices);
  const auto s3 = model::derive_node_stage3(node, &devices, model::Settings{});
  Keys out;
  const std::string base = "nvidia.com/gpu";
  for (const auto& [k, q] : node.status.allocatable)
    if (k.rfind(base, 0) == 0) out[k == base ? "gpu" : k.substr(base.size() + 1)] = q.to_string();
  for (const auto& [k, q] : s3.capacity) out[k.substr(base.size() + 1)] = q.to_string();
  return out;
}

Keys logical(const char* gpu, const char* shared, const char* sliced, const char* units, const char* cores,
             const char* mib, const char* pct) {
  return {{"gpu", gpu},     {"shared", shared},  {"sliced", sliced},  {"sliced.units", units},
          {"sliced.cores-percentage", cores}, {"sliced.memory-mib", mib}, {"sliced.memory-percentage", pct}};
}

Keys with_partitions(Keys k, const char* pool, const char* units, std::array<const char*, 6> p) {
  k["partitioned"] = pool;
  k["partitioned.units"] = units;
  const char* names[] = {"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"};
  for (size_t i = 0; i < 6; ++i) k[std::string("partitioned.mig-") + names[i]] = p[i];
  return k;
}

model::CardPartitioning mig(std::vector<int32_t> cards, std::vector<std::string> instances = {}) {
  return {std::move(cards), true, std::move(instances)};
}

}  // namespace

TEST_CASE("a generated H100 node in each configuration of the eight-H100 walkthrough gives the recorded allocatable",
          "[device_inventory]") {
  const Keys all_logical = logical("8", "80", "1024", "12800k", "102400", "655360", "800");
  Keys zero_whole{{"gpu", "0"}, {"shared", "0"}, {"sliced", "0"}};
  Keys all_logical_pt = all_logical;
  all_logical_pt["partitioned"] = "0";
  const Keys mixed = logical("5", "50", "640", "8M", "64k", "409600", "500");
  struct Row {
    const char* config;
    model::AcceleratorInventory inv;
    Keys want;
  };
  const std::vector<Row> table{
      {"1 all-logical", h100(), all_logical_pt},
      {"2 all-MIG", h100({mig({0, 1, 2, 3, 4, 5, 6, 7})}),
       with_partitions(zero_whole, "56", "12800k", {"56", "32", "24", "16", "8", "8"})},
      {"2 plus one 3g.40gb", h100({mig({0}, {"3g.40gb@0"}), mig({1, 2, 3, 4, 5, 6, 7})}),
       with_partitions(zero_whole, "53", "12800k", {"52", "30", "22", "16", "7", "7"})},
      {"3 mixed", h100({mig({0, 1, 2})}), with_partitions(mixed, "21", "4800k", {"21", "12", "9", "6", "3", "3"})},
      {"3 plus one 3g.40gb on GPU0 (first free slot)", h100({mig({0}, {"3g.40gb"}), mig({1, 2})}),
       with_partitions(mixed, "18", "4800k", {"17", "10", "7", "6", "2", "2"})},
  };
  for (const auto& row : table) {
    INFO("configuration " << row.config);
    const auto devices = model::make_devices("node-h100", row.inv);
    REQUIRE(devices.ok());
    CHECK(allocatable_after_stage3(devices.value(), h100_node(row.inv)) == row.want);
  }

  SECTION("4: flipping every card of configuration 2 back to logical gives configuration 1 again") {
    const auto inv = h100({mig({0, 1, 2, 3, 4, 5, 6, 7})});
    auto devices = model::make_devices("node-h100", inv);
    REQUIRE(devices.ok());
    REQUIRE(model::set_card_partitioning(devices.value(), {0, 1, 2, 3, 4, 5, 6, 7}, false).ok());
    CHECK(allocatable_after_stage3(devices.value(), h100_node(h100())) == all_logical_pt);
    const auto fresh = model::make_devices("node-h100", h100());
    CHECK(devices.value() == fresh.value());
  }
  SECTION("flipping cards 0-2 of configuration 1 to MIG gives configuration 3") {
    auto devices = model::make_devices("node-h100", h100());
    REQUIRE(devices.ok());
    REQUIRE(model::set_card_partitioning(devices.value(), {0, 1, 2}, true).ok());
    CHECK(allocatable_after_stage3(devices.value(), h100_node(h100())) ==
          with_partitions(mixed, "21", "4800k", {"21", "12", "9", "6", "3", "3"}));
    CHECK(devices.value() == model::make_devices("node-h100", h100({mig({0, 1, 2})})).value());
  }
}

TEST_CASE("a carved card is charged its VRAM share and publishes its placement counts", "[device_inventory]") {
  const auto devices = model::make_devices("n", h100({mig({0}, {"3g.40gb@4"})}));
  REQUIRE(devices.ok());
  const auto& row = devices->status.groups.at(0).accelerators.at(0);
  CHECK(row.mode == model::DeviceAllocationMode::kPartitioned);
  CHECK(row.allocated == 800000);
  CHECK(row.remaining == 800000);
  REQUIRE(row.allocated_profiles.size() == 1);
  CHECK(row.allocated_profiles[0].name == "3g.40gb");
  CHECK(row.instances.at(0).placement == model::AcceleratorPlacement{4, 4});
  // 3g.40gb at 4 leaves 1g.10gb starts 0..3 and 4g.40gb's only start 0 free.
  std::map<std::string, int32_t> remaining;
  for (const auto& p : row.remaining_profiles) remaining[p.name] = p.count;
  CHECK(remaining == std::map<std::string, int32_t>{{"1g.10gb", 4}, {"1g.20gb", 2}, {"2g.20gb", 2},
                                                     {"3g.40gb", 1}, {"4g.40gb", 1}, {"7g.80gb", 0}});
}

TEST_CASE("impossible inventories are refused with the reason", "[device_inventory]") {
  auto inv = [](auto edit) {
    auto i = h100();
    edit(i);
    return i;
  };
  const std::vector<std::pair<model::AcceleratorInventory, std::string>> table{
      {inv([](auto& i) { i.manufacturer = "acme"; }), "accelerators[0].manufacturer: unknown manufacturer 'acme'"},
      {inv([](auto& i) { i.count = 0; }), "accelerators[0].count: must be at least 1 (got 0)"},
      {inv([](auto& i) { i.product = "Acme 9000"; }),
       "accelerators[0].memory: required for product 'Acme 9000' (not in the built-in product table)"},
      {inv([](auto& i) { i.partitioning = {mig({8})}; }),
       "accelerators[0].partitioning[0].cards: card 8 is not on this node (cards 0..7)"},
      {inv([](auto& i) { i.partitioning = {mig({1}), mig({1})}; }),
       "accelerators[0].partitioning[1].cards: card 1 is given a mode twice"},
      {inv([](auto& i) { i.partitioning = {mig({0}, {"3g.41gb@0"})}; }),
       "accelerators[0] card 0: 'NVIDIA H100 80GB HBM3' offers no MIG profile '3g.41gb'"},
      {inv([](auto& i) { i.partitioning = {mig({0}, {"3g.40gb@0", "4g.40gb@0"})}; }), "overlap"},
      {inv([](auto& i) { i.partitioning = {{{0}, false, {"3g.40gb@0"}}}; }),
       "accelerators[0].partitioning[0].instances: only a card in mode mig holds partition instances"},
      {inv([](auto& i) {
         i.product = "NVIDIA A10G";
         i.count = 1;
         i.partitioning = {mig({0})};
       }),
       "accelerators[0].partitioning: 'NVIDIA A10G' has no MIG mode"},
  };
  for (const auto& [i, want] : table) {
    INFO(want);
    const auto got = model::make_devices("n", i);
    REQUIRE_FALSE(got.ok());
    CHECK_THAT(got.error(), Catch::Contains(want));
  }
}

TEST_CASE("a busy card's mode cannot be flipped but a free sibling's can", "[device_inventory]") {
  auto devices = model::make_devices("n", h100({mig({0}, {"1g.10gb@0"})}));
  REQUIRE(devices.ok());
  const auto before = devices.value();
  const auto refused = model::set_card_partitioning(devices.value(), {1, 0}, false);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error() == "card 0 is in use (mode Partitioned): the mode of a busy accelerator cannot be changed");
  CHECK(devices.value() == before);  // nothing half-applied
  CHECK_FALSE(model::set_card_partitioning(devices.value(), {9}, true).ok());
  REQUIRE(model::set_card_partitioning(devices.value(), {1}, true).ok());
  CHECK(devices->spec.groups[0].accelerators[1].status.physical_sliced.count == 7);
  CHECK(devices->spec.groups[0].accelerator_sliced_detail.physical.count == 14);
}

TEST_CASE("card ids are stable UUIDs that differ per node and index", "[device_inventory]") {
  CHECK(model::card_uuid("a", 0) == model::card_uuid("a", 0));
  CHECK(model::card_uuid("a", 0) != model::card_uuid("a", 1));
  CHECK(model::card_uuid("a", 1) != model::card_uuid("b", 1));
  CHECK(model::card_uuid("a", 0).size() == std::string("GPU-e0587d2e-0000-0000-0000-000000000000").size());
}

namespace {

// Card ids are the one thing a generator cannot know; everything else must match.
void forget_card_ids(model::Devices& d) {
  for (auto& g : d.spec.groups)
    for (auto& a : g.accelerators) a.id = std::to_string(a.index);
  for (auto& g : d.status.groups)
    for (auto& r : g.accelerators) r.id = std::to_string(r.index);
}

model::NodeSpec cpu_node(const char* name, const char* vendor, const char* family, const char* id,
                         const char* cpu_name, int64_t cores, int64_t memory_gi) {
  model::NodeSpec s;
  s.name = name;
  s.cpu_vendor = vendor;
  s.cpu_family = family;
  s.cpu_model = id;
  s.cpu_name = cpu_name;
  s.cpu = model::Quantity::from_int(cores);
  s.memory = model::Quantity::from_int_binary(memory_gi << 30);
  return s;
}

model::AcceleratorInventory nvidia(const char* product, int32_t count) {
  model::AcceleratorInventory inv;
  inv.manufacturer = "nvidia";
  inv.product = product;
  inv.count = count;
  return inv;
}

}  // namespace

TEST_CASE("a generated four-node cluster equals the four-node walkthrough objects in every field the chain reads",
          "[device_inventory]") {
  const auto objects =
      sim::load_kubernetes_objects(std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/walkthroughs/four-node-cluster.yaml");
  REQUIRE(objects.ok());
  const auto cluster = sim::read_cluster_objects(*objects, model::Settings{});
  REQUIRE(cluster.ok());

  std::vector<model::NodeSpec> specs{
      cpu_node("node-cpu", "AMD", "25", "1", "AMD EPYC 7R13 Processor", 16, 64),
      cpu_node("node-a10g", "AMD", "23", "49", "AMD EPYC 7R32", 4, 16),
      cpu_node("node-t4-a", "Intel", "6", "85", "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", 4, 16),
      cpu_node("node-t4-b", "Intel", "6", "85", "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz", 48, 192),
  };
  specs[1].accelerators = {nvidia("NVIDIA A10G", 1)};
  specs[2].accelerators = {nvidia("Tesla T4", 1)};
  specs[3].accelerators = {nvidia("Tesla T4", 4)};

  for (const auto& spec : specs) {
    INFO(spec.name);
    std::optional<model::Devices> devices;
    if (!spec.accelerators.empty()) {
      auto made = model::make_devices(spec.name, spec.accelerators);
      REQUIRE(made.ok());
      devices = *made;
    }
    const model::Node node = model::make_node(spec, devices ? &devices.value() : nullptr);
    const model::Node& want = cluster->nodes.at(spec.name);
    CHECK(node.metadata.labels == want.metadata.labels);
    CHECK(node.metadata.annotations == want.metadata.annotations);
    CHECK(node.status.capacity == want.status.capacity);
    CHECK(node.status.allocatable == want.status.allocatable);
    REQUIRE(devices.has_value() == (cluster->devices.count(spec.name) == 1));
    if (devices) {
      model::Devices got = devices.value(), expected = cluster->devices.at(spec.name);
      forget_card_ids(got);
      forget_card_ids(expected);
      CHECK(got.spec == expected.spec);
      CHECK(got.status == expected.status);
    }
  }
}

TEST_CASE("a freed ledger is the ledger of the same cards with nothing held", "[model][inventory]") {
  // Cards 0-1 in MIG mode, one carrying a live 3g.40gb; card 5 holding a logical slice.
  auto busy = model::make_devices("h100-0", h100({mig({0, 1}, {"3g.40gb@0"})}));
  auto idle = model::make_devices("h100-0", h100({mig({0, 1})}));
  REQUIRE(busy.ok());
  REQUIRE(idle.ok());
  auto& row = busy.value().status.groups.at(0).accelerators.at(5);
  row.mode = model::DeviceAllocationMode::kSliced;
  row.allocated = 800000;
  row.remaining = 800000;
  row.allocated_slices = 1;
  REQUIRE(busy.value() != idle.value());
  CHECK(model::with_free_ledger(busy.value()) == idle.value());
  CHECK(model::with_free_ledger(idle.value()) == idle.value());
}
