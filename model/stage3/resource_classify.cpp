// Resource-name classification (pkg/nodefeature/knowns.go ResourceFamilyOf and friends).
#include "model/stage3/resource_classify.h"

#include <array>
#include <functional>
#include <string>
#include <unordered_map>

#include "model/catalog/label_keys.h"
#include "model/catalog/manufacturer.h"
#include "model/catalog/profile_names.h"

namespace chaintwin::model {
namespace {

constexpr std::string_view kVisibilitySuffix = ".visibility";

struct FixedSuffix {
  std::string_view suffix;
  ResourceFamily family;
};

// A name matches at most one of these with a known base in front, so the order is immaterial.
constexpr std::array<FixedSuffix, 8> kFixedSuffixes{{
    {kSlicedMemoryPercentageSuffix, ResourceFamily::kSliced},
    {kSlicedCoresPercentageSuffix, ResourceFamily::kSliced},
    {kSlicedMemoryMibSuffix, ResourceFamily::kSliced},
    {kPartitionedUnitsSuffix, ResourceFamily::kPartitioned},
    {kSlicedUnitsSuffix, ResourceFamily::kSliced},
    {kPartitionedSuffix, ResourceFamily::kPartitioned},
    {kSlicedSuffix, ResourceFamily::kSliced},
    {kSharedSuffix, ResourceFamily::kShared},
}};

bool is_known_base(std::string_view base) { return manufacturer_by_resource_base(base).has_value(); }

// ResourceFamilyOf as the operator spells it out; resource_family_of() answers from a table built
// with it.
ResourceFamily classify_by_rules(std::string_view name) {
  if (name.substr(0, keys::kVisibilityPrefix.size()) == keys::kVisibilityPrefix) {
    std::string_view rest = name.substr(keys::kVisibilityPrefix.size());
    if (rest.size() >= kVisibilitySuffix.size() &&
        rest.substr(rest.size() - kVisibilitySuffix.size()) == kVisibilitySuffix) {
      rest.remove_suffix(kVisibilitySuffix.size());
      if (find_manufacturer(rest)) return ResourceFamily::kVisibility;
    }
    return ResourceFamily::kNone;
  }
  if (partitioned_profile_of(name)) return ResourceFamily::kPartitioned;
  for (const auto& e : kFixedSuffixes) {
    if (name.size() < e.suffix.size() || name.substr(name.size() - e.suffix.size()) != e.suffix) continue;
    if (is_known_base(name.substr(0, name.size() - e.suffix.size()))) return e.family;
  }
  return is_known_base(name) ? ResourceFamily::kExclusive : ResourceFamily::kNone;
}

// Every name the rules give a family without a free tail: each known base bare and behind each
// fixed suffix, and each manufacturer's visibility name, with the family the rules give it. Any
// other name is partitioned when it is a per-profile key and of no family otherwise: a visibility
// name is in the table, and so is every known base with or without a fixed suffix.
struct NameHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using FixedNames = std::unordered_map<std::string, ResourceClass, NameHash, std::equal_to<>>;

const FixedNames& fixed_names() {
  static const FixedNames table = [] {
    FixedNames out;
    // The manufacturer of a name of the four accelerator families is the one whose base it
    // extends; a visibility name names one too, but is of no accelerator family.
    auto add = [&](std::string name, const ManufacturerInfo* base_of) {
      const ResourceFamily family = classify_by_rules(name);
      const bool accelerator = family != ResourceFamily::kNone && family != ResourceFamily::kVisibility;
      ClaimRole role = ClaimRole::kOther;
      if (const ManufacturerResourceNames* n = accelerator ? resource_names_for(base_of->name) : nullptr) {
        if (name == n->exclusive || name == n->shared || name == n->sliced || name == n->partitioned)
          role = ClaimRole::kCount;
        else if (name == n->sliced_units || name == n->partitioned_units)
          role = ClaimRole::kUnits;
      }
      out.emplace(std::move(name), ResourceClass{family, accelerator ? base_of : nullptr, role});
    };
    for (const auto& m : known_manufacturers()) {
      add(std::string(m.resource_base), &m);
      for (const auto& e : kFixedSuffixes) add(std::string(m.resource_base) + std::string(e.suffix), &m);
      add(std::string(keys::kVisibilityPrefix) + std::string(m.name) + std::string(kVisibilitySuffix), nullptr);
    }
    return out;
  }();
  return table;
}

}  // namespace

ResourceClass resource_class_of(std::string_view name) {
  // Every name of a family holds a '/' (each base, the visibility and the per-profile prefixes
  // do): "cpu", "memory" and the like end here.
  if (name.find('/') == std::string_view::npos) return {};
  const auto& table = fixed_names();
  if (const auto it = table.find(name); it != table.end()) return it->second;
  const auto parsed = partitioned_profile_of(name);
  if (!parsed) return {};
  for (const auto& m : known_manufacturers())
    if (m.name == parsed->manufacturer) return {ResourceFamily::kPartitioned, &m};
  return {ResourceFamily::kPartitioned, nullptr};  // cannot happen: the prefixes are the table's
}

ResourceFamily resource_family_of(std::string_view name) { return resource_class_of(name).family; }

ResourceFamily resource_family_by_rules(std::string_view name) { return classify_by_rules(name); }

bool is_known_acceleratable_resource_name(std::string_view name) {
  switch (resource_family_of(name)) {
    case ResourceFamily::kExclusive:
    case ResourceFamily::kShared:
    case ResourceFamily::kSliced:
    case ResourceFamily::kPartitioned:
      return true;
    case ResourceFamily::kVisibility:
    case ResourceFamily::kNone:
      break;
  }
  return false;
}

bool is_acceleratable_credits_resource_name(std::string_view name) {
  if (name.substr(0, keys::kCreditsPrefix.size()) != keys::kCreditsPrefix) return false;
  return find_manufacturer(name.substr(keys::kCreditsPrefix.size())).has_value();
}

std::string get_acceleratable_resource_name(std::string_view manufacturer, DeviceAllocationMode mode) {
  const auto m = find_manufacturer(manufacturer);
  const std::string base = m ? std::string(m->resource_base) : std::string();
  switch (mode) {
    case DeviceAllocationMode::kShared: return base + std::string(kSharedSuffix);
    case DeviceAllocationMode::kSliced: return base + std::string(kSlicedSuffix);
    case DeviceAllocationMode::kPartitioned:
      if (!m || m->partition_kind.empty()) return "";
      return base + std::string(kPartitionedSuffix);
    case DeviceAllocationMode::kVisibility: return visibility_resource_name(manufacturer);
    case DeviceAllocationMode::kNone:
    case DeviceAllocationMode::kExclusive:
      break;
  }
  return base;
}

}  // namespace chaintwin::model
