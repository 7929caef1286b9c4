// The event log up to now, newest at the bottom, filtered by a substring of the kind, the object
// or the message (e.g. "Evicted", "ClusterQueue", "Hold"). Kinds are coloured by what they mean
// (state_palette.h: event_colour); above the table, the scenario's expectations judged so far, how
// many held and which failed.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <vector>

#include "viz/event_filter.h"
#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/state_palette.h"
#include "viz/units_text.h"

namespace chaintwin::viz {

void draw_events_panel(const Snapshot& s, UiState& ui) {
  ImGui::SetNextItemWidth(300);
  ImGui::InputTextWithHint("##eventfilter", "filter: kind, object or message", &ui.event_filter);
  const std::vector<size_t> rows = event_rows(s.events_log, ui.event_filter);
  ImGui::SameLine();
  ImGui::TextDisabled("%zu of the last %zu events (%lld processed)", rows.size(), s.events_log.size(),
                      static_cast<long long>(s.events));
  // The scenario's expectations judged so far: how many held, and each that failed in full.
  int held = 0, unjudged = 0;
  std::vector<const EventRow*> failed;
  for (const auto& e : s.expectations) {
    if (e.message.rfind("holds", 0) == 0) ++held;
    else if (e.message.rfind("FAILED", 0) == 0) failed.push_back(&e);
    else ++unjudged;
  }
  if (!s.expectations.empty()) {
    ImGui::TextColored(im_colour_vec(event_colour("expect", "holds")), "expectations: %d held", held);
    ImGui::SameLine();
    ImGui::TextColored(im_colour_vec(event_colour("expect", failed.empty() ? "holds" : "FAILED")), "%zu failed",
                       failed.size());
    ImGui::SameLine();
    ImGui::TextDisabled("%d not judged", unjudged);
    constexpr size_t kListed = 5;
    for (size_t i = 0; i < failed.size() && i < kListed; ++i)
      ImGui::TextColored(im_colour_vec(event_colour("expect", "FAILED")), "%s  %s  %s", time_text(failed[i]->at_us).c_str(),
                         failed[i]->object.c_str(), failed[i]->message.c_str());
    if (failed.size() > kListed) ImGui::TextDisabled("... and %zu more (filter \"FAILED\")", failed.size() - kListed);
  }
  if (!begin_list_table("events", 4)) return;
  ImGui::TableSetupColumn("time");  // time, kind and object fit the widest shown
  ImGui::TableSetupColumn("kind");
  ImGui::TableSetupColumn("object");
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
      ImGui::TextColored(im_colour_vec(event_colour(e.kind, e.message)), "%s", e.kind.c_str());
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
