// The chain graph for the selection: Node → ResourceFlavor → ClusterQueue → LocalQueue as four
// columns of boxes joined by the graph's edges. Select a pool (Pools) or a Node (Nodes) first;
// with neither, the first ClusterQueue.
#include <imgui.h>

#include <algorithm>

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
  ImGui::BeginChild("chain", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float col_w = std::max(220.0f, (ImGui::GetContentRegionAvail().x - 60) / 4), box_w = col_w - 40, box_h = 22, gap = 6;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  size_t rows = 0;
  for (const auto& c : cc.columns) rows = std::max(rows, c.size());
  auto box_pos = [&](int c, int r) {
    return ImVec2(origin.x + static_cast<float>(c) * col_w, origin.y + 24 + static_cast<float>(r) * (box_h + gap));
  };
  for (const auto& [a, b] : cc.links) {
    const ImVec2 pa = box_pos(a.first, a.second), pb = box_pos(b.first, b.second);
    dl->AddBezierCubic(ImVec2(pa.x + box_w, pa.y + box_h / 2), ImVec2(pa.x + box_w + 20, pa.y + box_h / 2),
                       ImVec2(pb.x - 20, pb.y + box_h / 2), ImVec2(pb.x, pb.y + box_h / 2), IM_COL32(0xc0, 0xc4, 0xcc, 0x90), 1.0f);
  }
  for (int c = 0; c < 4; ++c) {
    const ImVec2 t(origin.x + static_cast<float>(c) * col_w, origin.y);
    dl->AddText(t, im_colour(kColours[c]), (std::string(kTitles[c]) + " (" + std::to_string(cc.columns[static_cast<size_t>(c)].size()) + ")").c_str());
    for (size_t r = 0; r < cc.columns[static_cast<size_t>(c)].size(); ++r) {
      const ImVec2 p = box_pos(c, static_cast<int>(r));
      dl->AddRectFilled(p, ImVec2(p.x + box_w, p.y + box_h), IM_COL32(0x26, 0x2a, 0x33, 0xff), 3);
      dl->AddRect(p, ImVec2(p.x + box_w, p.y + box_h), im_colour(kColours[c]), 3);
      dl->PushClipRect(p, ImVec2(p.x + box_w - 3, p.y + box_h), true);
      dl->AddText(ImVec2(p.x + 4, p.y + 4), IM_COL32(0xe5, 0xe7, 0xeb, 0xff), cc.columns[static_cast<size_t>(c)][r].c_str());
      dl->PopClipRect();
      ImGui::SetCursorScreenPos(p);
      ImGui::InvisibleButton(("chainbox" + std::to_string(c) + "_" + std::to_string(r)).c_str(), ImVec2(box_w, box_h));
      tooltip(std::string(kTitles[c]) + " " + cc.columns[static_cast<size_t>(c)][r]);
      if (ImGui::IsItemClicked()) {
        if (c == 0) { ui.selected_node = cc.columns[0][r]; ui.selected_queue.clear(); }
        if (c == 2) ui.selected_queue = cc.columns[2][r];
      }
    }
  }
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(col_w * 4, 24 + static_cast<float>(rows) * (box_h + gap)));
  ImGui::EndChild();
}

}  // namespace chaintwin::viz
