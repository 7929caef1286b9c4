// InstanceTypeFlavor catalog (instance_type_flavor.go OnList, instanceTypeFlavorSpec,
// instanceTypeFlavorName, lessInstanceTypeFlavorMemory).
#include "model/stage4/instance_type_flavor.h"

#include <algorithm>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage3/pool_identity.h"
#include "model/api/quantity.h"

namespace chaintwin::model {
namespace {

std::string get(const StringMap& m, const std::string& key) {
  const auto it = m.find(key);
  return it == m.end() ? std::string() : it->second;
}

StringMap notes_of(const ObjectMeta& meta) {
  StringMap notes;
  const std::string prefix(keys::kNotePrefix);
  for (const auto& [k, v] : meta.annotations)
    if (k.compare(0, prefix.size(), prefix) == 0) notes[k.substr(prefix.size())] = v;
  return notes;
}

bool is_operator_flavor(const ResourceFlavor& rf) { return get(rf.metadata.labels, std::string(keys::kResourceType)) == "nodes"; }

bool memory_less(const std::string& a, const std::string& b) {
  const auto qa = Quantity::parse(a);
  const auto qb = Quantity::parse(b);
  if (qa.ok() && qb.ok()) return *qa < *qb;
  return a < b;
}

std::string flavor_name(const InstanceTypeFlavorSpec& spec, bool aware) {
  NodeFlavor f;
  f.acceleratable = spec.acceleratable;
  f.accelerator_key = spec.accelerator_group;
  f.general_key = spec.general_group;
  return instance_type_flavor_name(f, aware);
}

}  // namespace

InstanceTypeFlavorSpec instance_type_flavor_spec(const StringMap& notes, bool aware) {
  InstanceTypeFlavorSpec spec;
  if (get(notes, "acceleratable") != "true") {
    if (aware) {
      spec.general_group = get(notes, "generalGroup");
      spec.manufacturer = get(notes, "manufacturer");
      spec.product = get(notes, "product");
      spec.family = get(notes, "family");
    } else {
      spec.general_group = std::string(kGeneralManufacturerGeneric);
      spec.manufacturer = std::string(kGeneralManufacturerGeneric);
    }
    return spec;
  }
  spec.acceleratable = true;
  spec.accelerator_group = get(notes, "acceleratorGroup");
  spec.manufacturer = get(notes, "manufacturer");
  spec.product = get(notes, "product");
  spec.family = get(notes, "family");
  spec.memory = get(notes, "memory");
  spec.cores = get(notes, "cores");
  spec.sliceable = get(notes, "sliceable") == "true";
  if (aware) spec.general_group = get(notes, "generalGroup");
  return spec;
}

std::vector<InstanceTypeFlavor> instance_type_flavor_catalog(const std::map<std::string, ResourceFlavor>& flavors,
                                                             bool aware) {
  std::vector<InstanceTypeFlavor> rows;
  for (const auto& [name, rf] : flavors) {
    if (!is_operator_flavor(rf) || rf.metadata.deletion_timestamp) continue;
    auto spec = instance_type_flavor_spec(notes_of(rf.metadata), aware);
    if (spec.general_group.empty() && spec.accelerator_group.empty()) continue;  // no pool identity
    const bool seen = std::any_of(rows.begin(), rows.end(), [&](const InstanceTypeFlavor& r) { return r.spec == spec; });
    if (seen) continue;
    InstanceTypeFlavor row;
    row.metadata.name = flavor_name(spec, aware);
    row.spec = std::move(spec);
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const InstanceTypeFlavor& x, const InstanceTypeFlavor& y) {
    const auto& a = x.spec;
    const auto& b = y.spec;
    if (a.manufacturer != b.manufacturer) return a.manufacturer < b.manufacturer;
    if (a.product != b.product) return a.product < b.product;
    if (a.memory != b.memory) return memory_less(a.memory, b.memory);
    if (a.general_group != b.general_group) return a.general_group < b.general_group;
    return a.accelerator_group < b.accelerator_group;
  });
  return rows;
}

}  // namespace chaintwin::model
