// Resource names per manufacturer (pkg/nodefeature/knowns.go): the device-plugin pools, the
// worker's counting keys, the visibility resource and Kueue's credits resource.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace chaintwin::model {

// The resource family a name belongs to.
enum class ResourceFamily { kNone, kExclusive, kShared, kSliced, kPartitioned, kVisibility };
std::string_view to_string(ResourceFamily f);  // "none", "exclusive", ...

// Suffixes under a manufacturer's resource base.
inline constexpr std::string_view kSharedSuffix = ".shared";
inline constexpr std::string_view kSlicedSuffix = ".sliced";
inline constexpr std::string_view kSlicedUnitsSuffix = ".sliced.units";
inline constexpr std::string_view kSlicedCoresPercentageSuffix = ".sliced.cores-percentage";
inline constexpr std::string_view kSlicedMemoryPercentageSuffix = ".sliced.memory-percentage";
inline constexpr std::string_view kSlicedMemoryMibSuffix = ".sliced.memory-mib";
inline constexpr std::string_view kPartitionedSuffix = ".partitioned";
inline constexpr std::string_view kPartitionedUnitsSuffix = ".partitioned.units";

// All names for one manufacturer; the partitioned ones are empty when it has no partition kind.
struct ManufacturerResourceNames {
  std::string exclusive, shared, sliced, sliced_units, sliced_cores_percentage,
      sliced_memory_percentage, sliced_memory_mib;
  std::string partitioned, partitioned_units, partitioned_profile_prefix;  // prefix: "<base>.partitioned.<kind>-"
  std::string visibility, credits;
};

// Null for an unknown manufacturer. The names are built once per known manufacturer and live for
// the whole process (the table is read-only after its first use).
const ManufacturerResourceNames* resource_names_for(std::string_view manufacturer);

// credits.gpustack.ai/<manufacturer>
std::string credits_resource_name(std::string_view manufacturer);
// device.gpustack.ai/<manufacturer>.visibility
std::string visibility_resource_name(std::string_view manufacturer);

}  // namespace chaintwin::model
