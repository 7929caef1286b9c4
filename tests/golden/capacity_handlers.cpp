// Golden handlers for capacity-labels.json: node_capacity_test.go (counting keys, owned keys,
// merge patch, watch predicates, reconcile) and knowns_test.go (credit and slice conversions).
// Thin adapters: the simplified input schema becomes model::Node / model::Devices, the model
// computes, and the result is shaped like the case's `expected`.
#include <stdexcept>
#include <string>

#include "model/stage3/capacity_keys.h"
#include "model/credit_conversions.h"
#include "model/credits.h"
#include "model/api/devices.h"
#include "model/catalog/label_keys.h"
#include "model/api/node.h"
#include "model/stage3/sliced_detail.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;

namespace {

using chaintwin::golden::json;
namespace m = chaintwin::model;

m::Quantity quantity_of(const json& v) {
  if (v.is_number_integer()) return m::Quantity::from_int(v.get<int64_t>());
  const auto q = m::Quantity::parse(v.get<std::string>());
  if (!q) throw std::runtime_error(q.error());
  return *q;
}

json number_or_string(const m::Quantity& q) {
  if (const auto v = q.exact_int()) return *v;
  return q.to_string();
}

m::Quantity unwrap(const m::Result<m::Quantity>& r) {
  if (!r) throw std::runtime_error(r.error());
  return *r;
}

m::ResourceList resource_list_of(const json& obj) {
  m::ResourceList out;
  if (obj.is_object())
    for (const auto& [k, v] : obj.items()) out[k] = quantity_of(v);
  return out;
}

m::Node node_of(const json& in) {
  m::Node node;
  node.metadata.name = in.value("name", "");
  auto& labels = node.metadata.labels;
  if (in.value("managed", false)) labels[std::string(m::keys::kManaged)] = "true";
  for (const auto& model : in.value("models", json::array())) {
    const std::string key = std::string(m::keys::kAcceleratablePrefix) + model.at("aKey").get<std::string>();
    labels[key] = "true";
    if (model.contains("count")) labels[key + ".count"] = model.at("count").get<std::string>();
    if (model.contains("memory")) labels[key + ".memory"] = model.at("memory").get<std::string>();
  }
  const json extra = in.value("extraLabels", json::object());
  for (const auto& [k, v] : extra.items()) labels[k] = v.get<std::string>();
  node.status.capacity = resource_list_of(in.value("capacity", json::object()));
  return node;
}

std::vector<m::AcceleratorProfileCount> profile_counts_of(const json& obj) {
  std::vector<m::AcceleratorProfileCount> out;
  for (const auto& [name, count] : obj.items()) out.push_back({name, count.get<int32_t>()});
  return out;
}

m::Devices devices_of(const json& in) {
  m::Devices devs;
  for (const auto& g : in.value("groups", json::array())) {
    m::DevicesGroup group;
    group.manufacturer = g.at("manufacturer").get<std::string>();
    group.id = g.at("id").get<std::string>();
    group.memory = g.value("memoryMiB", uint64_t{0});
    uint32_t index = 0;
    for (const auto& a : g.value("accelerators", json::array())) {
      m::Accelerator acc;
      acc.id = a.at("id").get<std::string>();
      acc.index = index++;
      acc.status.logical_sliced.count = a.value("logicalCount", 0);
      acc.status.logical_sliced.cores_percentage_overcommit = a.value("overcommit", false);
      acc.status.physical_sliced.count = a.value("physicalCount", 0);
      for (const auto& p : profile_counts_of(a.value("profiles", json::object())))
        acc.status.physical_sliced.profiles.push_back({p.name, 0, 0, 0, p.count, {}});
      group.accelerators.push_back(std::move(acc));
    }
    m::set_group_sliced_detail(group);
    devs.spec.groups.push_back(std::move(group));
  }
  for (const auto& l : in.value("ledger", json::array())) {
    m::DevicesAllocationGroup row_group;
    row_group.manufacturer = l.at("manufacturer").get<std::string>();
    row_group.id = l.at("groupId").get<std::string>();
    for (const auto& a : l.value("accelerators", json::array())) {
      m::AcceleratorAllocation row;
      row.id = a.at("id").get<std::string>();
      row.allocated_profiles = profile_counts_of(a.value("allocatedProfiles", json::object()));
      row.remaining_profiles = profile_counts_of(a.value("remainingProfiles", json::object()));
      row_group.accelerators.push_back(std::move(row));
    }
    devs.status.groups.push_back(std::move(row_group));
  }
  return devs;
}

json capacity_json(const m::ResourceList& list) {
  json out = json::object();
  for (const auto& [k, q] : list) out[k] = number_or_string(q);
  return out;
}

json desired_capacity(const json& in, const json&) {
  const m::Node node = node_of(in.at("node"));
  const json& d = in.at("devices");
  const m::Devices devs = d.is_null() ? m::Devices{} : devices_of(d);
  return {{"capacity", capacity_json(m::desired_accelerator_capacity(node, d.is_null() ? nullptr : &devs))}};
}

json patch_json(const std::optional<m::CapacityPatch>& patch) {
  if (!patch) return nullptr;
  json out = json::object();
  for (const auto& [k, v] : *patch) out[k] = v ? json(*v) : json(nullptr);
  return out;
}

json reconcile(const json& in, const json& want) {
  const m::Node node = node_of(in.at("node"));
  const json& d = in.at("devices");
  const m::Devices devs = d.is_null() ? m::Devices{} : devices_of(d);
  const m::Devices* devs_ptr = d.is_null() ? nullptr : &devs;
  const auto first = m::reconcile_capacity(node, devs_ptr);
  const auto& after = first.node_after.status.capacity;
  json got = json::object();
  m::ResourceList owned;
  for (const auto& [k, q] : after)
    if (m::is_owned_capacity_key(k)) owned[k] = q;
  got["capacityAfterOwned"] = capacity_json(owned);
  got["secondReconcileWrites"] = m::reconcile_capacity(first.node_after, devs_ptr).patch.has_value();
  // The case names the keys it asks about; report which of those are gone.
  json absent = json::array();
  for (const auto& k : want.value("absentAfter", json::array()))
    if (after.find(k.get<std::string>()) == after.end()) absent.push_back(k);
  got["absentAfter"] = absent;
  if (const auto cpu = after.find("cpu"); cpu != after.end()) got["cpuUntouched"] = cpu->second.to_string();
  return got;
}

const char* kArea = "capacity-labels";

}  // namespace

