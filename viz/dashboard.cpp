#include "viz/dashboard.h"

#include <imgui.h>

#include "viz/panels/panels.h"

namespace chaintwin::viz {
namespace {

struct Tab {
  PanelId id;
  const char* title;
  void (*draw)(const Snapshot&, UiState&);
};

constexpr Tab kTabs[] = {
    {PanelId::kPools, "Pools", draw_pools_panel},          {PanelId::kCredits, "Credits over time", draw_credits_panel},
    {PanelId::kNodes, "Nodes and cards", draw_nodes_panel}, {PanelId::kCards, "Cluster cards", draw_card_map_panel},
    {PanelId::kWorkloads, "Workloads", draw_workloads_panel}, {PanelId::kPending, "Pending work", draw_pending_panel},
    {PanelId::kDrains, "Drains", draw_drains_panel},        {PanelId::kChain, "Chain graph", draw_chain_panel},
    {PanelId::kEvents, "Event log", draw_events_panel},     {PanelId::kDrift, "Drift", draw_drift_panel},
    {PanelId::kPlan, "Plan", draw_plan_panel},  // only when the snapshot carries a plan
};

}  // namespace

void draw_dashboard(const Snapshot* snapshot, UiState& ui, CommandSink& commands, float width, float height) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                     ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("chaintwin", nullptr, flags);
  if (snapshot == nullptr) {
    ImGui::TextUnformatted("Starting the simulation: waiting for the first snapshot...");
    ImGui::End();
    return;
  }
  if (snapshot->compare != nullptr) {  // two runs compared: no clock, no other tab
    ui.panel = PanelId::kCompare;
    ui.panel_forced = false;
    draw_compare_panel(*snapshot, ui);
    ImGui::End();
    return;
  }
  if (snapshot->plan_only) {  // a plan's window: no run, no clock, no other tab
    ui.panel = PanelId::kPlan;
    ui.panel_forced = false;
    draw_plan_panel(*snapshot, ui);
    ImGui::End();
    return;
  }
  draw_timeline_strip(*snapshot, ui, commands);
  ImGui::Separator();
  const bool forced = ui.panel_forced;
  const PanelId wanted = ui.panel;
  if (ImGui::BeginTabBar("panels")) {
    for (const Tab& t : kTabs) {
      if (t.id == PanelId::kPlan && snapshot->plan == nullptr) continue;
      const ImGuiTabItemFlags tf = forced && wanted == t.id ? ImGuiTabItemFlags_SetSelected : 0;
      if (ImGui::BeginTabItem(t.title, nullptr, tf)) {
        ui.panel = t.id;
        t.draw(*snapshot, ui);
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }
  ui.panel_forced = false;
  // The source explains the selected Workload in its snapshots from now on.
  if (ui.explain_asked != ui.selected_workload) {
    commands.send(Command(Command::Kind::kExplain, 0, 0, ui.selected_workload));
    ui.explain_asked = ui.selected_workload;
  }
  ImGui::End();
}

}  // namespace chaintwin::viz
