// The manufacturer table: every accelerator vendor the operator knows, with its Kubernetes
// resource base, partition kind, logical-slice count and compute-overcommit rule.
// Used by the capacity keys, the credits resource and the profile-name rules.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace chaintwin::model {

struct ManufacturerInfo {
  std::string_view name;             // the manufacturer key, e.g. "nvidia"
  std::string_view pci_vendor;       // e.g. "10de"
  std::string_view resource_base;    // e.g. "nvidia.com/gpu"
  std::string_view partition_kind;   // "mig" for partitioning manufacturers, "" otherwise
  int slices_per_accelerator;        // logical slices per card (0 = not in the operator's table)
  bool cores_overcommit;             // compute is time-shared, so cores% may be overcommitted
  bool separatorless_profiles;       // writes partition geometry without a '.' (T-Head: 4g48gb)
};

// All known manufacturers, sorted by name.
std::span<const ManufacturerInfo> known_manufacturers();

// The entry for a manufacturer key (exact, lower-case), or nullopt when unknown.
std::optional<ManufacturerInfo> find_manufacturer(std::string_view name);

// The manufacturer whose resource base is `base` (e.g. "nvidia.com/gpu"), if any.
std::optional<ManufacturerInfo> manufacturer_by_resource_base(std::string_view base);

}  // namespace chaintwin::model
