// Resource-name classification (pkg/nodefeature/knowns.go ResourceFamilyOf and friends).
#include "model/stage3/resource_classify.h"

#include <array>

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

}  // namespace

ResourceFamily resource_family_of(std::string_view name) {
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
