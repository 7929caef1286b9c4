#include <catch2/catch.hpp>

#include "viz/plot_layout.h"

using namespace chaintwin::viz;

TEST_CASE("a plot is scaled to its cell with its aspect kept", "[viz][plan]") {
  struct Row {
    int w, h;
    float max_w, max_h;
    PlotSize size;
  };
  const Row rows[] = {
      {900, 560, 450, 0, {450, 280}},     // half the width: half the height
      {900, 560, 1800, 400, {642, 400}},  // the height binds
      {900, 560, 4000, 4000, {1800, 1120}},  // never more than twice the image
      {900, 560, 0, 0, {900, 560}},       // no limit: its own size
      {0, 560, 450, 0, {0, 0}},           // an empty image
      {900, 560, -5, 280, {450, 280}},    // a negative width is no limit
  };
  for (const Row& r : rows) {
    INFO(r.w << "x" << r.h << " in " << r.max_w << "x" << r.max_h);
    CHECK(fit_plot(r.w, r.h, r.max_w, r.max_h) == r.size);
  }
}

TEST_CASE("a grid of plots has as many columns as fit, one to three", "[viz][plan]") {
  CHECK(plot_columns(4, 1260, 520) == 2);
  CHECK(plot_columns(4, 1700, 520) == 3);
  CHECK(plot_columns(6, 4000, 520) == 3);
  CHECK(plot_columns(2, 4000, 520) == 2);  // no more columns than plots
  CHECK(plot_columns(4, 300, 520) == 1);   // narrower than one cell: still one
  CHECK(plot_columns(1, 1260, 520) == 1);
  CHECK(plot_columns(0, 1260, 520) == 1);
}
