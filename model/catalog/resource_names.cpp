#include "model/catalog/resource_names.h"

#include "model/catalog/label_keys.h"
#include "model/catalog/manufacturer.h"

#include <vector>

namespace chaintwin::model {

std::string_view to_string(ResourceFamily f) {
  switch (f) {
    case ResourceFamily::kExclusive: return "exclusive";
    case ResourceFamily::kShared: return "shared";
    case ResourceFamily::kSliced: return "sliced";
    case ResourceFamily::kPartitioned: return "partitioned";
    case ResourceFamily::kVisibility: return "visibility";
    case ResourceFamily::kNone: break;
  }
  return "none";
}

std::string credits_resource_name(std::string_view manufacturer) {
  return std::string(keys::kCreditsPrefix) + std::string(manufacturer);
}

std::string visibility_resource_name(std::string_view manufacturer) {
  return std::string(keys::kVisibilityPrefix) + std::string(manufacturer) + ".visibility";
}

namespace {

ManufacturerResourceNames build_names(const ManufacturerInfo& m) {
  const std::string base(m.resource_base);
  ManufacturerResourceNames n;
  n.exclusive = base;
  n.shared = base + std::string(kSharedSuffix);
  n.sliced = base + std::string(kSlicedSuffix);
  n.sliced_units = base + std::string(kSlicedUnitsSuffix);
  n.sliced_cores_percentage = base + std::string(kSlicedCoresPercentageSuffix);
  n.sliced_memory_percentage = base + std::string(kSlicedMemoryPercentageSuffix);
  n.sliced_memory_mib = base + std::string(kSlicedMemoryMibSuffix);
  if (!m.partition_kind.empty()) {
    n.partitioned = base + std::string(kPartitionedSuffix);
    n.partitioned_units = base + std::string(kPartitionedUnitsSuffix);
    n.partitioned_profile_prefix = n.partitioned + "." + std::string(m.partition_kind) + "-";
  }
  n.visibility = visibility_resource_name(m.name);
  n.credits = credits_resource_name(m.name);
  return n;
}

}  // namespace

const ManufacturerResourceNames* resource_names_for(std::string_view manufacturer) {
  // In known_manufacturers() order; built on first use (thread-safe), read-only after.
  static const std::vector<ManufacturerResourceNames> table = [] {
    std::vector<ManufacturerResourceNames> out;
    for (const auto& m : known_manufacturers()) out.push_back(build_names(m));
    return out;
  }();
  const auto known = known_manufacturers();
  for (std::size_t i = 0; i < known.size(); ++i)
    if (known[i].name == manufacturer) return &table[i];
  return nullptr;
}

}  // namespace chaintwin::model
