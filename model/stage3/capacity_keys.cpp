// Capacity counting keys: desiredAcceleratorCapacity, the owned-key rules, the merge patch, the
// watch predicates and one reconcile pass, as node_capacity.go has them.
#include "model/stage3/capacity_keys.h"

#include <array>

#include "model/credits.h"
#include "model/stage3/fit_labels.h"
#include "model/catalog/label_keys.h"
#include "model/catalog/manufacturer.h"
#include "model/stage3/node_keys.h"
#include "model/normalize_name.h"
#include "model/stage3/population.h"
#include "model/catalog/profile_names.h"
#include "model/stage3/resource_classify.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {
namespace {

constexpr std::array<std::string_view, 5> kOwnedSuffixes{
    kSlicedUnitsSuffix, kSlicedCoresPercentageSuffix, kSlicedMemoryPercentageSuffix, kSlicedMemoryMibSuffix,
    kPartitionedUnitsSuffix};

// Spec groups by "<manufacturer>-<id>"; a later duplicate wins, as in a Go map.
std::map<std::string, const DevicesGroup*> groups_by_key(const Devices& devices) {
  std::map<std::string, const DevicesGroup*> out;
  for (const auto& g : devices.spec.groups) out[accelerator_key(g.manufacturer, g.id)] = &g;
  return out;
}

// The group's ledger rows, or none when Devices.status has no such group.
const AcceleratorLedger& rows_of(const std::map<std::string, AcceleratorLedger>& ledger, const std::string& key) {
  static const AcceleratorLedger kNone;
  const auto it = ledger.find(key);
  return it == ledger.end() ? kNone : it->second;
}

struct Tally {
  int64_t units = 0, cores = 0, memory_percentage = 0, memory_mib = 0;
  bool has_logical = false;
  int64_t partitioned_units = 0;
  ProfileCounts profiles;
};

void note(std::vector<std::string>* notes, std::string line) {
  if (notes != nullptr) notes->push_back(std::move(line));
}

ResourceList plan(const Node& node, const Devices* devices, std::vector<std::string>* notes) {
  if (!is_managed(node.metadata)) {
    note(notes, "node is not labelled gpustack.ai/managed=true: it advertises no counting key");
    return {};
  }
  if (devices == nullptr) note(notes, "no Devices record: no slicing or partitioning capability is known yet");
  const auto groups = devices ? groups_by_key(*devices) : std::map<std::string, const DevicesGroup*>{};
  const auto ledger = devices_ledger_by_group(devices);

  std::map<std::string, Tally> tallies;  // by manufacturer
  for (const auto& a_key : extract_acceleratable_node_keys(node)) {
    const auto g = groups.find(a_key);
    if (g == groups.end()) {
      if (devices != nullptr) note(notes, "model " + a_key + ": no Devices group " + a_key + ", skipped");
      continue;
    }
    const DevicesGroup& group = *g->second;
    const AcceleratorCards pop = accelerator_cards(group);
    if (pop.logical == 0 && pop.partitioned == 0) {
      note(notes, "model " + a_key + ": no accelerator can be sliced or partitioned, contributes nothing");
      continue;
    }
    note(notes, "model " + a_key + ": " + std::to_string(pop.logical) + " logically sliceable (" +
                    std::to_string(pop.logical_slices) + " slices), " + std::to_string(pop.partitioned) +
                    " partitioned");
    Tally& t = tallies[a_key.substr(0, a_key.find('-'))];
    if (pop.logical > 0) {
      t.has_logical = true;
      t.units += pop.logical * kUnitsPerAccelerator;
      t.cores += group.accelerator_sliced_detail.logical.cores_percentage_overcommit ? pop.logical_slices * 100
                                                                                     : pop.logical * 100;
      t.memory_percentage += pop.logical * 100;
      t.memory_mib += pop.logical * acceleratable_card_memory_mib(node, std::string(keys::kAcceleratablePrefix) + a_key);
    }
    if (pop.partitioned > 0) {
      t.partitioned_units += pop.partitioned * kUnitsPerAccelerator;
      for (const auto& [name, count] : partition_instances_by_profile(group, rows_of(ledger, a_key)))
        t.profiles[name] += count;
    }
  }

  ResourceList out;
  for (const auto& [manufacturer, t] : tallies) {
    const auto names = resource_names_for(manufacturer);
    if (!names) continue;
    if (t.has_logical) {
      if (pool_advertised(node, manufacturer, DeviceAllocationMode::kSliced)) {
        out[names->sliced_units] = Quantity::from_int(t.units);
        out[names->sliced_cores_percentage] = Quantity::from_int(t.cores);
        out[names->sliced_memory_percentage] = Quantity::from_int(t.memory_percentage);
        out[names->sliced_memory_mib] = Quantity::from_int(t.memory_mib);
      } else {
        note(notes, manufacturer + ": .sliced keys withheld: " + names->sliced + " is absent or 0 in capacity");
      }
    }
    if (t.partitioned_units == 0) continue;
    if (!pool_advertised(node, manufacturer, DeviceAllocationMode::kPartitioned)) {
      note(notes, manufacturer + ": .partitioned keys withheld: " +
                      (names->partitioned.empty() ? "the manufacturer has no partition kind"
                                                  : names->partitioned + " is absent or 0 in capacity"));
      continue;
    }
    out[names->partitioned_units] = Quantity::from_int(t.partitioned_units);
    for (const auto& [profile, count] : t.profiles) {
      const std::string key = partitioned_profile_resource_name(manufacturer, profile);
      if (key.empty()) {
        note(notes, manufacturer + ": partition profile '" + profile + "' skipped: not a valid resource name");
        continue;
      }
      out[key] = Quantity::from_int(count);
    }
  }
  return out;
}

std::string show_patch_value(const std::optional<std::string>& v) { return v ? *v : "null"; }

}  // namespace

