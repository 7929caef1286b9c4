#include "sim/cli/gui/gui_command.h"

#include <optional>

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

constexpr const char* kGuiHelp = R"(Usage: chaintwin gui [SCENARIO | --db RUN.sqlite [--run ID]] [--seed N] [--play] [--speed S]
       chaintwin gui [SCENARIO | --db RUN.sqlite] --screenshot FILE.png [--at T] [--panel NAME] [--size WxH]
       chaintwin gui --plan PLAN.db [--screenshot FILE.png] [--size WxH]

Opens a window (Dear ImGui, GLFW, OpenGL 3) over a run of SCENARIO (the embedded default scenario
when none is given): the simulation steps on its own thread and the window shows its newest
snapshot. Panels: pools, credits, nodes, workloads, drains, chain, events; the strip on top plays,
pauses, changes speed, steps to the next event and seeks (back: the run restarts and replays).

  --db FILE          show a finished run from its results file (chaintwin run --db FILE) instead
                     of simulating: pools, credits, Workloads, drains and events at any time; Nodes
                     and the chain graph as they stood at the end (the file holds no card ledgers)
  --run ID           the run of the file to show (default: the newest complete run)
  --plan FILE        a capacity plan's window over its SQLite file (chaintwin plan --db FILE): the
                     recommendation and the plots plan --plots draws (docs/planning.md)
  --seed N           override the scenario's seed
  --play             start playing at once (default: paused at the start)
  --speed S          simulated seconds per wall second (default 600)
  --screenshot FILE  render one frame of the run at --at into FILE (PNG) and exit; needs an X
                     display (headless: xvfb-run -a chaintwin gui --screenshot ...)
  --at T             the simulated time of the screenshot (e.g. 6h, 1d; default: the horizon)
  --panel NAME       the panel to show: pools, credits, nodes, workloads, drains, chain, events, drift
  --size WxH         the window's size in pixels (default 1280x800)
  --select QUEUE     preselect a ClusterQueue (credits chart and chain graph show it alone)
  --node NAME        preselect a Node (nodes and cards panel, chain graph)

Exit codes: 0 done, 1 the window or the PNG could not be made, 2 bad input.
)";

struct GuiOptions {
  std::string scenario;
  std::optional<uint64_t> seed;
  bool play = false;
  double speed = 600;
  std::optional<std::string> screenshot;
  std::optional<sim::SimTime> at;
  std::optional<viz::PanelId> panel;
  int width = 1280, height = 800;
  std::string select;
  std::string node;
  std::string db;               // a finished run's results file instead of a scenario
  std::optional<int64_t> run;   // its run id (default: the newest complete run)
  std::string plan;             // a capacity plan's SQLite file
  bool help = false;
};

