// PlanView: what the GUI's Plan panel shows of a capacity plan (`chaintwin plan`): its name, the
// recommendation as lines of text, and its plots as ready RGBA images. Plain values, built outside
// viz/ (sim/cli/gui/plan_view_source.h renders the plan's charts into them), so the window never
// needs the plan's file or the chart renderer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chaintwin::viz {

struct PlanPlot {
  std::string title;
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes, rows top-down
  bool operator==(const PlanPlot&) const = default;
};

struct PlanView {
  std::string plan_name;
  std::vector<std::string> summary;  // the recommendation, one line each
  std::vector<PlanPlot> plots;
  bool operator==(const PlanView&) const = default;
};

}  // namespace chaintwin::viz