bool capacity_reads_ledger(const Devices& devices) {
  for (const auto& g : devices.spec.groups)
    for (const auto& a : g.accelerators)
      if (is_partitioned(a.status)) return true;
  return false;
}

ResourceList desired_accelerator_capacity(const Node& node, const Devices* devices) {
  return plan(node, devices, nullptr);
}

AcceleratorCards accelerator_cards(const DevicesGroup& group) {
  AcceleratorCards c;
  for (const auto& a : group.accelerators) {
    if (is_partitioned(a.status)) {
      ++c.partitioned;
    } else if (is_logically_sliceable(a.status)) {
      ++c.logical;
      c.logical_slices += a.status.logical_sliced.count;
    }
  }
  return c;
}

std::map<std::string, AcceleratorLedger> devices_ledger_by_group(const Devices* devices) {
  std::map<std::string, AcceleratorLedger> out;
  if (devices == nullptr) return out;
  for (const auto& g : devices->status.groups) {
    AcceleratorLedger rows;
    for (const auto& row : g.accelerators) rows[row.id] = &row;
    out[accelerator_key(g.manufacturer, g.id)] = std::move(rows);
  }
  return out;
}

bool pool_advertised(const Node& node, std::string_view manufacturer, DeviceAllocationMode mode) {
  const std::string pool = get_acceleratable_resource_name(manufacturer, mode);
  if (pool.empty()) return false;
  const auto it = node.status.capacity.find(pool);
  return it != node.status.capacity.end() && it->second.sign() > 0;
}

int64_t acceleratable_card_memory_mib(const Node& node, std::string_view node_key) {
  const auto it = node.metadata.labels.find(std::string(node_key) + ".memory");
  if (it == node.metadata.labels.end()) return 0;
  const auto q = Quantity::parse(it->second);
  if (!q) return 0;
  return q->value_ceil() / (int64_t{1} << 20);
}

bool has_accelerator_suffix(std::string_view resource_name, std::span<const std::string_view> suffixes) {
  for (const auto suffix : suffixes)
    if (resource_name.ends_with(suffix) &&
        is_known_acceleratable_resource_name(resource_name.substr(0, resource_name.size() - suffix.size())))
      return true;
  return false;
}

ProfileCounts partition_instances_by_profile(const DevicesGroup& group, const DevicesAllocationGroup* ledger) {
  AcceleratorLedger rows;
  if (ledger != nullptr)
    for (const auto& row : ledger->accelerators) rows[row.id] = &row;
  return partition_instances_by_profile(group, rows);
}

ProfileCounts partition_instances_by_profile(const DevicesGroup& group, const AcceleratorLedger& rows) {
  ProfileCounts out;
  for (const auto& a : group.accelerators) {
    if (!is_partitioned(a.status)) continue;
    const auto row = rows.find(a.id);
    const AcceleratorAllocation* alloc = row == rows.end() ? nullptr : row->second;
    const bool ready = partition_ledger_ready(alloc);
    for (const auto& p : a.status.physical_sliced.profiles) out[p.name] += ready ? 0 : p.count;
    if (!ready) continue;
    for (const auto& p : alloc->allocated_profiles) out[p.name] += p.count;
    for (const auto& p : alloc->remaining_profiles) out[p.name] += p.count;
  }
  return out;
}

