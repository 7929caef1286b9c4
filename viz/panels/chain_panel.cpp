// The chain graph for the selection: Node → ResourceFlavor → ClusterQueue → LocalQueue as four
// levels of boxes joined by the graph's edges. Select a pool (Pools) or a Node (Nodes) first;
// with neither, the first ClusterQueue. A ClusterQueue's box carries its reserved and nominal
// quota and its stop policy; a click on a Node or a ClusterQueue follows its chain, on a
// ResourceFlavor shows its labels, taints, tolerations, Topology and Nodes below the graph.
#include <imgui.h>

#include <algorithm>
#include <array>

#include "viz/chain_columns.h"
#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/units_text.h"

namespace chaintwin::viz {
namespace {

constexpr const char* kPolicy[] = {"None", "Hold", "HoldAndDrain"};
constexpr float queue_box_h = 38;

const PoolRow* pool_of(const Snapshot& s, const std::string& queue) {
  for (const auto& p : s.pools)
    if (p.cluster_queue == queue) return &p;
  return nullptr;
}

// "reserved 2.00 of 8.00 cards" under a ClusterQueue's name.
std::string queue_line(const Snapshot& s, const std::string& queue) {
  const PoolRow* p = pool_of(s, queue);
  if (p == nullptr) return "";
  return "reserved " + quantity_short(p->resource, p->reserved) + " of " + quantity_short(p->resource, p->nominal);
}

// A ResourceFlavor in full: what a Node must carry, its taints and tolerations, its Topology, and
// the Nodes that feed it (a click opens one).
void flavor_detail(const Snapshot& s, const FlavorView& f, UiState& ui) {
  ImGui::Separator();
  ImGui::Text("ResourceFlavor %s", f.name.c_str());
  ImGui::TextDisabled("nodeLabels:");
  for (const auto& [k, v] : f.node_labels) ImGui::BulletText("%s=%s", k.c_str(), v.c_str());
  if (f.node_labels.empty()) ImGui::BulletText("none (every Node)");
  ImGui::TextDisabled("nodeTaints: %s", f.node_taints.empty() ? "none" : "");
  for (const auto& t : f.node_taints) ImGui::BulletText("%s", t.c_str());
  ImGui::TextDisabled("tolerations: %s", f.tolerations.empty() ? "none" : "");
  for (const auto& t : f.tolerations) ImGui::BulletText("%s", t.c_str());
  ImGui::TextDisabled("topologyName: %s", f.topology.empty() ? "none" : f.topology.c_str());
  ImGui::TextDisabled("Nodes that feed it (their labels satisfy nodeLabels):");
  int nodes = 0;
  for (const auto& e : s.chain)
    if (e.to == "ResourceFlavor/" + f.name && e.from.rfind("Node/", 0) == 0) {
      const std::string node = e.from.substr(5);
      ++nodes;
      if (ImGui::SmallButton(node.c_str())) {
        ui.selected_node = node;
        ui.panel = PanelId::kNodes;
        ui.panel_forced = true;
      }
      ImGui::SameLine();
    }
  if (nodes == 0) ImGui::TextDisabled("none");
  else ImGui::NewLine();
}

}  // namespace

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
      float w = ImGui::CalcTextSize(name.c_str()).x + 10;
      if (c == 2)  // its name beside the stop policy badge, its quota under them
        w = std::max(w + ImGui::CalcTextSize("HoldAndDrain").x + 12, ImGui::CalcTextSize(queue_line(s, name).c_str()).x + 10);
      if (x > origin.x && x + w > origin.x + width) {
        x = origin.x;
        y += box_h + gap;
      }
      pos[static_cast<size_t>(c)].emplace_back(x, y);
      size[static_cast<size_t>(c)].emplace_back(w, c == 2 ? queue_box_h : box_h);
      x += w + gap;
    }
    y += (c == 2 ? queue_box_h : box_h) + level_gap;
  }
  for (const auto& [a, b] : cc.links) {
    const ImVec2 pa = pos[static_cast<size_t>(a.first)][static_cast<size_t>(a.second)];
    const ImVec2 sa = size[static_cast<size_t>(a.first)][static_cast<size_t>(a.second)];
    const ImVec2 pb = pos[static_cast<size_t>(b.first)][static_cast<size_t>(b.second)];
    const ImVec2 sb = size[static_cast<size_t>(b.first)][static_cast<size_t>(b.second)];
    const ImVec2 from(pa.x + sa.x / 2, pa.y + sa.y), to(pb.x + sb.x / 2, pb.y);
    dl->AddBezierCubic(from, ImVec2(from.x, from.y + 20), ImVec2(to.x, to.y - 20), to, IM_COL32(0xc0, 0xc4, 0xcc, 0x90), 1.0f);
  }
  for (int c = 0; c < 4; ++c)
    for (size_t r = 0; r < cc.columns[static_cast<size_t>(c)].size(); ++r) {
      const std::string& name = cc.columns[static_cast<size_t>(c)][r];
      const ImVec2 p = pos[static_cast<size_t>(c)][r], sz = size[static_cast<size_t>(c)][r];
      dl->AddRectFilled(p, ImVec2(p.x + sz.x, p.y + sz.y), IM_COL32(0x26, 0x2a, 0x33, 0xff), 3);
      dl->AddRect(p, ImVec2(p.x + sz.x, p.y + sz.y), im_colour(kColours[c]), 3);
      dl->AddText(ImVec2(p.x + 5, p.y + 4), IM_COL32(0xe5, 0xe7, 0xeb, 0xff), name.c_str());
      if (c == 2) {  // the pool's state under its name
        const PoolRow* pool = pool_of(s, name);
        dl->AddText(ImVec2(p.x + 5, p.y + 20), IM_COL32(0x9c, 0xa3, 0xaf, 0xff), queue_line(s, name).c_str());
        if (pool != nullptr) {
          const char* policy = kPolicy[static_cast<int>(pool->stop_policy)];
          const ImVec2 ps = ImGui::CalcTextSize(policy);
          const ImVec2 b0(p.x + sz.x - ps.x - 9, p.y + 3);
          dl->AddRectFilled(b0, ImVec2(b0.x + ps.x + 4, b0.y + ps.y), im_colour(stop_policy_colour(pool->stop_policy)), 3);
          dl->AddText(ImVec2(b0.x + 2, b0.y), IM_COL32(0x10, 0x10, 0x10, 0xff), policy);
        }
      }
      ImGui::SetCursorScreenPos(p);
      ImGui::InvisibleButton(("chainbox" + std::to_string(c) + "_" + std::to_string(r)).c_str(), sz);
      tooltip(std::string(kTitles[c]) + " " + name +
              (c == 0 || c == 2 ? "\n(click to follow its chain)" : c == 1 ? "\n(click for its detail below)" : ""));
      if (ImGui::IsItemClicked()) {
        if (c == 0) {
          ui.selected_node = name;
          ui.selected_queue.clear();
        }
        if (c == 1) ui.selected_flavor = ui.selected_flavor == name ? "" : name;
        if (c == 2) ui.selected_queue = name;
      }
    }
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(width, y - origin.y));
  // The selected flavor in detail; with none selected, the chain's first.
  const std::string& flavor =
      !ui.selected_flavor.empty() ? ui.selected_flavor : cc.columns[1].empty() ? ui.selected_flavor : cc.columns[1].front();
  for (const auto& f : s.flavors)
    if (f.name == flavor) flavor_detail(s, f, ui);
  ImGui::EndChild();
}

}  // namespace chaintwin::viz
