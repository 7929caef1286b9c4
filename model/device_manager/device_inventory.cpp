#include "model/device_manager/device_inventory.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/credits.h"
#include "model/fnv.h"
#include "model/catalog/label_keys.h"
#include "model/catalog/manufacturer.h"
#include "model/catalog/mig_catalog.h"
#include "model/stage3/node_keys.h"
#include "model/normalize_name.h"
#include "model/catalog/partition_geometry.h"
#include "model/stage3/population.h"
#include "model/stage3/reject_divergent_group_profiles.h"
#include "model/catalog/resource_names.h"
#include "model/stage3/sliced_detail.h"

namespace chaintwin::model {
namespace {

struct ProductRow {
  const char* manufacturer;
  const char* product_key;  // normalize_name(product, manufacturer) of the product
  ProductFacts facts;
};

// A few products with the facts their detectors report (operator walkthroughs and vendor sheets).
const std::vector<ProductRow>& product_rows() {
  static const std::vector<ProductRow> rows{
      {"nvidia", "h100-80gb-hbm3", {81920, 81559, 16896, "Hopper", "9.0"}},
      {"nvidia", "a10g", {24576, 23028, 10240, "Ampere", "8.6"}},
      {"nvidia", "tesla-t4", {16384, 15360, 2560, "Turing", "7.5"}},
      {"nvidia", "a100-sxm4-80gb", {81920, 81920, 6912, "Ampere", "8.0"}},
      {"nvidia", "a100-sxm4-40gb", {40960, 40960, 6912, "Ampere", "8.0"}},
      {"nvidia", "l4", {24576, 23034, 7424, "Ada Lovelace", "8.9"}},
      {"nvidia", "l40s", {49152, 46068, 18176, "Ada Lovelace", "8.9"}},
  };
  return rows;
}

std::string hex32(uint64_t a, uint64_t b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const uint64_t v : {a, b})
    for (int shift = 60; shift >= 0; shift -= 4) out.push_back(kDigits[(v >> shift) & 0xfU]);
  return out;
}

AcceleratorStatus logical_status(const ManufacturerInfo& m) {
  AcceleratorStatus s;
  s.logical_sliced.count = m.slices_per_accelerator;
  s.logical_sliced.cores_percentage_overcommit = m.cores_overcommit && m.slices_per_accelerator > 0;
  return s;
}

AcceleratorAllocation free_row(const Accelerator& card) {
  AcceleratorAllocation row;
  row.id = card.id;
  row.index = card.index;
  row.remaining = static_cast<int32_t>(kUnitsPerAccelerator);
  return row;
}

// The ledger row of a MIG card holding `live`: published counts in vendor spelling, each live
// instance charged its VRAM share of M (a partition costs what a slice of the same VRAM costs).
Result<AcceleratorAllocation> partition_row(const Accelerator& card, const std::string& manufacturer,
                                            const std::vector<LiveInstance>& live, int64_t card_memory_mib) {
  const PartitionGeometry geometry = geometry_from_capability(manufacturer, card.status.physical_sliced);
  auto view = card_partition_view(geometry, live);
  if (!view) return err(view.error());
  AcceleratorAllocation row = free_row(card);
  for (const auto& p : view->profiles) {
    if (!p.offered) continue;
    if (p.allocated > 0) row.allocated_profiles.push_back({p.profile, p.allocated});
    row.remaining_profiles.push_back({p.profile, p.remaining});
  }
  int64_t charged = 0;
  for (const auto& inst : live) {
    const GeometryProfile* gp = geometry.find(inst.profile);
    int64_t mib = 0;
    for (const auto& cp : card.status.physical_sliced.profiles)
      if (gp != nullptr && cp.name == gp->name) mib = cp.memory_mib;
    charged += card_memory_mib > 0 ? std::min(kUnitsPerAccelerator, mib * kUnitsPerAccelerator / card_memory_mib) : 0;
    row.instances.push_back({gp != nullptr ? gp->name : inst.profile, {inst.start, gp != nullptr ? gp->size : 0}});
  }
  charged = std::min(charged, kUnitsPerAccelerator);
  if (!live.empty()) row.mode = DeviceAllocationMode::kPartitioned;
  row.allocated = static_cast<int32_t>(charged);
  row.remaining = static_cast<int32_t>(kUnitsPerAccelerator - charged);
  return row;
}

std::string card_name(size_t inv, int32_t card) {
  return "accelerators[" + std::to_string(inv) + "] card " + std::to_string(card);
}

}  // namespace

std::optional<ProductFacts> known_product(const std::string& manufacturer, const std::string& product) {
  const std::string key = normalize_name(product, manufacturer, 0, false);
  for (const auto& row : product_rows())
    if (manufacturer == row.manufacturer && key == row.product_key) return row.facts;
  return std::nullopt;
}

