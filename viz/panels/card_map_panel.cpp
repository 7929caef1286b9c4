// Cluster cards: every card of every Node as one cell, grouped by GPU model and pool
// (viz/card_map.h). A cell is its ledger mode's colour, dim where its credits are free and bright
// from the bottom up to the share in use; a red frame marks an unhealthy card, a black diagonal a
// cordoned or terminating Node, a grey frame around a dark cell a Node the operator does not
// manage. The cells are as large as lets the whole cluster fit the panel (down to 4 pixels, then it
// scrolls). Each group's cells are painted into an image once per snapshot (viz/card_map.h) and
// drawn as one textured quad a frame; without textures (headless tests) they are drawn as
// rectangles. Hover for the card, click to open its Node.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "viz/card_map.h"
#include "viz/image_textures.h"
#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/state_palette.h"
#include "viz/units_text.h"

namespace chaintwin::viz {
namespace {

constexpr float kGroupGap = 6;

void draw_cell(ImDrawList* dl, ImVec2 p, float size, const NodeView& node, const CardView& card) {
  const ImVec2 q(p.x + size, p.y + size);
  const CardMark mark = card_mark(node, card);
  if (mark == CardMark::kUnmanaged) {  // no ledger the operator keeps: a frame around a dark cell
    dl->AddRectFilled(p, q, IM_COL32(0x2c, 0x30, 0x38, 0xff));
    dl->AddRect(p, q, IM_COL32(0x9c, 0xa3, 0xaf, 0xff));
    return;
  }
  const Rgba colour = card_mode_colour(card.mode);
  dl->AddRectFilled(p, q, im_colour(card_mode_dim_colour(card.mode)));
  const float used = std::round(card_use(card) * size);
  if (used > 0) dl->AddRectFilled(ImVec2(p.x, q.y - used), q, im_colour(colour));
  if (mark == CardMark::kUnhealthy) dl->AddRect(p, q, IM_COL32(0xef, 0x44, 0x44, 0xff), 0, 0, size >= 8 ? 2.0f : 1.0f);
  if (mark == CardMark::kCordoned) dl->AddLine(p, q, IM_COL32(0x00, 0x00, 0x00, 0xff), size >= 8 ? 2.0f : 1.0f);
}

void card_tooltip(const NodeView& node, const CardView& card, const CardMapGroup& group) {
  ImGui::BeginTooltip();
  ImGui::Text("%s  card #%u  %s", node.name.c_str(), card.index, card.product.c_str());
  ImGui::Text("%s, %s credits left of 1,600,000 (%.0f %% in use)", card.mode.c_str(), grouped(card.remaining).c_str(),
              card_use(card) * 100.0);
  if (card.slice_count > 0) ImGui::Text("logical slices %d of %d", card.slices_used, card.slice_count);
  if (!card.instances.empty()) {
    std::string profiles;
    for (const auto& i : card.instances) profiles += (profiles.empty() ? "" : ", ") + i.profile;
    ImGui::Text("MIG instances: %s", profiles.c_str());
  }
  ImGui::Text("pool: %s", group.pools.c_str());
  switch (card_mark(node, card)) {
    case CardMark::kUnhealthy: ImGui::TextUnformatted("unhealthy card"); break;
    case CardMark::kCordoned: ImGui::TextUnformatted(node.terminating ? "Node terminating" : "Node cordoned"); break;
    case CardMark::kUnmanaged: ImGui::TextUnformatted("Node not managed by the operator (gpustack.ai/managed)"); break;
    case CardMark::kNone: break;
  }
  ImGui::TextDisabled("click: open the Node");
  ImGui::EndTooltip();
}

void legend() {
  static constexpr const char* kModes[] = {"Exclusive", "Shared", "Sliced", "Partitioned", "None"};
  for (const char* mode : kModes) {
    ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 3), ImVec2(p.x + 10, p.y + 13),
                                              im_colour(card_mode_colour(mode)));
    ImGui::Dummy(ImVec2(12, 14));
    ImGui::SameLine();
    ImGui::TextUnformatted(std::string(mode) == "None" ? "idle" : mode);
  }
  ImGui::SameLine();
  ImGui::TextDisabled("  bright = share in use; red frame unhealthy; diagonal cordoned; grey frame unmanaged");
}

}  // namespace

