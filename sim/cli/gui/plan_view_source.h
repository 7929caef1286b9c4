// The GUI's view of a capacity plan: its charts (sim/plot/) rendered into the images the Plan panel
// shows (viz/plan_view.h), and a snapshot source holding that view alone for a plan's window. Who
// reads a plan's file turns it into a name, summary lines and charts, then calls
// plan_view_from_charts and open_plan_window (gui_command.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/cli/gui/fixed_source.h"
#include "sim/plot/chart.h"
#include "viz/commands.h"
#include "viz/plan_view.h"

namespace chaintwin::cli {

// Each chart rendered (sim::plot::render) into a PlanPlot titled as the chart ("plot N" when it
// has no title), in order.
viz::PlanView plan_view_from_charts(const std::string& name, const std::vector<std::string>& summary,
                                    const std::vector<sim::plot::Chart>& charts);

// The plan's view and nothing else (plan_only), never changing.
class PlanSource final : public FixedSource {
 public:
  explicit PlanSource(viz::PlanView view);
};

}  // namespace chaintwin::cli
