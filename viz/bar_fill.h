// What a pool's quota bar shows, as fractions of the bar's width: the reserved quota, the admitted
// part of it, and the pending demand drawn after it. The bar's full width is the nominal quota;
// whatever passes it is clipped and flagged, never drawn past the end.
#pragma once

#include <cstdint>

namespace chaintwin::viz {

struct BarFill {
  double reserved = 0;  // [0, 1]
  double admitted = 0;  // [0, reserved]
  double pending = 0;   // [0, 1 − reserved]: the demand still waiting, after the reserved part
  bool over = false;    // reserved (or reserved + pending) passes the nominal quota
  bool operator==(const BarFill&) const = default;
};

BarFill bar_fill(int64_t nominal, int64_t reserved, int64_t admitted, int64_t pending);

}  // namespace chaintwin::viz
