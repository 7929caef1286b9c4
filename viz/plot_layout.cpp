#include "viz/plot_layout.h"

#include <algorithm>
#include <cmath>

namespace chaintwin::viz {

PlotSize fit_plot(int image_width, int image_height, float max_width, float max_height) {
  if (image_width <= 0 || image_height <= 0) return {};
  const float w = static_cast<float>(image_width), h = static_cast<float>(image_height);
  float scale = 2.0f;
  if (max_width > 0) scale = std::min(scale, max_width / w);
  if (max_height > 0) scale = std::min(scale, max_height / h);
  if (max_width <= 0 && max_height <= 0) scale = 1.0f;
  return {std::floor(w * scale), std::floor(h * scale)};
}

int plot_columns(int plots, float avail_width, float min_cell) {
  if (plots <= 1 || !(min_cell > 0)) return 1;
  const int fit = static_cast<int>(std::floor(avail_width / min_cell));
  return std::clamp(std::min(fit, plots), 1, 3);
}

}  // namespace chaintwin::viz
