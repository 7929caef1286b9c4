// Compare: two finished runs side by side (gui --db A --db B). Per pool and per GPU model, each
// figure in run A, in run B and B − A as `chaintwin compare` writes them; a figure that differs
// is drawn bright with its difference coloured, an equal one dim; a row found in one run only says
// so. "differences only" hides the equal figures.
#include <imgui.h>

#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"

namespace chaintwin::viz {
namespace {

void rows_table(const char* id, const char* key_title, const std::vector<CompareRow>& rows, bool differences_only) {
  if (!begin_list_table(id, 5, ImVec2(0, 0))) return;
  ImGui::TableSetupColumn(key_title);
  ImGui::TableSetupColumn("figure");
  ImGui::TableSetupColumn("A");
  ImGui::TableSetupColumn("B");
  ImGui::TableSetupColumn("B - A", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  const ImVec4 dim(0.55f, 0.58f, 0.62f, 1), up(0.98f, 0.57f, 0.24f, 1), one_side(0.93f, 0.27f, 0.27f, 1);
  for (const auto& row : rows) {
    bool first = true;
    for (const auto& f : row.figures) {
      const bool differs = f.differs || !row.in_a || !row.in_b;
      if (differences_only && !differs) continue;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      if (first) ImGui::TextUnformatted(row.key.c_str());
      first = false;
      const ImVec4 colour = differs ? ImGui::GetStyle().Colors[ImGuiCol_Text] : dim;
      ImGui::TableSetColumnIndex(1);
      ImGui::TextColored(colour, "%s", f.name.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextColored(colour, "%s", f.a.c_str());
      ImGui::TableSetColumnIndex(3);
      ImGui::TextColored(colour, "%s", f.b.c_str());
      ImGui::TableSetColumnIndex(4);
      ImGui::TextColored(!row.in_a || !row.in_b ? one_side : differs ? up : dim, "%s", f.difference.c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace

void draw_compare_panel(const Snapshot& s, UiState& ui) {
  if (s.compare == nullptr) {
    ImGui::TextDisabled("No runs to compare: chaintwin gui --db A.db --db B.db");
    return;
  }
  const CompareView& c = *s.compare;
  ImGui::Text("A: %s", c.a.c_str());
  ImGui::Text("B: %s", c.b.c_str());
  ImGui::Checkbox("differences only", &ui.compare_differences_only);
  int differing = 0;
  for (const auto* rows : {&c.pools, &c.gpu_models})
    for (const auto& r : *rows)
      for (const auto& f : r.figures) differing += f.differs || !r.in_a || !r.in_b ? 1 : 0;
  ImGui::SameLine();
  ImGui::TextDisabled("  %d figures differ", differing);
  const float half = (ImGui::GetContentRegionAvail().y - 2 * ImGui::GetTextLineHeightWithSpacing()) / 2;
  ImGui::TextUnformatted("Per pool (ClusterQueue, resource)");
  ImGui::BeginChild("comparepools", ImVec2(0, half));
  rows_table("pools", "pool", c.pools, ui.compare_differences_only);
  ImGui::EndChild();
  ImGui::TextUnformatted("Per GPU model");
  ImGui::BeginChild("comparemodels", ImVec2(0, 0));
  rows_table("models", "GPU model", c.gpu_models, ui.compare_differences_only);
  ImGui::EndChild();
}

}  // namespace chaintwin::viz
