// `chaintwin gui`: the Dear ImGui window over a scenario run, a results file or a capacity plan, or
// a PNG of it (--screenshot); run by the command line (command_line.cpp) with the options it parsed.
// Also the windows `chaintwin live --gui` and a plan open.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "live/api_client.h"
#include "sim/cli/flag_values.h"
#include "sim/sim_time.h"
#include "live/kubeconfig.h"
#include "viz/plan_view.h"
#include "viz/window_app.h"

namespace chaintwin::cli {

struct GuiCommandOptions {
  std::string scenario;  // empty: the embedded default scenario
  std::optional<uint64_t> seed;
  bool play = false;
  double speed = 600;  // simulated seconds per wall second
  std::optional<std::string> screenshot;
  std::optional<sim::SimTime> at;
  int frames = 4;  // frames drawn before a screenshot; beyond four they are timed and reported
  std::optional<std::string> panel;  // a panel's name (viz::parse_panel)
  PixelSize size{1280, 800};
  std::string scale = "nominal";  // the credits charts' value scale: nominal, fitted, log, percent
  std::string select;  // a ClusterQueue to preselect
  std::string node;    // a Node to preselect
  std::string workload;  // a Workload to preselect ("<namespace>/<name>"): the Workloads panel explains it
  std::vector<std::string> db;  // a finished run's results file instead of a scenario; two: compare them
  std::optional<int64_t> run;  // its run id (default: the newest complete run)
  std::string plan;    // a capacity plan's SQLite file
};

int gui_command(const GuiCommandOptions& o, std::ostream& out, std::ostream& err);

// `chaintwin live --gui`: the window over a live cluster (live_source.h) until it is closed.
int live_gui(const live::ClusterConnection& connection, const live::ClientOptions& options,
             const std::optional<std::string>& screenshot, std::ostream& out, std::ostream& err);

// A capacity plan's window: the Plan panel alone over `view` (plan_view_source.h) until it is
// closed, or its PNG when window.screenshot is set (size, title as given; the panel is Plan).
// 0, or 1 when the window or the PNG cannot be made (the reason on `err`).
int open_plan_window(viz::PlanView view, viz::WindowOptions window, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