// Also serves ...NewFormat and ...IgnoresPartitions (same function under test).
GOLDEN_HANDLER(Spec(kArea, "desiredAcceleratorCapacity").in({"node", "devices"}).out({"capacity"}), desired_capacity);
GOLDEN_HANDLER(Spec(kArea, "NodeCapacityReconciler").alias("reconcile").alias("NodeCapacityReconciler.Reconcile").in({"node", "devices"}).out({"capacityAfterOwned", "secondReconcileWrites", "absentAfter", "cpuUntouched"}), reconcile);

GOLDEN_HANDLER(Spec(kArea, "partitionInstancesByProfile").setup("every group of a Devices, by manufacturer and group id").in({"groups", "ledger"}).out({"partitionInstancesByProfile"}), [](const json& in, const json&) -> json {
  json out = json::object();
  for (const auto& [key, counts] : m::partition_instances_by_group(devices_of(in))) {
    json c = json::object();
    for (const auto& [name, n] : counts) c[name] = n;
    out[key] = c;
  }
  return {{"partitionInstancesByProfile", out}};
});

GOLDEN_HANDLER(Spec(kArea, "isOwnedCapacityKey").in({"resourceName"}).out({"owned"}), [](const json& in, const json&) -> json {
  return {{"owned", m::is_owned_capacity_key(in.at("resourceName").get<std::string>())}};
});

