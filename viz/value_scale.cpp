#include "viz/value_scale.h"

#include <algorithm>
#include <cmath>

#include "viz/units_text.h"

namespace chaintwin::viz {
namespace {

float max_of(const std::vector<float>& v) { return v.empty() ? 0.0f : *std::max_element(v.begin(), v.end()); }

// One card (credits) or one core (cpu, in millicores) in the resource's Kueue units.
double unit_of(const std::string& resource) {
  if (resource == "cpu") return 1000;
  if (resource.rfind("credits.", 0) == 0) return static_cast<double>(kCreditsPerCard);
  return 1;
}

std::string unit_label(const std::string& resource, double units) {
  const std::string n = std::to_string(static_cast<long long>(std::llround(units)));
  if (resource == "cpu") return n + (units == 1 ? " core" : " cores");
  if (resource.rfind("credits.", 0) == 0) return n + (units == 1 ? " card" : " cards");
  return n;
}

}  // namespace

const char* value_scale_name(ValueScale scale) {
  switch (scale) {
    case ValueScale::kNominal: return "nominal";
    case ValueScale::kFitted: return "fitted";
    case ValueScale::kLog: return "log";
    case ValueScale::kPercentOfNominal: return "% of nominal";
  }
  return "?";
}

double ValueAxis::fraction(double value) const {
  if (top <= 0) return 0;
  double f = 0;
  if (scale == ValueScale::kLog) f = std::log10(1 + std::max(0.0, value) / unit) / std::log10(1 + top / unit);
  else f = value / top;
  return std::clamp(f, 0.0, 1.0);
}

ValueAxis value_axis(ValueScale scale, const std::vector<float>& nominal, const std::vector<float>& used,
                     const std::string& resource) {
  ValueAxis axis;
  axis.scale = scale;
  axis.unit = unit_of(resource);
  const double most_used = max_of(used), most = std::max<double>(max_of(nominal), most_used);
  switch (scale) {
    case ValueScale::kNominal:
      axis.top = std::max(1.0, most);
      axis.ticks = {{axis.top / 2, quantity_short(resource, static_cast<int64_t>(axis.top / 2))},
                    {axis.top, quantity_short(resource, static_cast<int64_t>(axis.top))}};
      break;
    case ValueScale::kFitted:
      // A little room above the most reserved, so its line does not run along the top edge.
      axis.top = std::max(1.0, most_used * 1.15);
      axis.ticks = {{axis.top / 2, quantity_short(resource, static_cast<int64_t>(axis.top / 2))},
                    {axis.top, quantity_short(resource, static_cast<int64_t>(axis.top))}};
      break;
    case ValueScale::kLog: {
      axis.top = std::max(axis.unit, most);
      // Decades of cards or cores: 1, 10, 100, ... up to the top.
      for (double d = 1; d * axis.unit <= axis.top; d *= 10) axis.ticks.push_back({d * axis.unit, unit_label(resource, d)});
      break;
    }
    case ValueScale::kPercentOfNominal:
      axis.top = std::max(100.0, most_used);
      axis.ticks = {{50, "50 %"}, {100, "100 %"}};
      if (axis.top > 100) axis.ticks.push_back({axis.top, std::to_string(static_cast<int>(std::lround(axis.top))) + " %"});
      break;
  }
  return axis;
}

std::vector<float> percent_of_nominal(const std::vector<float>& used, const std::vector<float>& nominal) {
  std::vector<float> out(used.size(), 0.0f);
  for (size_t i = 0; i < used.size() && i < nominal.size(); ++i)
    if (nominal[i] > 0) out[i] = used[i] / nominal[i] * 100.0f;
  return out;
}

}  // namespace chaintwin::viz
