// A pool's step samples turned into what the credits chart draws: evenly spaced values over a
// time window (each sample holds until the next, as the run record defines), and the stretches
// of the window during which the queue was held or drained, to shade.
#pragma once

#include <cstdint>
#include <vector>

#include "viz/snapshot.h"

namespace chaintwin::viz {

enum class SeriesField { kNominal, kUsed, kAdmitted, kPendingWorkloads };

// `n` values at t0 + i·(t1 − t0)/(n − 1): the sample in force at each instant (0 before the first).
std::vector<float> sample_steps(const std::vector<SeriesPoint>& points, SeriesField field, int64_t t0, int64_t t1,
                                int n);

struct Shade {
  double x0 = 0, x1 = 0;  // [0, 1] of the window
  StopPolicy stop_policy = StopPolicy::kHold;
  bool operator==(const Shade&) const = default;
};

// The stretches of [t0, t1] during which the stop policy was not None, as fractions of that
// window, clipped to it; a stretch still held at the last sample ends at `until` (now: nothing is
// known after it) or at t1, whichever comes first.
std::vector<Shade> held_shades(const std::vector<SeriesPoint>& points, int64_t t0, int64_t t1,
                               int64_t until = INT64_MAX);

}  // namespace chaintwin::viz