std::map<std::string, ProfileCounts> partition_instances_by_group(const Devices& devices) {
  const auto ledger = devices_ledger_by_group(&devices);
  std::map<std::string, ProfileCounts> out;
  for (const auto& [key, group] : groups_by_key(devices)) {
    out[key] = partition_instances_by_profile(*group, rows_of(ledger, key));
  }
  return out;
}

bool is_owned_capacity_key(std::string_view resource_name) {
  if (partitioned_profile_of(resource_name)) return true;
  return has_accelerator_suffix(resource_name, kOwnedSuffixes);
}

bool is_accelerator_family_capacity_key(std::string_view resource_name) {
  static constexpr std::array<std::string_view, 2> kPools{kSlicedSuffix, kPartitionedSuffix};
  return is_owned_capacity_key(resource_name) || has_accelerator_suffix(resource_name, kPools);
}

std::optional<CapacityPatch> build_accelerator_capacity_patch(const ResourceList& desired,
                                                             const ResourceList& current) {
  CapacityPatch patch;
  for (const auto& [name, q] : desired) {
    const auto cur = current.find(name);
    if (cur == current.end() || !(cur->second == q)) patch[name] = q.to_string();
  }
  for (const auto& [name, q] : current) {
    (void)q;
    if (is_owned_capacity_key(name) && desired.find(name) == desired.end()) patch[name] = std::nullopt;
  }
  if (patch.empty()) return std::nullopt;
  return patch;
}

Result<ResourceList> apply_capacity_patch(const ResourceList& capacity, const CapacityPatch& patch) {
  ResourceList out = capacity;
  for (const auto& [name, value] : patch) {
    if (!value) {
      out.erase(name);
      continue;
    }
    auto q = Quantity::parse(*value);
    if (!q) return err("capacity patch for " + name + ": " + q.error());
    out[name] = *q;
  }
  return out;
}

bool accelerator_family_capacity_changed(const ResourceList& old_capacity, const ResourceList& new_capacity) {
  for (const auto& [name, q] : new_capacity) {
    if (!is_accelerator_family_capacity_key(name)) continue;
    const auto old = old_capacity.find(name);
    if (old == old_capacity.end() || !(old->second == q)) return true;
  }
  for (const auto& [name, q] : old_capacity) {
    (void)q;
    if (is_accelerator_family_capacity_key(name) && new_capacity.find(name) == new_capacity.end()) return true;
  }
  return false;
}

std::map<std::string, AcceleratorSignature> accelerator_signatures(const Devices* devices) {
  std::map<std::string, AcceleratorSignature> out;
  if (devices == nullptr) return out;
  const auto ledger = devices_ledger_by_group(devices);
  for (const auto& [key, group] : groups_by_key(*devices)) {
    const AcceleratorCards pop = accelerator_cards(*group);
    AcceleratorSignature sig;
    sig.logical_accelerators = pop.logical;
    sig.partitioned_accelerators = pop.partitioned;
    sig.logical_count = group->accelerator_sliced_detail.logical.count;
    sig.logical_overcommit = group->accelerator_sliced_detail.logical.cores_percentage_overcommit;
    // std::map iterates in name order, so "name=count" entries come out sorted.
    for (const auto& [name, count] : partition_instances_by_profile(*group, rows_of(ledger, key))) {
      if (!sig.partition_profiles.empty()) sig.partition_profiles += ';';
      sig.partition_profiles += name + "=" + std::to_string(count);
    }
    out[key] = std::move(sig);
  }
  return out;
}

bool accelerator_detail_changed(const Devices* old_devices, const Devices* new_devices) {
  return accelerator_signatures(old_devices) != accelerator_signatures(new_devices);
}

CapacityDecision reconcile_capacity(const Node& node, const Devices* devices) {
  CapacityDecision d;
  d.node_after = node;
  if (node.metadata.deletion_timestamp) {
    d.reasons.push_back("node " + node.metadata.name + " is being deleted: skipped");
    return d;
  }
  d.desired = plan(node, devices, &d.reasons);
  d.patch = build_accelerator_capacity_patch(d.desired, node.status.capacity);
  if (!d.patch) {
    d.reasons.push_back("status.capacity already matches: no write");
    return d;
  }
  for (const auto& [name, value] : *d.patch) {
    const auto cur = node.status.capacity.find(name);
    const std::string was = cur == node.status.capacity.end() ? "absent" : cur->second.to_string();
    d.reasons.push_back((value ? "set " : "remove ") + name + " (" + was + " -> " + show_patch_value(value) + ")");
  }
  // Every patch value is a canonical quantity string, so applying it cannot fail.
  d.node_after.status.capacity = *apply_capacity_patch(node.status.capacity, *d.patch);
  return d;
}

}  // namespace chaintwin::model
