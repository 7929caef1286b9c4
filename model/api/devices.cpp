// DeviceAllocationMode names, as the operator's String() renders them.
#include "model/api/devices.h"

namespace chaintwin::model {

std::string_view to_string(DeviceAllocationMode mode) {
  switch (mode) {
    case DeviceAllocationMode::kExclusive: return "Exclusive";
    case DeviceAllocationMode::kShared: return "Shared";
    case DeviceAllocationMode::kSliced: return "Sliced";
    case DeviceAllocationMode::kPartitioned: return "Partitioned";
    case DeviceAllocationMode::kVisibility: return "Visibility";
    case DeviceAllocationMode::kNone: break;
  }
  return "None";
}

DeviceAllocationMode allocation_mode_from_number(uint32_t value) {
  if (value > 5) return DeviceAllocationMode::kNone;
  return static_cast<DeviceAllocationMode>(value);
}

std::optional<DeviceAllocationMode> parse_allocation_mode(std::string_view text) {
  for (uint32_t v = 0; v <= 5; ++v) {
    const auto mode = static_cast<DeviceAllocationMode>(v);
    if (to_string(mode) == text) return mode;
  }
  if (!text.empty() && text.size() <= 9) {
    uint32_t v = 0;
    for (char c : text) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + static_cast<uint32_t>(c - '0');
    }
    return allocation_mode_from_number(v);
  }
  return std::nullopt;
}

}  // namespace chaintwin::model
