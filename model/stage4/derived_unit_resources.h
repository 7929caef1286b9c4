// Derived unit spec (derivedUnitResources, derivedLocalStorage and the display-name rule of
// authorDerivedInstanceType in the operator's node_flavor.go): the creation-time unit CPU/RAM,
// local storage and display name of an InstanceType the operator authors from a pool.
// Called by derived_instance_type.h.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "model/api/instance_type.h"
#include "model/stage3/node_keys.h"
#include "model/catalog/unit_presets.h"

namespace chaintwin::model {

inline constexpr std::string_view kDerivedLocalStorage = "100Gi";  // never preset per product
inline constexpr std::string_view kCpuOnlyDisplayName = "CPU-only";
inline constexpr std::size_t kDisplayNameMaxRunes = 64;
inline constexpr std::string_view kNonAcceleratedUnitCpu = "1";
inline constexpr std::string_view kNonAcceleratedUnitRam = "2Gi";

struct DerivedUnitSpec {
  InstanceTypeUnitResources unit_resources;
  std::string local_storage;
  std::string display_name;
  std::string reason;  // which rule sized the unit, e.g. "preset tier large (nvidia-a100-80gb)"
  bool operator==(const DerivedUnitSpec&) const = default;
};

// Non-accelerated: 1 CPU / 2Gi. Accelerated: one whole card, sized by the preset for the flavor's
// manufacturer and product (fallback 4 / 16Gi).
InstanceTypeUnitResources derived_unit_resources(const NodeFlavor& flavor,
                                                 const PresetTable& table = shipped_preset_table());

// The flavor's product, or "CPU-only" for the collapsed generic pool (not accelerated and CPU
// manufacturer awareness off), cut to 64 runes.
std::string derived_display_name(const NodeFlavor& flavor, bool cpu_aware);

// Everything above at once, with the reason.
DerivedUnitSpec derived_unit_spec(const NodeFlavor& flavor, bool cpu_aware,
                                  const PresetTable& table = shipped_preset_table());

// The first `max_runes` UTF-8 code points of `text` (a byte that starts no valid sequence counts
// as one rune).
std::string truncate_runes(std::string_view text, std::size_t max_runes);

}  // namespace chaintwin::model
