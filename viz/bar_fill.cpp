#include "viz/bar_fill.h"

#include <algorithm>

namespace chaintwin::viz {

BarFill bar_fill(int64_t nominal, int64_t reserved, int64_t admitted, int64_t pending) {
  BarFill out;
  reserved = std::max<int64_t>(0, reserved);
  admitted = std::clamp<int64_t>(admitted, 0, reserved);
  pending = std::max<int64_t>(0, pending);
  if (nominal <= 0) {
    // No quota at all: anything reserved or waiting overflows a zero-width pool.
    out.over = reserved > 0 || pending > 0;
    out.reserved = reserved > 0 ? 1.0 : 0.0;
    out.admitted = admitted > 0 ? 1.0 : 0.0;
    out.pending = reserved == 0 && pending > 0 ? 1.0 : 0.0;
    return out;
  }
  const double n = static_cast<double>(nominal);
  out.reserved = std::min(1.0, static_cast<double>(reserved) / n);
  out.admitted = std::min(out.reserved, static_cast<double>(admitted) / n);
  out.pending = std::min(1.0 - out.reserved, static_cast<double>(pending) / n);
  out.over = reserved + pending > nominal;
  return out;
}

}  // namespace chaintwin::viz
