// Where the Plan panel puts its plots: each image scaled to fit its cell with its aspect kept (never
// enlarged past twice its size), and how many columns a grid of plots gets at a panel width. Pure,
// table-tested in tests/viz/plot_layout_test.cpp.
#pragma once

namespace chaintwin::viz {

struct PlotSize {
  float width = 0, height = 0;
  bool operator==(const PlotSize&) const = default;
};

// The largest size with the image's aspect inside max_width x max_height (a non-positive limit is
// no limit; both non-positive: the image's own size), at most 2x the image; 0x0 for an empty image.
PlotSize fit_plot(int image_width, int image_height, float max_width, float max_height);

// Columns for `plots` plots in `avail_width`: as many cells of at least `min_cell` as fit, at most
// three and at most the number of plots, at least one.
int plot_columns(int plots, float avail_width, float min_cell);

}  // namespace chaintwin::viz
