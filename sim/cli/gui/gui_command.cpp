#include "sim/cli/gui/gui_command.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "sim/cli/gui/compare_source.h"
#include "sim/cli/gui/live_source.h"
#include "sim/cli/gui/plan_view_source.h"
#include "sim/cli/gui/run_file_source.h"
#include "sim/cli/gui/simulation_driver.h"
#include "sim/plan/plan_charts.h"
#include "sim/plan/plan_file.h"
#include "sim/plan/plan_report.h"
#include "sim/scenario/scenario_loader.h"
#include "viz/window_app.h"

namespace chaintwin::cli {
namespace {

// "96 frames timed: median 3.1 ms, p95 4.0 ms, slowest 6.2 ms (frame start to glFinish)".
std::string frame_times_text(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<size_t>(q * static_cast<double>(ms.size())))]; };
  char line[160];
  std::snprintf(line, sizeof line, "%zu frames timed: median %.2f ms, p95 %.2f ms, slowest %.2f ms (frame start to glFinish)",
                ms.size(), at(0.5), at(0.95), ms.back());
  return line;
}

// Opens the window over `source` (a screenshot when one is asked for): 0, or 1 when it cannot.
int open_window(const viz::SnapshotSource& source, viz::CommandSink& commands, const viz::WindowOptions& window,
                std::ostream& out, std::ostream& err, const std::string& from) {
  if (auto s = viz::run_window(source, commands, window); !s.ok()) {
    err << "chaintwin gui: " << s.error() << "\n";
    return 1;
  }
  if (window.screenshot)
    out << "wrote " << *window.screenshot << " (" << window.width << "x" << window.height << ", "
        << (window.panel ? viz::panel_name(*window.panel) : "pools") << " at "
        << sim::SimTime::micros(source.latest()->now_us).to_string() << from << ")\n";
  if (window.frame_ms != nullptr && !window.frame_ms->empty()) out << frame_times_text(*window.frame_ms) << "\n";
  return 0;
}

// `--db FILE`: the window over a finished run read from its results file.
int show_run_file(const GuiCommandOptions& o, viz::WindowOptions window, std::ostream& out, std::ostream& err) {
  auto source = RunFileSource::open(o.db.front(), o.run);
  if (!source.ok()) {
    err << "chaintwin gui: " << source.error() << "\n";
    return 2;
  }
  RunFileSource& src = **source;
  const int64_t end = src.latest()->end_us;
  if (o.at && o.at->us() > end) {
    err << "chaintwin gui: --at " << o.at->to_string() << " is after the run's end " << sim::SimTime::micros(end).to_string()
        << "\n";
    return 2;
  }
  window.title = "chaintwin: " + o.db.front();
  if (o.screenshot) {
    src.seek(o.at ? o.at->us() : end);
    window.screenshot = *o.screenshot;
  } else {
    src.send({viz::Command::Kind::kSpeed, 0, o.speed});
    if (o.play) src.send({viz::Command::Kind::kPlay, 0, 0});
  }
  return open_window(src, src, window, out, err, ", from " + o.db.front());
}

// `--db A --db B`: the Compare panel over two finished runs.
int show_comparison(const GuiCommandOptions& o, viz::WindowOptions window, std::ostream& out, std::ostream& err) {
  auto view = compare_run_files(o.db[0], o.db[1]);
  if (!view.ok()) {
    err << "chaintwin gui: " << view.error() << "\n";
    return 2;
  }
  const size_t rows = view->pools.size() + view->gpu_models.size();
  CompareSource source(std::move(view).value());
  window.title = "chaintwin: " + o.db[0] + " vs " + o.db[1];
  window.panel = viz::PanelId::kCompare;
  if (o.screenshot) window.screenshot = *o.screenshot;
  if (auto s = viz::run_window(source, source, window); !s.ok()) {
    err << "chaintwin gui: " << s.error() << "\n";
    return 1;
  }
  if (window.screenshot)
    out << "wrote " << *window.screenshot << " (" << window.width << "x" << window.height << ", compare, " << rows
        << " rows)\n";
  return 0;
}

// `--plan FILE`: the Plan panel over a capacity plan's file: its report's lines and its plots.
int show_plan(const GuiCommandOptions& o, viz::WindowOptions window, std::ostream& out, std::ostream& err) {
  auto opened = sim::plan::open_plan_file(o.plan, std::nullopt);
  if (!opened) {
    err << "chaintwin gui: " << opened.error() << "\n";
    return 2;
  }
  const auto text = sim::plan::plan_report_text(*opened->plan, *opened->configs, opened->outcome);
  std::vector<std::string> summary;
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    summary.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  std::vector<sim::plot::Chart> charts;
  for (auto& c : sim::plan::plan_charts(*opened->plan, *opened->configs, opened->outcome, *opened->store))
    charts.push_back(std::move(c.chart));
  if (o.screenshot) window.screenshot = *o.screenshot;
  return open_plan_window(plan_view_from_charts(opened->plan->name, summary, charts), window, out, err);
}

}  // namespace

