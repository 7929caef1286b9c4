// The headless smoke test: every panel drawn for several frames with no window and no GL behind
// ImGui (Debian's libimgui is built with its assertions on, so a Begin/End or table misuse aborts
// the test), over no snapshot, an empty cluster, the default scenario at several times and a
// cluster in the middle of a drain.
#include <catch2/catch.hpp>
#include <imgui.h>

#include <vector>

#include "sim/cli/gui/simulation_driver.h"
#include "sim/scenario/default_scenario.h"
#include "sim/scenario/scenario_loader.h"
#include "viz/dashboard.h"

using namespace chaintwin;

namespace {

struct RecordingSink : viz::CommandSink {
  std::vector<viz::Command> sent;
  void send(const viz::Command& c) override { sent.push_back(c); }
};

// An ImGui context sized like the window, with its font atlas built (no renderer needed).
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

  // Draws every panel for `frames` frames each; the number of draw commands of the last frame.
  int draw_all_panels(const viz::Snapshot* snapshot, viz::UiState& ui, viz::CommandSink& sink, int frames = 3) {
    int commands = 0;
    for (int p = 0; p <= static_cast<int>(viz::PanelId::kDrift); ++p)
      for (int f = 0; f < frames; ++f) {
        ui.panel = static_cast<viz::PanelId>(p);
        ui.panel_forced = true;
        ImGui::NewFrame();
        viz::draw_dashboard(snapshot, ui, sink, 1280, 800);
        ImGui::Render();
        commands = ImGui::GetDrawData()->CmdListsCount;
      }
    return commands;
  }
};

sim::Scenario load(const std::string& file) {
  auto s = file.empty() ? sim::load_scenario_text(std::string(sim::data::kDefaultScenarioYaml), "default")
                        : sim::load_scenario(std::string(CHAINTWIN_SOURCE_DIR) + "/" + file);
  REQUIRE(s.ok());
  return std::move(s).value();
}

}  // namespace

TEST_CASE("every panel draws over no snapshot and over an empty cluster", "[viz][smoke]") {
  HeadlessImGui imgui;
  RecordingSink sink;
  viz::UiState ui;
  CHECK(imgui.draw_all_panels(nullptr, ui, sink) > 0);
  viz::Snapshot empty;
  empty.scenario = "empty";
  CHECK(imgui.draw_all_panels(&empty, ui, sink) > 0);
  CHECK(sink.sent.empty());  // drawing alone sends no command
}

TEST_CASE("every panel draws over a live cluster with drift marked", "[viz][smoke]") {
  HeadlessImGui imgui;
  RecordingSink sink;
  cli::SimulationDriver driver(load(""), {});
  REQUIRE(driver.start().ok());
  viz::Snapshot live = *driver.latest();
  live.live = true;
  live.source = "https://cluster.example:6443";
  live.drift = {{"Node", "h100-0", "update", "NodeProfile", "presence labels"},
                {"ClusterQueue", live.pools[0].cluster_queue, "update", "NodeQueue", "fill the resource groups"},
                {"ResourceFlavor", "a-long-flavor-name", "create", "NodeFlavor", "1 Node(s) contribute"}};
  viz::UiState ui;
  imgui.draw_all_panels(&live, ui, sink);
  live.drift.clear();
  imgui.draw_all_panels(&live, ui, sink);
  CHECK(sink.sent.empty());  // the live strip has no controls
}

TEST_CASE("every panel draws over a simulated cluster without Nodes", "[viz][smoke]") {
  auto scenario = sim::load_scenario_text(
      "apiVersion: chaintwin/v1\nkind: Scenario\nmetadata: {name: empty}\nhorizon: 1h\ncluster: {nodes: []}\n", "empty.yaml");
  REQUIRE(scenario.ok());
  HeadlessImGui imgui;
  RecordingSink sink;
  cli::SimulationDriver driver(std::move(scenario).value(), {});
  REQUIRE(driver.start().ok());
  driver.advance_to(*sim::SimTime::parse("1h"));
  const auto snap = driver.latest();
  REQUIRE(snap != nullptr);
  CHECK(snap->nodes.empty());
  CHECK(snap->workloads.empty());
  viz::UiState ui;
  imgui.draw_all_panels(snap.get(), ui, sink);
}

