// The chain graph for the selection: Node → ResourceFlavor → ClusterQueue → LocalQueue as four
// levels of boxes joined by the graph's edges. Select a pool (Pools) or a Node (Nodes) first;
// with neither, the first ClusterQueue.
#include <imgui.h>

#include <algorithm>
#include <array>

#include "viz/chain_columns.h"
#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"

namespace chaintwin::viz {

void draw_chain_panel(const Snapshot& s, UiState& ui) {
  const ChainColumns cc = chain_columns(s.chain, ui.selected_queue, ui.selected_node);
  ImGui::TextDisabled("%s", ui.selected_queue.empty() && ui.selected_node.empty()
                                ? "No selection: the first ClusterQueue. Select a pool or a Node to follow its chain."
                                : (ui.selected_queue.empty() ? "Node " + ui.selected_node : "ClusterQueue " + ui.selected_queue).c_str());
  static constexpr const char* kTitles[4] = {"Node", "ResourceFlavor", "ClusterQueue", "LocalQueue"};
  static constexpr Rgba kColours[4] = {{0x9c, 0xa3, 0xaf, 0xff}, {0x3b, 0x82, 0xf6, 0xff}, {0x22, 0xc5, 0x5e, 0xff},
                                       {0xa8, 0x55, 0xf7, 0xff}};
  ImGui::BeginChild("chain", ImVec2(0, 0), false);
  // Four levels from top to bottom; each box as wide as its name (nothing is cut), a level's
  // boxes wrapping onto more rows when they do not fit the width.
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(300.0f, ImGui::GetContentRegionAvail().x - 10), box_h = 22, gap = 8, level_gap = 34;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  std::array<std::vector<ImVec2>, 4> pos, size;
  float y = origin.y;
  for (int c = 0; c < 4; ++c) {
    const auto& names = cc.columns[static_cast<size_t>(c)];
    dl->AddText(ImVec2(origin.x, y), im_colour(kColours[c]),
                (std::string(kTitles[c]) + " (" + std::to_string(names.size()) + ")").c_str());
    y += 18;
    float x = origin.x;
    for (const auto& name : names) {
      const float w = ImGui::CalcTextSize(name.c_str()).x + 10;
      if (x > origin.x && x + w > origin.x + width) {
        x = origin.x;
        y += box_h + gap;
      }
      pos[static_cast<size_t>(c)].emplace_back(x, y);
      size[static_cast<size_t>(c)].emplace_back(w, box_h);
      x += w + gap;
    }
    y += box_h + level_gap;
  }
  for (const auto& [a, b] : cc.links) {
    const ImVec2 pa = pos[static_cast<size_t>(a.first)][static_cast<size_t>(a.second)];
    const ImVec2 sa = size[static_cast<size_t>(a.first)][static_cast<size_t>(a.second)];
    const ImVec2 pb = pos[static_cast<size_t>(b.first)][static_cast<size_t>(b.second)];
    const ImVec2 sb = size[static_cast<size_t>(b.first)][static_cast<size_t>(b.second)];
    const ImVec2 from(pa.x + sa.x / 2, pa.y + box_h), to(pb.x + sb.x / 2, pb.y);
    dl->AddBezierCubic(from, ImVec2(from.x, from.y + 20), ImVec2(to.x, to.y - 20), to, IM_COL32(0xc0, 0xc4, 0xcc, 0x90), 1.0f);
  }
  for (int c = 0; c < 4; ++c)
    for (size_t r = 0; r < cc.columns[static_cast<size_t>(c)].size(); ++r) {
      const std::string& name = cc.columns[static_cast<size_t>(c)][r];
      const ImVec2 p = pos[static_cast<size_t>(c)][r], sz = size[static_cast<size_t>(c)][r];
      dl->AddRectFilled(p, ImVec2(p.x + sz.x, p.y + sz.y), IM_COL32(0x26, 0x2a, 0x33, 0xff), 3);
      dl->AddRect(p, ImVec2(p.x + sz.x, p.y + sz.y), im_colour(kColours[c]), 3);
      dl->AddText(ImVec2(p.x + 5, p.y + 4), IM_COL32(0xe5, 0xe7, 0xeb, 0xff), name.c_str());
      ImGui::SetCursorScreenPos(p);
      ImGui::InvisibleButton(("chainbox" + std::to_string(c) + "_" + std::to_string(r)).c_str(), sz);
      tooltip(std::string(kTitles[c]) + " " + name + (c == 0 || c == 2 ? "\n(click to follow its chain)" : ""));
      if (ImGui::IsItemClicked()) {
        if (c == 0) {
          ui.selected_node = name;
          ui.selected_queue.clear();
        }
        if (c == 2) ui.selected_queue = name;
      }
    }
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(width, y - origin.y));
  ImGui::EndChild();
}

}  // namespace chaintwin::viz