int gui_command(const GuiCommandOptions& o, std::ostream& out, std::ostream& err) {
  std::optional<viz::PanelId> panel;
  if (o.panel) {
    viz::PanelId id{};
    if (!viz::parse_panel(*o.panel, &id)) {
      err << "chaintwin gui: --panel: no panel '" << *o.panel << "'\n";
      return 2;
    }
    panel = id;
  }
  viz::WindowOptions window;
  window.width = o.size.width;
  window.height = o.size.height;
  window.panel = panel;
  window.select_queue = o.select;
  window.select_node = o.node;
  window.select_workload = o.workload;
  window.screenshot_frames = o.frames;
  static constexpr const char* kScales[] = {"nominal", "fitted", "log", "percent"};  // viz::ValueScale's order
  for (int i = 0; i < 4; ++i)
    if (o.scale == kScales[i]) window.value_scale = i;
  std::vector<double> frame_ms;
  if (o.frames > 4) window.frame_ms = &frame_ms;
  if (!o.plan.empty()) return show_plan(o, window, out, err);
  if (o.db.size() == 2) return show_comparison(o, window, out, err);
  if (!o.db.empty()) return show_run_file(o, window, out, err);
  auto scenario = sim::load_scenario_or_default(o.scenario);
  if (!scenario.ok()) {
    err << "chaintwin gui: " << scenario.error() << "\n";
    return 2;
  }
  if (o.at && *o.at > scenario->horizon) {
    err << "chaintwin gui: --at " << o.at->to_string() << " is after the scenario's horizon " << scenario->horizon.to_string()
        << "\n";
    return 2;
  }
  sim::RunOptions run;
  run.seed = o.seed;
  SimulationDriver driver(std::move(scenario).value(), run);
  if (auto s = driver.start(); !s.ok()) {
    err << "chaintwin gui: the scenario does not start: " << s.error() << "\n";
    return 2;
  }
  window.title = "chaintwin: " + (o.scenario.empty() ? std::string("default scenario") : o.scenario);
  if (o.screenshot) {
    driver.advance_to(o.at.value_or(sim::SimTime::micros(driver.latest()->end_us)));
    if (!driver.fatal().empty()) {
      err << "chaintwin gui: the run stopped: " << driver.fatal() << "\n";
      return 1;
    }
    window.screenshot = *o.screenshot;
  } else {
    driver.run_in_background(o.play, o.speed);
  }
  return open_window(driver, driver, window, out, err, "");
}

}  // namespace chaintwin::cli

namespace chaintwin::cli {

int live_gui(const live::ClusterConnection& connection, const live::ClientOptions& options,
             const std::optional<std::string>& screenshot, std::ostream& out, std::ostream& err) {
  LiveSource source(connection, options);
  if (auto s = source.start(); !s.ok()) {
    err << "chaintwin live: " << connection.server << ": " << s.error() << "\n";
    return 3;
  }
  viz::WindowOptions window;
  window.title = "chaintwin live: " + connection.server;
  window.panel = viz::PanelId::kDrift;
  window.screenshot = screenshot;
  if (auto s = viz::run_window(source, source, window); !s.ok()) {
    err << "chaintwin live: " << s.error() << (source.error().empty() ? "" : " (" + source.error() + ")") << "\n";
    return 1;
  }
  if (screenshot) out << "wrote " << *screenshot << " (" << source.latest()->drift.size() << " drift rows)\n";
  return 0;
}

int open_plan_window(viz::PlanView view, viz::WindowOptions window, std::ostream& out, std::ostream& err) {
  const std::string name = view.plan_name;
  const size_t plots = view.plots.size();
  PlanSource source(std::move(view));
  window.panel = viz::PanelId::kPlan;
  if (window.title == viz::WindowOptions{}.title) window.title = "chaintwin plan: " + name;
  if (auto s = viz::run_window(source, source, window); !s.ok()) {
    err << "chaintwin: " << s.error() << "\n";
    return 1;
  }
  if (window.screenshot)
    out << "wrote " << *window.screenshot << " (" << window.width << "x" << window.height << ", plan " << name << ", "
        << plots << " plot" << (plots == 1 ? "" : "s") << ")\n";
  return 0;
}

}  // namespace chaintwin::cli
