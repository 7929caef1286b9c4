// Small drawing pieces the panels share: colours as ImGui wants them, a coloured badge, a quota
// bar drawn from a BarFill, a tooltip on the last item.
#pragma once

#include <imgui.h>

#include <string>

#include "viz/bar_fill.h"
#include "viz/family_palette.h"

namespace chaintwin::viz {

inline constexpr Rgba kDriftColour{0xf9, 0x73, 0x16, 0xff};  // orange: what live mode finds out of step

ImU32 im_colour(Rgba c, float alpha = 1.0f);
ImVec4 im_colour_vec(Rgba c);
// A small filled label in `c`, e.g. the stop policy.
void badge(const std::string& text, Rgba c);
// A bar `width` × `height` at the cursor: reserved (admitted solid, the rest lighter) in `c`,
// pending demand hatched after it, a red end mark when over the nominal quota.
void quota_bar(const BarFill& fill, Rgba c, float width, float height);
// Begins a scrolling list table (row colours, inner lines, resizable columns, the header row kept
// on top); EndTable when it returns true.
bool begin_list_table(const char* id, int columns, ImVec2 size = ImVec2(0, 0), ImGuiTableFlags extra = 0);
// The text as a tooltip when the last item is hovered.
void tooltip(const std::string& text);

}  // namespace chaintwin::viz