std::string card_uuid(const std::string& node, uint32_t index) {
  const std::string idx = std::to_string(index);
  const uint64_t a = fnv1a64_update(kFnv64OffsetBasis, node + "/" + idx);
  const uint64_t b = fnv1a64_update(a, "card");
  const std::string h = hex32(a, b);
  return "GPU-" + h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" +
         h.substr(20, 12);
}

Result<Devices> make_devices(const std::string& node, const AcceleratorInventory& inv) {
  return make_devices(node, std::vector<AcceleratorInventory>{inv});
}

Result<Devices> make_devices(const std::string& node, const std::vector<AcceleratorInventory>& invs) {
  Devices devices;
  devices.metadata.name = node;
  uint32_t next_index = 0;
  std::set<std::string> group_ids;
  for (size_t i = 0; i < invs.size(); ++i) {
    const AcceleratorInventory& inv = invs[i];
    const std::string where = "accelerators[" + std::to_string(i) + "]";
    const auto manu = find_manufacturer(inv.manufacturer);
    if (!manu) {
      std::string known;
      for (const auto& m : known_manufacturers()) known += (known.empty() ? "" : ", ") + std::string(m.name);
      return err(where + ".manufacturer: unknown manufacturer '" + inv.manufacturer + "' (known: " + known + ")");
    }
    if (inv.product.empty()) return err(where + ".product: must name the accelerator product");
    if (inv.count < 1) return err(where + ".count: must be at least 1 (got " + std::to_string(inv.count) + ")");
    const auto facts = known_product(inv.manufacturer, inv.product);
    const int64_t memory = inv.memory_mib > 0 ? inv.memory_mib : (facts ? facts->memory_mib : 0);
    if (memory <= 0)
      return err(where + ".memory: required for product '" + inv.product + "' (not in the built-in product table)");
    const int64_t reported = inv.reported_memory_mib > 0 ? inv.reported_memory_mib
                             : (inv.memory_mib <= 0 && facts) ? facts->reported_memory_mib
                                                              : memory;

    DevicesGroup group;
    group.id = construct_group_id(inv.manufacturer, inv.product);
    if (!group_ids.insert(group.id).second)
      return err(where + ".product: a second group '" + group.id + "' on the same node (merge the counts)");
    group.manufacturer = inv.manufacturer;
    group.name = inv.product;
    group.memory = static_cast<uint64_t>(reported);
    group.cores = inv.cores > 0 ? inv.cores : (facts ? facts->cores : 0);
    group.family = !inv.family.empty() ? inv.family : (facts ? facts->family : "");
    group.compute_capability = !inv.compute_capability.empty() ? inv.compute_capability
                                                               : (facts ? facts->compute_capability : "");

    // Which cards are MIG, with what carved.
    std::map<int32_t, const CardPartitioning*> mode_of;
    for (size_t p = 0; p < inv.partitioning.size(); ++p) {
      const auto& part = inv.partitioning[p];
      const std::string pwhere = where + ".partitioning[" + std::to_string(p) + "]";
      if (!part.mig && !part.instances.empty())
        return err(pwhere + ".instances: only a card in mode mig holds partition instances");
      for (const int32_t c : part.cards) {
        if (c < 0 || c >= inv.count)
          return err(pwhere + ".cards: card " + std::to_string(c) + " is not on this node (cards 0.." +
                     std::to_string(inv.count - 1) + ")");
        if (!mode_of.emplace(c, &part).second)
          return err(pwhere + ".cards: card " + std::to_string(c) + " is given a mode twice");
      }
    }
    const CatalogModel* catalog = nullptr;
    const bool any_mig = std::any_of(mode_of.begin(), mode_of.end(), [](const auto& e) { return e.second->mig; });
    if (any_mig) {
      catalog = find_catalog_model(inv.product);
      if (catalog == nullptr || catalog->vendor != inv.manufacturer)
        return err(where + ".partitioning: '" + inv.product + "' has no MIG mode (no partition catalog entry)");
    }

    DevicesAllocationGroup ledger;
    ledger.id = group.id;
    ledger.manufacturer = inv.manufacturer;
    for (int32_t c = 0; c < inv.count; ++c) {
      Accelerator card;
      card.index = next_index++;
      card.id = card_uuid(node, card.index);
      const auto it = mode_of.find(c);
      const bool mig = it != mode_of.end() && it->second->mig;
      card.status = mig ? catalog_accelerator_status(*catalog) : logical_status(*manu);
      if (!mig) {
        ledger.accelerators.push_back(free_row(card));
      } else {
        const PartitionGeometry geometry = geometry_from_capability(inv.manufacturer, card.status.physical_sliced);
        std::vector<LiveInstance> live;
        for (const auto& spec : it->second->instances) {
          LiveInstance inst;
          if (spec.find('@') != std::string::npos) {
            auto parsed = parse_live_instance(spec);
            if (!parsed) return err(card_name(i, c) + ": " + parsed.error());
            inst = *parsed;
          } else {
            inst.profile = spec;
            auto start = choose_start(geometry, live, spec);
            if (!start) return err(card_name(i, c) + ": " + start.error());
            inst.start = *start;
          }
          if (geometry.find(inst.profile) == nullptr)
            return err(card_name(i, c) + ": '" + inv.product + "' offers no MIG profile '" + inst.profile +
                       "' (known: " + catalog->profile_names() + ")");
          live.push_back(inst);
          if (const auto ok = validate_instances(geometry, live); !ok) return err(card_name(i, c) + ": " + ok.error());
        }
        auto row = partition_row(card, inv.manufacturer, live, memory);
        if (!row) return err(card_name(i, c) + ": " + row.error());
        ledger.accelerators.push_back(std::move(*row));
      }
      group.accelerators.push_back(std::move(card));
    }
    // As the T-Head and Hygon detectors do before aggregating: withhold any profile name the
    // group's cards expose differently. Every MIG card of one inventory gets the same catalog
    // capability, so nothing diverges here and the ledger rows above stay in step; the call keeps
    // the detection path in the operator's order should per-card capability ever differ.
    (void)reject_divergent_group_profiles(group);
    set_group_sliced_detail(group);
    devices.spec.groups.push_back(std::move(group));
    devices.status.groups.push_back(std::move(ledger));
  }
  return devices;
}

