// The colours the GUI gives each accelerator family and each ClusterQueue stop policy, so a
// family or a policy reads the same in every panel. RGBA, 8 bits per channel.
#pragma once

#include <cstdint>
#include <string_view>

namespace chaintwin::viz {

struct Rgba {
  uint8_t r, g, b, a;
  bool operator==(const Rgba&) const = default;
};

enum class Family { kExclusive, kShared, kSliced, kPartitioned, kCpu };
enum class StopPolicy { kNone, kHold, kHoldAndDrain };

Rgba family_colour(Family f);
Rgba stop_policy_colour(StopPolicy p);
std::string_view family_label(Family f);  // "EX", "SH", "SL", "PT", "CPU"

}  // namespace chaintwin::viz
