#include "viz/family_palette.h"

namespace chaintwin::viz {

Rgba family_colour(Family f) {
  switch (f) {
    case Family::kExclusive: return {0x3b, 0x82, 0xf6, 0xff};   // blue
    case Family::kShared: return {0x14, 0xb8, 0xa6, 0xff};      // teal
    case Family::kSliced: return {0xf5, 0x9e, 0x0b, 0xff};      // amber
    case Family::kPartitioned: return {0xa8, 0x55, 0xf7, 0xff}; // violet
    case Family::kCpu: return {0x9c, 0xa3, 0xaf, 0xff};         // grey
  }
  return {0xff, 0xff, 0xff, 0xff};
}

Rgba stop_policy_colour(StopPolicy p) {
  switch (p) {
    case StopPolicy::kNone: return {0x22, 0xc5, 0x5e, 0xff};          // green
    case StopPolicy::kHold: return {0xea, 0xb3, 0x08, 0xff};          // yellow
    case StopPolicy::kHoldAndDrain: return {0xef, 0x44, 0x44, 0xff};  // red
  }
  return {0xff, 0xff, 0xff, 0xff};
}

std::string_view family_label(Family f) {
  switch (f) {
    case Family::kExclusive: return "EX";
    case Family::kShared: return "SH";
    case Family::kSliced: return "SL";
    case Family::kPartitioned: return "PT";
    case Family::kCpu: return "CPU";
  }
  return "?";
}

}  // namespace chaintwin::viz
