// Drift: in live mode, every write the operator would make to the cluster and has not — the
// object, the verb, the controller and its reason — so a pool or Node that the operator has not
// caught up with stands out. Outside live mode there is nothing to compare with.
#include <imgui.h>

#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"

namespace chaintwin::viz {

void draw_drift_panel(const Snapshot& s, UiState& ui) {
  if (!s.live) {
    ImGui::TextDisabled("Drift is what a real cluster lacks against the operator's fixpoint: open it with chaintwin live --gui.");
    return;
  }
  if (s.drift.empty()) {
    ImGui::TextColored(ImVec4(0.13f, 0.77f, 0.37f, 1), "No drift: the cluster is where the operator would leave it.");
    return;
  }
  ImGui::TextColored(ImVec4(0.98f, 0.45f, 0.09f, 1), "%zu write(s) the operator would make", s.drift.size());
  if (!begin_list_table("drift", 5)) return;
  ImGui::TableSetupColumn("kind", 0, 110);
  ImGui::TableSetupColumn("name", 0, 420);
  ImGui::TableSetupColumn("verb", 0, 95);
  ImGui::TableSetupColumn("controller", 0, 120);
  ImGui::TableSetupColumn("why", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const auto& d : s.drift) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(d.kind.c_str());
    ImGui::TableSetColumnIndex(1);
    const bool selectable = d.kind == "ClusterQueue" || d.kind == "InstanceType" || d.kind == "Node";
    if (selectable) {
      if (ImGui::Selectable((d.name + "##drift" + d.verb + d.controller).c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) {
        if (d.kind == "Node") ui.selected_node = d.name;
        else ui.selected_queue = d.name;
      }
    } else {
      ImGui::TextWrapped("%s", d.name.c_str());  // flavor names run long: wrapped, not cut
    }
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(d.verb.c_str());
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(d.controller.c_str());
    ImGui::TableSetColumnIndex(4);
    ImGui::TextWrapped("%s", d.reason.c_str());
  }
  ImGui::EndTable();
}

}  // namespace chaintwin::viz
