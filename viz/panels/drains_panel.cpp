// Drains: every hold, drain and migration of every queue on one time strip per queue, coloured by
// stop policy, and the list of them with what caused each (flavor lost, admin Hold, queue
// deleted, profile migration, empty plan) and the operator's own words for the write.
#include <imgui.h>

#include <algorithm>
#include <map>

#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/units_text.h"

namespace chaintwin::viz {

void draw_drains_panel(const Snapshot& s, UiState& ui) {
  if (s.drains.empty()) {
    ImGui::TextDisabled("No queue has been held or drained up to %s.", time_text(s.now_us).c_str());
    return;
  }
  std::map<std::string, std::vector<const DrainSpan*>> by_queue;
  for (const auto& d : s.drains) by_queue[d.cluster_queue].push_back(&d);
  const int64_t t1 = std::max<int64_t>(s.end_us, 1);
  const float label_w = 330, width = std::max(200.0f, ImGui::GetContentRegionAvail().x - label_w - 10);
  ImGui::TextDisabled("0d00:00:00 .. %s; yellow Hold, red HoldAndDrain; white line: now", time_text(t1).c_str());
  for (const auto& [queue, spans] : by_queue) {
    ImGui::TextUnformatted(queue.c_str());
    ImGui::SameLine(label_w);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + width, p.y + 14), IM_COL32(0x24, 0x28, 0x30, 0xff));
    for (const DrainSpan* d : spans) {
      const auto x = [&](int64_t t) { return p.x + width * static_cast<float>(std::clamp(static_cast<double>(t) / static_cast<double>(t1), 0.0, 1.0)); };
      dl->AddRectFilled(ImVec2(x(d->from_us), p.y), ImVec2(std::max(x(d->to_us.value_or(s.now_us)), x(d->from_us) + 2), p.y + 14),
                        im_colour(stop_policy_colour(d->stop_policy)));
    }
    const float now_x = p.x + width * static_cast<float>(std::clamp(static_cast<double>(s.now_us) / static_cast<double>(t1), 0.0, 1.0));
    dl->AddLine(ImVec2(now_x, p.y), ImVec2(now_x, p.y + 14), IM_COL32(0xff, 0xff, 0xff, 0xd0));
    ImGui::Dummy(ImVec2(width, 14));
  }
  ImGui::Separator();
  if (!begin_list_table("drains", 6)) return;
  ImGui::TableSetupColumn("ClusterQueue", 0, 300);
  ImGui::TableSetupColumn("from", 0, 95);
  ImGui::TableSetupColumn("to", 0, 95);
  ImGui::TableSetupColumn("policy", 0, 95);
  ImGui::TableSetupColumn("cause", 0, 185);
  ImGui::TableSetupColumn("the write that set it", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  static constexpr const char* kPolicy[] = {"None", "Hold", "HoldAndDrain"};
  for (const auto& d : s.drains) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    if (ImGui::Selectable((d.cluster_queue + "##" + std::to_string(d.from_us)).c_str(), ui.selected_queue == d.cluster_queue,
                          ImGuiSelectableFlags_SpanAllColumns))
      ui.selected_queue = d.cluster_queue;
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(time_text(d.from_us).c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(d.to_us ? time_text(*d.to_us).c_str() : "(still held)");
    ImGui::TableSetColumnIndex(3);
    badge(kPolicy[static_cast<int>(d.stop_policy)], stop_policy_colour(d.stop_policy));
    ImGui::TableSetColumnIndex(4);
    ImGui::TextUnformatted(d.cause.empty() ? "-" : d.cause.c_str());
    ImGui::TableSetColumnIndex(5);
    ImGui::TextWrapped("%s", d.detail.c_str());
  }
  ImGui::EndTable();
}

}  // namespace chaintwin::viz