GOLDEN_HANDLER(Spec(kArea, "buildAcceleratorCapacityPatch").in({"desired", "currentCapacity"}).out({"statusCapacityMergePatch"}), [](const json& in, const json&) -> json {
  const auto patch = m::build_accelerator_capacity_patch(resource_list_of(in.at("desired")),
                                                         resource_list_of(in.at("currentCapacity")));
  return {{"statusCapacityMergePatch", patch_json(patch)}};
});

GOLDEN_HANDLER(Spec(kArea, "acceleratorFamilyCapacityChanged").in({"oldCapacity", "newCapacity"}).out({"changed"}), [](const json& in, const json&) -> json {
  return {{"changed", m::accelerator_family_capacity_changed(resource_list_of(in.at("oldCapacity")),
                                                             resource_list_of(in.at("newCapacity")))}};
});

GOLDEN_HANDLER(Spec(kArea, "acceleratorDetailChanged").in({"old", "new"}).out({"fires"}), [](const json& in, const json&) -> json {
  const m::Devices old_devs = devices_of(in.at("old"));
  const m::Devices new_devs = devices_of(in.at("new"));
  return {{"fires", m::accelerator_detail_changed(&old_devs, &new_devs)}};
});

GOLDEN_HANDLER(Spec(kArea, "AcceleratorsToCredits").alias("CardsToCredits").in({"accelerators"}).out({"credits"}), [](const json& in, const json&) -> json {
  return {{"credits", unwrap(m::accelerators_to_credits(quantity_of(in.at("accelerators")))).to_string()}};
});

GOLDEN_HANDLER(Spec(kArea, "CreditsToAccelerators").alias("CreditsToCards").in({"credits"}).out({"accelerators"}), [](const json& in, const json&) -> json {
  return {{"accelerators", unwrap(m::credits_to_accelerators(quantity_of(in.at("credits")))).to_string()}};
});

GOLDEN_HANDLER(Spec(kArea, "QuantityToSliceCount").in({"quantity", "sliced"}).out({"result"}), [](const json& in, const json&) -> json {
  const auto q = quantity_of(in.at("quantity"));
  return {{"result", unwrap(m::quantity_to_slice_count(q, in.at("sliced").get<int64_t>())).to_string()}};
});

GOLDEN_HANDLER(Spec(kArea, "QuantityToAlignedValue").in({"quantity", "sliced"}).out({"result"}), [](const json& in, const json&) -> json {
  const auto q = quantity_of(in.at("quantity"));
  return {{"result", unwrap(m::quantity_to_aligned_value(q, in.at("sliced").get<int64_t>())).to_string()}};
});

GOLDEN_HANDLER(Spec(kArea, "QuantityToOriginalValue").in({"quantity", "sliced"}).out({"result"}), [](const json& in, const json&) -> json {
  const auto q = quantity_of(in.at("quantity"));
  return {{"result", unwrap(m::quantity_to_original_value(q, in.at("sliced").get<int64_t>())).to_string()}};
});

GOLDEN_HANDLER(Spec(kArea, "IsValidSlicedPartitions").in({"n"}).out({"valid"}), [](const json& in, const json&) -> json {
  return {{"valid", m::is_valid_sliced_partitions(in.at("n").get<int64_t>())}};
});

// The internal steps of desiredAcceleratorCapacity (node_capacity.go), each on its own.

static json profile_counts_json(const std::vector<m::AcceleratorProfileCount>& counts) {
  json out = json::object();
  for (const auto& p : counts) out[p.name] = p.count;
  return out;
}

// A group as the Devices input schema has it ({manufacturer, id, accelerators}).
GOLDEN_HANDLER(Spec(kArea, "acceleratorCards").in({"group"}).out({"logical", "logicalSlices", "partitioned"}), [](const json& in, const json&) -> json {
  const m::Devices devs = devices_of(json{{"groups", json::array({in.at("group")})}});
  const m::AcceleratorCards cards = m::accelerator_cards(devs.spec.groups.at(0));
  return {{"logical", cards.logical}, {"logicalSlices", cards.logical_slices}, {"partitioned", cards.partitioned}};
});

