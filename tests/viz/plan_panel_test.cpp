// The Plan panel: a PlanView built from two charts, drawn headless (no window, no GL) through the
// whole dashboard as a plan's window and as a tab beside a run, with a fake texture store that
// records what the panel asked for. A hidden case ("[.plan-window]") opens the real window and
// writes a screenshot; run it under xvfb-run (docs/gui.md).
#include <catch2/catch.hpp>
#include <imgui.h>
#include <stb_image.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "sim/cli/command_line.h"
#include "sim/cli/gui/gui_command.h"
#include "sim/cli/gui/plan_view_source.h"
#include "sim/plot/chart.h"
#include "viz/dashboard.h"
#include "viz/plot_textures.h"

using namespace chaintwin;

namespace {

struct NullSink : viz::CommandSink {
  int sent = 0;
  void send(const viz::Command&) override { ++sent; }
};

// Hands out made-up texture ids (100 + index) and counts the requests per plot.
struct FakeTextures : viz::PlotTextures {
  std::map<size_t, int> asked;
  ImTextureID texture(const std::shared_ptr<const viz::PlanView>& view, size_t index) override {
    if (view == nullptr || index >= view->plots.size()) return nullptr;
    ++asked[index];
    return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(100 + index));
  }
};

struct HeadlessImGui {
  HeadlessImGui() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }

  // Draws the dashboard `frames` times; the texture ids the last frame's draw commands use.
  std::set<intptr_t> draw(const viz::Snapshot& s, viz::UiState& ui, viz::CommandSink& sink, int frames = 3) {
    std::set<intptr_t> textures;
    for (int f = 0; f < frames; ++f) {
      ImGui::NewFrame();
      viz::draw_dashboard(&s, ui, sink, 1280, 800);
      ImGui::Render();
    }
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; l < data->CmdListsCount; ++l)
      for (const ImDrawCmd& cmd : data->CmdLists[l]->CmdBuffer) textures.insert(reinterpret_cast<intptr_t>(cmd.TextureId));
    return textures;
  }
};

// Two charts of the kind a plan draws: p95 wait against nodes with its SLO, and utilization.
std::vector<sim::plot::Chart> plan_charts() {
  sim::plot::Chart wait;
  wait.title = "p95 wait by H100 nodes";
  wait.x_label = "H100 nodes";
  wait.y_label = "p95 wait (min)";
  sim::plot::Series training;
  training.label = "training p95 wait (95% CI)";
  sim::plot::Series inference;
  inference.label = "inference p95 wait (95% CI)";
  for (int n = 2; n <= 16; n += 2) {
    const double t = 400.0 / (n * n) + 2, i = 80.0 / n + 1;
    training.x.push_back(n), training.y.push_back(t), training.y_low.push_back(t * 0.8), training.y_high.push_back(t * 1.25);
    training.highlight.push_back(t <= 15 && i <= 15);
    inference.x.push_back(n), inference.y.push_back(i), inference.y_low.push_back(i * 0.85), inference.y_high.push_back(i * 1.2);
    inference.highlight.push_back(t <= 15 && i <= 15);
  }
  wait.series = {training, inference};
  wait.lines.push_back({"SLO: p95 wait 15 min", 15, false, 0});
  sim::plot::Chart use;
  use.title = "H100 utilization by nodes";
  use.x_label = "H100 nodes";
  use.y_label = "cards allocated (%)";
  use.width = 720;
  use.height = 450;
  sim::plot::Series u;
  u.label = "mean utilization";
  for (int n = 2; n <= 16; n += 2) u.x.push_back(n), u.y.push_back(std::min(100.0, 190.0 / n + 20));
  use.series = {u};
  use.lines.push_back({"target 70 %", 70, false, 0x009E73FF});
  return {wait, use};
}

viz::PlanView sample_view() {
  return cli::plan_view_from_charts("h100-growth", {"Recommendation: 8 H100 nodes meet every SLO in 20 of 20 runs.",
                                                    "6 nodes miss the training p95 wait SLO (15 min) in 9 of 20 runs."},
                                    plan_charts());
}

}  // namespace