std::string parse(const std::vector<std::string>& args, GuiOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--play") {
      o.play = true;
    } else if (a == "--seed") {
      const auto v = value();
      if (!v || v->empty() || v->find_first_not_of("0123456789") != std::string::npos)
        return "--seed needs a non-negative integer";
      o.seed = std::stoull(*v);
    } else if (a == "--speed") {
      const auto v = value();
      char* end = nullptr;
      const double s = v ? std::strtod(v->c_str(), &end) : 0;
      if (!v || end == v->c_str() || *end != '\0' || !(s > 0)) return "--speed needs a positive number of simulated seconds per second";
      o.speed = s;
    } else if (a == "--screenshot") {
      const auto v = value();
      if (!v || v->empty()) return "--screenshot needs a PNG file name";
      o.screenshot = *v;
    } else if (a == "--at") {
      const auto v = value();
      if (!v) return "--at needs a time (e.g. 6h)";
      auto t = sim::SimTime::parse(*v);
      if (!t.ok()) return "--at: " + t.error();
      o.at = *t;
    } else if (a == "--panel") {
      const auto v = value();
      viz::PanelId id{};
      if (!v || !viz::parse_panel(*v, &id))
        return "--panel takes one of pools, credits, nodes, workloads, drains, chain, events, drift" +
               (v ? " (got '" + *v + "')" : std::string());
      o.panel = id;
    } else if (a == "--size") {
      const auto v = value();
      int w = 0, h = 0;
      char x = 0;
      if (!v || std::sscanf(v->c_str(), "%d%c%d", &w, &x, &h) != 3 || x != 'x' || w < 320 || h < 240 || w > 8192 || h > 8192)
        return "--size takes WxH in pixels, at least 320x240 (e.g. 1280x800)";
      o.width = w;
      o.height = h;
    } else if (a == "--select") {
      const auto v = value();
      if (!v) return "--select needs a ClusterQueue name";
      o.select = *v;
    } else if (a == "--node") {
      const auto v = value();
      if (!v) return "--node needs a Node name";
      o.node = *v;
    } else if (a == "--db") {
      const auto v = value();
      if (!v || v->empty()) return "--db needs a results file (written by chaintwin run --db FILE)";
      o.db = *v;
    } else if (a == "--plan") {
      const auto v = value();
      if (!v || v->empty()) return "--plan needs a plan's SQLite file (written by chaintwin plan --db FILE)";
      o.plan = *v;
    } else if (a == "--run") {
      const auto v = value();
      if (!v || v->empty() || v->find_first_not_of("0123456789") != std::string::npos)
        return "--run needs a run id (a positive integer)";
      o.run = std::stoll(*v);
    } else if (!a.empty() && a[0] == '-') {
      return "unknown flag '" + a + "'";
    } else if (o.scenario.empty()) {
      o.scenario = a;
    } else {
      return "one SCENARIO at a time (got '" + o.scenario + "' and '" + a + "')";
    }
  }
  if (o.panel == viz::PanelId::kPlan && o.plan.empty())
    return "--panel plan belongs to a capacity plan's window, not to a run (give --plan FILE)";
  if (!o.plan.empty() && (!o.scenario.empty() || !o.db.empty() || o.seed || o.at || o.play || o.run))
    return "--plan opens a plan's window: no SCENARIO, --db, --seed, --at, --play or --run";
  if (o.at && !o.screenshot) return "--at goes with --screenshot";
  if (!o.db.empty() && !o.scenario.empty()) return "give a SCENARIO or --db FILE, not both";
  if (!o.db.empty() && o.seed) return "--seed belongs to a simulation, not to a recorded run (--db)";
  if (o.run && o.db.empty()) return "--run goes with --db";
  return "";
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
  return 0;
}

// `--db FILE`: the window over a finished run read from its results file.
int show_run_file(const GuiOptions& o, viz::WindowOptions window, std::ostream& out, std::ostream& err) {
  auto source = RunFileSource::open(o.db, o.run);
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
  window.title = "chaintwin: " + o.db;
  if (o.screenshot) {
    src.seek(o.at ? o.at->us() : end);
    window.screenshot = *o.screenshot;
  } else {
    src.send({viz::Command::Kind::kSpeed, 0, o.speed});
    if (o.play) src.send({viz::Command::Kind::kPlay, 0, 0});
  }
  return open_window(src, src, window, out, err, ", from " + o.db);
}

// `--plan FILE`: the Plan panel over a capacity plan's file: its report's lines and its plots.
int show_plan(const GuiOptions& o, viz::WindowOptions window, std::ostream& out, std::ostream& err) {
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

int gui_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  GuiOptions o;
  if (const std::string e = parse(args, o); !e.empty()) {
    err << "chaintwin gui: " << e << "\n(see chaintwin gui --help)\n";
    return 2;
  }
  if (o.help) {
    out << kGuiHelp;
    return 0;
  }
  viz::WindowOptions window;
  window.width = o.width;
  window.height = o.height;
  window.panel = o.panel;
  window.select_queue = o.select;
  window.select_node = o.node;
  if (!o.plan.empty()) return show_plan(o, window, out, err);
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
