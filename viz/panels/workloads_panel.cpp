// Workloads: pending ones with the reason the stopping gate gave (in the operator's and Kueue's
// words), admitted, evicted or retried, finished, rejected. Selecting one shows its way through
// the gates, step by step, and beside it why it waits (explanation_view.cpp).
#include <imgui.h>

#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/pending_work.h"
#include "viz/state_palette.h"
#include "viz/units_text.h"
#include "viz/workload_filter.h"

namespace chaintwin::viz {

void draw_workloads_panel(const Snapshot& s, UiState& ui) {
  static constexpr const char* kViews[] = {"all", "pending", "admitted", "evicted/retried", "finished", "rejected"};
  for (int v = 0; v < 6; ++v) {
    if (v > 0) ImGui::SameLine();
    ImGui::RadioButton(kViews[v], &ui.workload_view, v);
  }
  const std::vector<size_t> rows =
      workload_rows(s.workloads, static_cast<WorkloadView>(ui.workload_view), ui.selected_queue);
  ImGui::SameLine();
  if (ui.selected_queue.empty())
    ImGui::TextDisabled("  %zu of %zu Workloads", rows.size(), s.workloads.size());
  else
    ImGui::TextDisabled("  %zu of %zu Workloads, of ClusterQueue %s only (click it in Pools to show all)", rows.size(),
                        s.workloads.size(), ui.selected_queue.c_str());
  const float history_height = ui.selected_workload.empty() ? 0.0f : 300.0f;
  if (begin_list_table("workloads", 6, ImVec2(0, -history_height))) {
    ImGui::TableSetupColumn("Workload", 0, 230);
    ImGui::TableSetupColumn("ClusterQueue", 0, 300);
    ImGui::TableSetupColumn("phase", 0, 70);
    ImGui::TableSetupColumn("gate", 0, 50);
    ImGui::TableSetupColumn("evictions/retries", 0, 110);
    ImGui::TableSetupColumn("why it waits", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rows.size()));
    while (clipper.Step())
      for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
        const WorkloadRow& w = s.workloads[rows[static_cast<size_t>(r)]];
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        if (ImGui::Selectable((w.key + "##wl").c_str(), ui.selected_workload == w.key, ImGuiSelectableFlags_SpanAllColumns))
          ui.selected_workload = ui.selected_workload == w.key ? "" : w.key;
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(w.cluster_queue.c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::TextColored(im_colour_vec(workload_phase_colour(w.phase)), "%s",
                           std::string(workload_phase_label(w.phase)).c_str());
        ImGui::TableSetColumnIndex(3);
        ImGui::TextUnformatted(w.gate.c_str());
        ImGui::TableSetColumnIndex(4);
        ImGui::Text("%d/%d", w.evictions, w.retries);
        ImGui::TableSetColumnIndex(5);
        ImGui::TextUnformatted(w.reason.c_str());
        tooltip(w.reason);
      }
    ImGui::EndTable();
  }
  if (ui.selected_workload.empty()) return;
  for (const auto& w : s.workloads) {
    if (w.key != ui.selected_workload) continue;
    ImGui::Separator();
    const float half = ImGui::GetContentRegionAvail().x * 0.45f;
    ImGui::BeginChild("history", ImVec2(half, 0));
    ImGui::Text("%s: created %s, %zu steps", w.key.c_str(), time_text(w.created_us).c_str(), w.history.size());
    // Where it runs (a click on the Node opens it, on a card opens the Node with that card), and
    // why it was last evicted.
    const auto open_node = [&](const std::string& node, const std::string& card) {
      ui.selected_node = node;
      ui.selected_card = card;
      ui.panel = PanelId::kNodes;
      ui.panel_forced = true;
    };
    for (const PodPlacement& pod : w.placements) {
      ImGui::TextDisabled("Pod %s on", pod.pod.c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton((pod.node + "##" + pod.pod).c_str())) open_node(pod.node, "");
      for (size_t c = 0; c < pod.cards.size(); ++c) {
        ImGui::SameLine();
        if (ImGui::SmallButton((pod.cards[c] + "##" + pod.pod + std::to_string(c)).c_str()))
          open_node(pod.node, c < pod.card_ids.size() ? pod.card_ids[c] : "");
      }
    }
    if (const std::string cause = last_eviction(w); !cause.empty())
      ImGui::TextColored(im_colour_vec(workload_phase_colour(WorkloadPhase::kEvicted)), "last evicted: %s", cause.c_str());
    for (const auto& step : w.history)
      ImGui::TextWrapped("%s  %-13s %s", time_text(step.at_us).c_str(), step.kind.c_str(), step.message.c_str());
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("why", ImVec2(0, 0));
    draw_explanation(s, w.key);
    ImGui::EndChild();
  }
}

}  // namespace chaintwin::viz