TEST_CASE("a PlanView holds each chart rendered, titled and sized as the chart", "[viz][plan]") {
  const auto charts = plan_charts();
  const viz::PlanView v = sample_view();
  CHECK(v.plan_name == "h100-growth");
  CHECK(v.summary.size() == 2);
  REQUIRE(v.plots.size() == 2);
  CHECK(v.plots[0].title == "p95 wait by H100 nodes");
  CHECK(v.plots[0].width == 900);
  CHECK(v.plots[0].height == 560);
  CHECK(v.plots[1].width == 720);
  CHECK(v.plots[1].height == 450);
  CHECK(v.plots[1].rgba == sim::plot::render(charts[1]).rgba);
  sim::plot::Chart untitled;
  CHECK(cli::plan_view_from_charts("p", {}, {untitled, untitled}).plots[1].title == "plot 2");
}

TEST_CASE("a plan's window draws the summary and every plot, then one alone", "[viz][plan][smoke]") {
  HeadlessImGui imgui;
  NullSink sink;
  FakeTextures textures;
  cli::PlanSource source(sample_view());
  const viz::Snapshot& s = *source.latest();
  CHECK(s.plan_only);
  viz::UiState ui;
  ui.plot_textures = &textures;
  std::set<intptr_t> used = imgui.draw(s, ui, sink);
  CHECK(ui.panel == viz::PanelId::kPlan);
  CHECK(used.count(100) == 1);  // both plots are drawn with their textures
  CHECK(used.count(101) == 1);
  CHECK(textures.asked[0] > 0);
  CHECK(textures.asked[1] > 0);
  ui.plan_plot = 1;  // the second alone
  textures.asked.clear();
  used = imgui.draw(s, ui, sink);
  CHECK(used.count(100) == 0);
  CHECK(used.count(101) == 1);
  CHECK(textures.asked.count(0) == 0);
  ui.plan_plot = 7;  // past the end: back to all of them
  used = imgui.draw(s, ui, sink);
  CHECK(ui.plan_plot == -1);
  CHECK(used.count(100) == 1);
  CHECK(sink.sent == 0);
}

TEST_CASE("the Plan panel draws placeholders without textures, and nothing breaks without a plan", "[viz][plan][smoke]") {
  HeadlessImGui imgui;
  NullSink sink;
  viz::UiState ui;  // no texture store: framed placeholders
  cli::PlanSource source(sample_view());
  CHECK(imgui.draw(*source.latest(), ui, sink).count(100) == 0);
  cli::PlanSource empty(viz::PlanView{"empty", {}, {}});
  imgui.draw(*empty.latest(), ui, sink);
  // Beside a run: the Plan tab appears only when the snapshot carries a plan.
  FakeTextures textures;
  ui.plot_textures = &textures;
  viz::Snapshot run;
  run.scenario = "run";
  ui.panel = viz::PanelId::kPlan;
  ui.panel_forced = true;
  imgui.draw(run, ui, sink);
  CHECK(textures.asked.empty());
  run.plan = source.latest()->plan;
  ui.panel = viz::PanelId::kPlan;
  ui.panel_forced = true;
  imgui.draw(run, ui, sink);
  CHECK(ui.panel == viz::PanelId::kPlan);
  CHECK(textures.asked[0] > 0);
}

TEST_CASE("chaintwin gui refuses --panel plan over a run", "[viz][plan]") {
  std::ostringstream out, err;
  CHECK(cli::dispatch({"gui", "--panel", "plan", "--screenshot", "x.png"}, out, err) == 2);
  CHECK(err.str().find("--panel plan belongs to a capacity plan's window") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists("x.png"));
}

// Needs a display: xvfb-run -a -s "-screen 0 1280x1024x24" unit_tests "[.plan-window]"
// (CHAINTWIN_PLAN_SCREENSHOT names the PNG; default: plan-window.png in the temp directory).
TEST_CASE("a plan's window writes its screenshot", "[.plan-window]") {
  const char* env = std::getenv("CHAINTWIN_PLAN_SCREENSHOT");
  const std::string path = env != nullptr ? env : (std::filesystem::temp_directory_path() / "plan-window.png").string();
  viz::WindowOptions window;
  window.width = 1280;
  window.height = 800;
  window.screenshot = path;
  std::ostringstream out, err;
  REQUIRE(cli::open_plan_window(sample_view(), window, out, err) == 0);
  INFO(out.str() << err.str());
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(path.c_str(), &w, &h, &n, 4);
  REQUIRE(px != nullptr);
  CHECK(w == 1280);
  CHECK(h == 800);
  stbi_image_free(px);
}