Status set_card_partitioning(Devices& devices, const std::vector<int32_t>& cards, bool mig) {
  // Check every card first, so a refusal changes nothing.
  struct Target {
    DevicesGroup* group;
    Accelerator* card;
    AcceleratorAllocation* row;
  };
  std::vector<Target> targets;
  for (const int32_t c : cards) {
    Target t{nullptr, nullptr, nullptr};
    for (auto& g : devices.spec.groups)
      for (auto& a : g.accelerators)
        if (c >= 0 && a.index == static_cast<uint32_t>(c)) t = {&g, &a, nullptr};
    if (t.card == nullptr)
      return err("card " + std::to_string(c) + ": Devices/" + devices.metadata.name + " has no accelerator index " +
                 std::to_string(c));
    for (auto& g : devices.status.groups)
      for (auto& r : g.accelerators)
        if (r.id == t.card->id) t.row = &r;
    if (is_partitioned(t.card->status) == mig) continue;  // already in that mode
    if (t.row != nullptr && (t.row->allocated > 0 || t.row->allocated_slices > 0 || !t.row->instances.empty() ||
                             t.row->mode != DeviceAllocationMode::kNone))
      return err("card " + std::to_string(c) + " is in use (mode " + std::string(to_string(t.row->mode)) +
                 "): the mode of a busy accelerator cannot be changed");
    if (mig) {
      const CatalogModel* catalog = find_catalog_model(t.group->name);
      if (catalog == nullptr || catalog->vendor != t.group->manufacturer)
        return err("card " + std::to_string(c) + ": '" + t.group->name + "' has no MIG mode");
    } else if (!find_manufacturer(t.group->manufacturer)) {
      return err("card " + std::to_string(c) + ": unknown manufacturer '" + t.group->manufacturer + "'");
    }
    targets.push_back(t);
  }
  for (const auto& t : targets) {
    if (mig) {
      t.card->status = catalog_accelerator_status(*find_catalog_model(t.group->name));
    } else {
      t.card->status = logical_status(*find_manufacturer(t.group->manufacturer));
    }
    if (t.row == nullptr) continue;
    if (mig) {
      auto row = partition_row(*t.card, t.group->manufacturer, {}, static_cast<int64_t>(t.group->memory));
      if (row) *t.row = std::move(*row);
    } else {
      *t.row = free_row(*t.card);
    }
    set_group_sliced_detail(*t.group);
  }
  return Ok{};
}

Devices with_free_ledger(Devices devices) {
  for (auto& ledger : devices.status.groups)
    for (auto& row : ledger.accelerators)
      for (const auto& group : devices.spec.groups)
        for (const auto& card : group.accelerators) {
          if (card.id != row.id) continue;
          if (!is_partitioned(card.status)) {
            row = free_row(card);
          } else if (auto fresh = partition_row(card, group.manufacturer, {}, static_cast<int64_t>(group.memory))) {
            row = std::move(*fresh);
          }
        }
  return devices;
}

