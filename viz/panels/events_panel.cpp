// The event log up to now, newest at the bottom, filtered by a substring of the kind, the object
// or the message (e.g. "Evicted", "ClusterQueue", "Hold").
#include <imgui.h>
#include <imgui_stdlib.h>

#include "viz/event_filter.h"
#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/units_text.h"

namespace chaintwin::viz {

void draw_events_panel(const Snapshot& s, UiState& ui) {
  ImGui::SetNextItemWidth(300);
  ImGui::InputTextWithHint("##eventfilter", "filter: kind, object or message", &ui.event_filter);
  const std::vector<size_t> rows = event_rows(s.events_log, ui.event_filter);
  ImGui::SameLine();
  ImGui::TextDisabled("%zu of the last %zu events (%lld processed)", rows.size(), s.events_log.size(),
                      static_cast<long long>(s.events));
  if (!begin_list_table("events", 4)) return;
  ImGui::TableSetupColumn("time", 0, 110);
  ImGui::TableSetupColumn("kind", 0, 100);
  ImGui::TableSetupColumn("object", 0, 330);
  ImGui::TableSetupColumn("message", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()));
  while (clipper.Step())
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const EventRow& e = s.events_log[rows[static_cast<size_t>(r)]];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(time_text(e.at_us).c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(e.kind.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(e.object.c_str());
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(e.message.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.message.c_str());
    }
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);  // follow the newest
  ImGui::EndTable();
}

}  // namespace chaintwin::viz