// `devices`: a Devices ({groups, ledger}) or null. Each row shows the profiles it holds.
GOLDEN_HANDLER(Spec(kArea, "devicesLedgerByGroup").in({"devices"}).out({"ledgerByGroup"}), [](const json& in, const json&) -> json {
  const json& d = in.at("devices");
  const m::Devices devs = d.is_null() ? m::Devices{} : devices_of(d);
  json out = json::object();
  for (const auto& [key, rows] : m::devices_ledger_by_group(d.is_null() ? nullptr : &devs)) {
    json by_id = json::object();
    for (const auto& [id, row] : rows)
      by_id[id] = {{"allocatedProfiles", profile_counts_json(row->allocated_profiles)},
                   {"remainingProfiles", profile_counts_json(row->remaining_profiles)}};
    out[key] = by_id;
  }
  return {{"ledgerByGroup", out}};
});

// `allocatable` is accepted so a case can show the gate never reads it.
GOLDEN_HANDLER(Spec(kArea, "poolAdvertised").in({"manufacturer", "mode", "capacity"}).opt({"allocatable"}).out({"advertised"}), [](const json& in, const json&) -> json {
  const auto mode = m::parse_allocation_mode(in.at("mode").get<std::string>());
  if (!mode) throw std::runtime_error("unknown allocation mode");
  m::Node node;
  node.status.capacity = resource_list_of(in.at("capacity"));
  node.status.allocatable = resource_list_of(in.value("allocatable", json::object()));
  return {{"advertised", m::pool_advertised(node, in.at("manufacturer").get<std::string>(), *mode)}};
});

GOLDEN_HANDLER(Spec(kArea, "acceleratableCardMemoryMib").in({"labels", "nodeKey"}).out({"memoryMib"}), [](const json& in, const json&) -> json {
  m::Node node;
  for (const auto& [k, v] : in.at("labels").items()) node.metadata.labels[k] = v.get<std::string>();
  return {{"memoryMib", m::acceleratable_card_memory_mib(node, in.at("nodeKey").get<std::string>())}};
});

GOLDEN_HANDLER(Spec(kArea, "hasAcceleratorSuffix").in({"resourceName", "suffixes"}).out({"hasSuffix"}), [](const json& in, const json&) -> json {
  const auto owned = in.at("suffixes").get<std::vector<std::string>>();
  const std::vector<std::string_view> suffixes(owned.begin(), owned.end());
  return {{"hasSuffix", m::has_accelerator_suffix(in.at("resourceName").get<std::string>(), suffixes)}};
});

// `devices`: a Devices ({groups, ledger}) or null; one signature per "<manufacturer>-<group id>".
GOLDEN_HANDLER(Spec(kArea, "acceleratorSignatures").in({"devices"}).out({"signatures"}), [](const json& in, const json&) -> json {
  const json& d = in.at("devices");
  const m::Devices devs = d.is_null() ? m::Devices{} : devices_of(d);
  json out = json::object();
  for (const auto& [key, sig] : m::accelerator_signatures(d.is_null() ? nullptr : &devs))
    out[key] = {{"logicalCards", sig.logical_accelerators},
                {"partitionedCards", sig.partitioned_accelerators},
                {"logicalCount", sig.logical_count},
                {"logicalOvercommit", sig.logical_overcommit},
                {"partitionProfiles", sig.partition_profiles}};
  return {{"signatures", out}};
});

// The constant M; with a `divisor`, M's quotient and remainder by it (what slice sizes and
// shares divide it evenly).
GOLDEN_HANDLER(Spec(kArea, "ResourceMaxUnits").opt({"divisor"}).out({"value", "quotient", "remainder"}), [](const json& in, const json&) -> json {
  json out = {{"value", m::kUnitsPerAccelerator}};
  if (in.contains("divisor")) {
    const auto d = in.at("divisor").get<int64_t>();
    if (d <= 0) throw std::runtime_error("divisor must be positive");
    out["quotient"] = m::kUnitsPerAccelerator / d;
    out["remainder"] = m::kUnitsPerAccelerator % d;
  }
  return out;
});