ResourceList device_plugin_capacity(const Devices& devices) {
  struct Pools {
    int64_t whole = 0, sliced = 0, partitioned = 0, visible = 0;
    bool can_partition = false, can_slice = false;
  };
  std::map<std::string, Pools> by_manufacturer;
  for (const auto& group : devices.spec.groups) {
    const auto manu = find_manufacturer(group.manufacturer);
    if (!manu) continue;
    Pools& pools = by_manufacturer[group.manufacturer];
    pools.can_slice = pools.can_slice || manu->slices_per_accelerator > 0;
    const CatalogModel* catalog = find_catalog_model(group.name);
    pools.can_partition = pools.can_partition || (catalog != nullptr && catalog->vendor == group.manufacturer);
    for (const auto& card : group.accelerators) {
      pools.visible += 1;
      if (is_partitioned(card.status)) {
        pools.can_partition = true;
        const AcceleratorAllocation* row = nullptr;
        for (const auto& g : devices.status.groups)
          for (const auto& r : g.accelerators)
            if (r.id == card.id) row = &r;
        const PartitionGeometry geometry = geometry_from_capability(group.manufacturer, card.status.physical_sliced);
        const auto view = card_view_from_ledger(geometry, row);
        pools.partitioned += view ? view->pool_contribution() : static_ceiling_view(geometry).pool_contribution();
        continue;
      }
      if (card.status.unhealthy) continue;
      pools.whole += 1;
      pools.sliced += std::max(0, card.status.logical_sliced.count);
    }
  }
  ResourceList out;
  for (const auto& [manufacturer, pools] : by_manufacturer) {
    const auto names = resource_names_for(manufacturer);
    if (!names) continue;
    out[names->exclusive] = Quantity::from_int(pools.whole);
    out[names->shared] = Quantity::from_int(pools.whole * kSharesPerAccelerator);
    if (pools.can_slice) out[names->sliced] = Quantity::from_int(pools.sliced);
    if (pools.can_partition && !names->partitioned.empty())
      out[names->partitioned] = Quantity::from_int(pools.partitioned);
    out[names->visibility] = Quantity::from_int(pools.visible);
  }
  return out;
}

Node make_node(const NodeSpec& spec, const Devices* devices) {
  Node node;
  node.metadata.name = spec.name;
  node.unschedulable = spec.unschedulable;
  StringMap& labels = node.metadata.labels;
  labels[std::string(keys::kOs)] = spec.os;
  labels[std::string(keys::kArch)] = spec.arch;
  labels[std::string(keys::kHostname)] = spec.name;
  if (!spec.cpu_vendor.empty()) labels[std::string(keys::kCpuVendorLabel)] = spec.cpu_vendor;
  if (!spec.cpu_family.empty()) labels[std::string(keys::kCpuFamilyLabel)] = spec.cpu_family;
  if (!spec.cpu_model.empty()) labels[std::string(keys::kCpuIdLabel)] = spec.cpu_model;
  if (!spec.cpu_name.empty()) node.metadata.annotations[std::string(keys::kCpuNameAnnotation)] = spec.cpu_name;

  const bool accelerated = devices != nullptr &&
                           std::any_of(devices->spec.groups.begin(), devices->spec.groups.end(),
                                       [](const DevicesGroup& g) { return !g.accelerators.empty(); });
  if (accelerated) {
    for (const auto& [k, v] : construct_acceleratable_node_labels(devices->spec.groups)) labels[k] = v;
    // The `.memory` label carries the product's nominal VRAM (the walkthroughs' 24Gi for an A10G
    // that reports 23028 MiB), not the reported MiB.
    for (const auto& inv : spec.accelerators) {
      const auto facts = known_product(inv.manufacturer, inv.product);
      const int64_t nominal = inv.memory_mib > 0 ? inv.memory_mib : (facts ? facts->memory_mib : 0);
      if (nominal <= 0) continue;
      const std::string a_key = accelerator_key(inv.manufacturer, construct_group_id(inv.manufacturer, inv.product));
      labels[std::string(keys::kAcceleratablePrefix) + a_key + ".memory"] =
          format_binary_si_mib(static_cast<uint64_t>(nominal));
    }
  } else {
    labels[std::string(keys::kAcceleratable)] = "false";  // NFD's non-accelerated marker
  }
  for (const auto& [k, v] : spec.labels) labels[k] = v;
  for (const auto& [k, v] : spec.annotations) node.metadata.annotations[k] = v;

  ResourceList capacity{{"cpu", spec.cpu}, {"memory", spec.memory}, {"pods", spec.pods}};
  if (devices != nullptr)
    for (const auto& [k, q] : device_plugin_capacity(*devices)) capacity[k] = q;
  node.status.capacity = capacity;
  node.status.allocatable = capacity;
  return node;
}

}  // namespace chaintwin::model
