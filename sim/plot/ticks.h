// Axis ranges and tick marks for sim/plot/chart.cpp: "nice" ticks at multiples of a 1-2-5 step on a
// linear axis, decades (with 2 and 5 between them when few) on a log axis, and compact tick labels
// (1.5k, 0.25, 2e6). Pure functions, table-tested in tests/sim/plot/ticks_test.cpp.
#pragma once

#include <string>
#include <vector>

namespace chaintwin::sim::plot {

// The 1-2-5 step (1, 2, 5 times a power of ten) closest to `span / target`; 1 when that is not a
// positive finite number.
double nice_step(double span, int target);

// The multiples of nice_step(hi - lo, target) inside [lo, hi], rounded so 0.1 * 3 prints as 0.3.
// Empty when lo or hi is not finite or hi < lo; at most 200 values.
std::vector<double> nice_ticks(double lo, double hi, int target);

struct Axis {
  double lo = 0, hi = 1;       // the drawn range (log_y: the values, not their logarithms)
  std::vector<double> ticks;   // inside [lo, hi], increasing
  double step = 1;             // the linear step; for a log axis the label precision of each tick
  bool log = false;
};

// A linear axis over the data's [min, max]: padded by 4 % of the span on both sides (a zero span
// by 10 % of the value, or 1 around 0), with about `target` nice ticks.
Axis linear_axis(double min, double max, int target);

// A log axis over positive [min, max]: padded by 4 % of the span in decades (half a decade around a
// single value); ticks at decades, at 1-2-5 within a decade when the range spans two decades or
// less, and at every 2nd, 5th, 10th... decade when it spans more than twelve.
Axis log_axis(double min, double max);

// A compact tick label for `value` on an axis whose ticks are `step` apart: "0", "0.25", "15",
// "1.5k", "250k", "2e6", "2.5e-5", "-3". Trailing zeros are dropped.
std::string tick_label(double value, double step);

}  // namespace chaintwin::sim::plot
