// The value axis of the Credits-over-time charts: how a quantity maps to a height. Four scales:
// the nominal quota's (reserved against the quota, the whole quota in view), fitted to the reserved
// quota (small use of a large pool fills the chart; the quota line may leave it), logarithmic in
// cards or cores (small and large use both readable), and percent of the nominal quota at each
// instant. Pure, table-tested in tests/viz/value_scale_test.cpp.
#pragma once

#include <string>
#include <vector>

namespace chaintwin::viz {

enum class ValueScale { kNominal, kFitted, kLog, kPercentOfNominal };

// "nominal", "fitted", "log", "% of nominal".
const char* value_scale_name(ValueScale scale);

struct ValueTick {
  double value = 0;   // in the axis' units (the resource's Kueue units; percent for kPercentOfNominal)
  std::string label;  // "2.00 cards", "10 cards", "50 %"
  bool operator==(const ValueTick&) const = default;
};

struct ValueAxis {
  ValueScale scale = ValueScale::kNominal;
  double top = 1;   // the value drawn at the top
  double unit = 1;  // kLog: one card or one core in the resource's units
  // The height of `value` as a fraction of the chart's: 0 at the bottom, 1 at `top`; values above
  // the top are held at 1 (the caller says so).
  double fraction(double value) const;
  std::vector<ValueTick> ticks;  // the labelled values, bottom to top
};

// The axis for a chart of `used` (reserved) against `nominal`, both sampled over the window, of
// `resource` ("credits.gpustack.ai/...", "cpu"). For kPercentOfNominal pass the percent series
// (percent_of_nominal) as `used` and leave `nominal` empty.
ValueAxis value_axis(ValueScale scale, const std::vector<float>& nominal, const std::vector<float>& used,
                     const std::string& resource);

// used ÷ nominal × 100 at each sample; 0 where the nominal quota is 0.
std::vector<float> percent_of_nominal(const std::vector<float>& used, const std::vector<float>& nominal);

}  // namespace chaintwin::viz
