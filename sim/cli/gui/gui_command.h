// `chaintwin gui`: the Dear ImGui window over a scenario run, or a PNG of it (--screenshot).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "live/api_client.h"
#include "live/kubeconfig.h"
#include "viz/plan_view.h"
#include "viz/window_app.h"

namespace chaintwin::cli {

int gui_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `chaintwin live --gui`: the window over a live cluster (live_source.h) until it is closed.
int live_gui(const live::ClusterConnection& connection, const live::ClientOptions& options,
             const std::optional<std::string>& screenshot, std::ostream& out, std::ostream& err);

// A capacity plan's window: the Plan panel alone over `view` (plan_view_source.h) until it is
// closed, or its PNG when window.screenshot is set (size, title as given; the panel is Plan).
// 0, or 1 when the window or the PNG cannot be made (the reason on `err`).
int open_plan_window(viz::PlanView view, viz::WindowOptions window, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