TEST_CASE("every panel draws over the default scenario at several times, with selections", "[viz][smoke]") {
  HeadlessImGui imgui;
  RecordingSink sink;
  cli::SimulationDriver driver(load(""), {});
  REQUIRE(driver.start().ok());
  for (const char* at : {"0s", "30m", "6h", "24h"}) {
    INFO(at);
    driver.advance_to(*sim::SimTime::parse(at));
    const auto snap = driver.latest();
    REQUIRE(snap != nullptr);
    CHECK(snap->now_us == sim::SimTime::parse(at)->us());
    CHECK(snap->pools.size() == 4);
    CHECK(snap->nodes.size() == 5);
    viz::UiState ui;
    imgui.draw_all_panels(snap.get(), ui, sink);
    // The same with a queue, a node, a card and a Workload selected.
    ui.selected_queue = snap->pools[2].cluster_queue;
    ui.selected_node = "h100-0";
    ui.selected_card = snap->nodes[3].cards.empty() ? "" : snap->nodes[3].cards[0].id;
    ui.selected_workload = snap->workloads.empty() ? "" : snap->workloads.back().key;
    imgui.draw_all_panels(snap.get(), ui, sink);
  }
  CHECK(driver.fatal().empty());
}

TEST_CASE("every panel draws over a cluster in the middle of a drain, which the snapshot shows", "[viz][smoke]") {
  HeadlessImGui imgui;
  RecordingSink sink;
  cli::SimulationDriver driver(load("scenarios/regression/finalizing-flavor-moves-partial-pool-workload.yaml"), {});
  REQUIRE(driver.start().ok());
  driver.advance_to(*sim::SimTime::parse("5m"));
  const auto snap = driver.latest();
  REQUIRE(snap != nullptr);
  bool draining = false;
  for (const auto& d : snap->drains)
    if (d.stop_policy == viz::StopPolicy::kHoldAndDrain && !d.to_us && d.cause == "flavor lost (migration)")
      draining = true;
  CHECK(draining);
  bool held_pool = false;
  for (const auto& p : snap->pools) held_pool = held_pool || p.stop_policy == viz::StopPolicy::kHoldAndDrain;
  CHECK(held_pool);
  viz::UiState ui;
  imgui.draw_all_panels(snap.get(), ui, sink, 4);
}

TEST_CASE("the Workloads panel asks its source to explain the selected Workload and draws the answer", "[viz][smoke]") {
  HeadlessImGui imgui;
  RecordingSink sink;
  cli::SimulationDriver driver(load(""), {});
  REQUIRE(driver.start().ok());
  driver.advance_to(*sim::SimTime::parse("24h"));
  viz::UiState ui;
  ui.selected_workload = "team-a/h100-training-15";
  imgui.draw_all_panels(driver.latest().get(), ui, sink, 1);
  REQUIRE(sink.sent.size() == 1);  // asked once, not every frame
  CHECK(sink.sent[0].kind == viz::Command::Kind::kExplain);
  CHECK(sink.sent[0].workload == "team-a/h100-training-15");
  driver.send(sink.sent[0]);
  const auto snap = driver.latest();
  REQUIRE(snap->explanation);
  CHECK(snap->explanation->workload == "team-a/h100-training-15");
  CHECK(snap->explanation->place.gate == model::Gate::kGate2);
  CHECK(snap->explanation->holders.size() == 11);
  imgui.draw_all_panels(snap.get(), ui, sink);
  CHECK(sink.sent.size() == 1);
  // Deselecting stops it.
  ui.selected_workload.clear();
  imgui.draw_all_panels(snap.get(), ui, sink, 1);
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[1].workload.empty());
  driver.send(sink.sent[1]);
  CHECK_FALSE(driver.latest()->explanation);
}
