#include "viz/panels/draw_helpers.h"

#include <algorithm>

namespace chaintwin::viz {

ImU32 im_colour(Rgba c, float alpha) {
  return IM_COL32(c.r, c.g, c.b, static_cast<int>(static_cast<float>(c.a) * alpha));
}

ImVec4 im_colour_vec(Rgba c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f); }

void badge(const std::string& text, Rgba c) {
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImVec2 pad(4, 1);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(pos, ImVec2(pos.x + size.x + 2 * pad.x, pos.y + size.y + 2 * pad.y), im_colour(c, 0.85f), 3.0f);
  dl->AddText(ImVec2(pos.x + pad.x, pos.y + pad.y), IM_COL32(0x10, 0x10, 0x10, 0xff), text.c_str());
  ImGui::Dummy(ImVec2(size.x + 2 * pad.x, size.y + 2 * pad.y));
}

void quota_bar(const BarFill& fill, Rgba c, float width, float height) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const auto x = [&](double f) { return p.x + static_cast<float>(f) * width; };
  dl->AddRectFilled(p, ImVec2(p.x + width, p.y + height), IM_COL32(0x30, 0x34, 0x3c, 0xff));
  dl->AddRectFilled(p, ImVec2(x(fill.reserved), p.y + height), im_colour(c, 0.45f));
  dl->AddRectFilled(p, ImVec2(x(fill.admitted), p.y + height), im_colour(c));
  if (fill.pending > 0) {
    const float x0 = x(fill.reserved), x1 = x(fill.reserved + fill.pending);
    dl->AddRect(ImVec2(x0, p.y), ImVec2(x1, p.y + height), im_colour(c, 0.9f));
    for (float hx = x0 - height; hx < x1; hx += 5.0f) {
      const float a = std::max(hx, x0), b = std::min(hx + height, x1);
      if (b > a) dl->AddLine(ImVec2(a, p.y + height - (a - hx)), ImVec2(b, p.y + height - (b - hx)), im_colour(c, 0.7f));
    }
  }
  if (fill.over) dl->AddRectFilled(ImVec2(p.x + width - 3, p.y), ImVec2(p.x + width, p.y + height), IM_COL32(0xef, 0x44, 0x44, 0xff));
  ImGui::Dummy(ImVec2(width, height));
}

bool begin_list_table(const char* id, int columns, ImVec2 size, ImGuiTableFlags extra) {
  constexpr ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                    ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable(id, columns, flags | extra, size)) return false;
  ImGui::TableSetupScrollFreeze(0, 1);
  return true;
}

void tooltip(const std::string& text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace chaintwin::viz