void draw_card_map_panel(const Snapshot& s, UiState& ui) {
  ImGui::SetNextItemWidth(220);
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s", ui.card_filter.c_str());
  if (ImGui::InputTextWithHint("##cardfilter", "filter: Node, GPU model, pool, mode", buf, sizeof buf))
    ui.card_filter = buf;
  legend();
  ImGui::BeginChild("cardmap", ImVec2(0, 0), false, ImGuiWindowFlags_NoNav);
  const float width = std::floor(ImGui::GetContentRegionAvail().x) - 2;
  // The line of totals is drawn first; the groups fit what is left below it.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float height = ImGui::GetContentRegionAvail().y - line;
  const float per_group = line + ImGui::GetStyle().ItemSpacing.y + kGroupGap;
  if (ui.card_map == nullptr || !ui.card_map->shows(s, ui.card_filter, width, height, per_group)) {
    ui.card_map = std::make_shared<CardMapView>(card_map_view(s, ui.card_filter, width, height, per_group));
    ui.card_map->generation = ++ui.card_map_generation;
  }
  const CardMapView& map = *ui.card_map;
  ImGui::Text("%s cards on %s Nodes, %s with credits in use; cells of %.0f px", grouped(map.cards).c_str(),
              grouped(map.nodes).c_str(), grouped(map.in_use).c_str(), map.geometry.cell);
  if (s.from_file) {
    ImGui::SameLine();
    ImGui::TextDisabled("  (a run file keeps no card ledgers: no cards to draw)");
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const CellGeometry& geometry = map.geometry;
  for (size_t gi = 0; gi < map.groups.size(); ++gi) {
    const CardMapGroup& g = map.groups[gi];
    const GroupLayout& layout = map.layouts[gi];
    ImGui::Text("%s  ·  %s  ·  %d Nodes, %zu cards, %d in use", g.gpu_model.c_str(), g.pools.c_str(), g.nodes,
                g.cards.size(), g.in_use);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 o(std::floor(origin.x), std::floor(origin.y));
    ImGui::PushID(static_cast<int>(gi));
    ImGui::InvisibleButton("cells", ImVec2(std::max(width, 1.0f), std::max(layout.height, 1.0f)));
    ImGui::PopID();
    const CellImage& image = map.images[gi];
    const ImTextureID texture =
        ui.image_textures == nullptr || !ImGui::IsItemVisible()
            ? nullptr
            : ui.image_textures->texture(map.generation, gi, image.width, image.height, image.rgba.data());
    const float clip_top = dl->GetClipRectMin().y - geometry.cell, clip_bottom = dl->GetClipRectMax().y;
    if (texture != nullptr)  // the group's cells, painted once per snapshot: one quad a frame
      dl->AddImage(texture, o, ImVec2(o.x + static_cast<float>(image.width), o.y + static_cast<float>(image.height)));
    else if (ImGui::IsItemVisible())  // no textures (headless): the cells as rectangles
      for (const CellPlace& c : layout.cells)
        if (const float y = o.y + c.y; y >= clip_top && y <= clip_bottom)
          draw_cell(dl, ImVec2(o.x + c.x, y), geometry.cell, s.nodes[c.ref.node], s.nodes[c.ref.node].cards[c.ref.card]);
    if (ImGui::IsItemHovered()) {
      const ImVec2 m = ImGui::GetIO().MousePos;
      CardRef ref;
      if (cell_at(layout, geometry, m.x - o.x, m.y - o.y, &ref)) {
        const NodeView& node = s.nodes[ref.node];
        card_tooltip(node, node.cards[ref.card], g);
        if (ImGui::IsItemClicked()) {
          ui.selected_node = node.name;
          ui.selected_card = node.cards[ref.card].id;
          ui.panel = PanelId::kNodes;
          ui.panel_forced = true;
        }
      }
    }
    ImGui::Dummy(ImVec2(1, kGroupGap - ImGui::GetStyle().ItemSpacing.y));
  }
  ImGui::EndChild();
}

}  // namespace chaintwin::viz
