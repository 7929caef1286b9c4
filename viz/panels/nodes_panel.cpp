// Nodes and cards: the Nodes on the left; for the selected one its flavors, capacity keys and fit
// labels, and each card drawn as a box in its mode's colour with its remaining credits, its
// logical slices used of its count, and for a partitioned card the map of its memory slices with
// every placed instance at its start and size. Clicking a card shows its ledger row.
#include <imgui.h>

#include <algorithm>

#include "viz/drift_marks.h"
#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/slot_map.h"
#include "viz/state_palette.h"
#include "viz/units_text.h"

namespace chaintwin::viz {
namespace {

constexpr float kCardWidth = 196, kCardHeight = 92;

// One card box; true when clicked.
bool card_box(const CardView& c, bool selected) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Rgba colour = card_mode_colour(c.mode);
  dl->AddRectFilled(p, ImVec2(p.x + kCardWidth, p.y + kCardHeight), IM_COL32(0x26, 0x2a, 0x33, 0xff), 4);
  dl->AddRect(p, ImVec2(p.x + kCardWidth, p.y + kCardHeight),
              selected ? IM_COL32(0xff, 0xff, 0xff, 0xff) : im_colour(colour), 4, 0, selected ? 2.0f : 1.0f);
  dl->AddRectFilled(ImVec2(p.x + 1, p.y + 1), ImVec2(p.x + kCardWidth - 1, p.y + 18), im_colour(colour, 0.8f), 4);
  const std::string title = "#" + std::to_string(c.index) + " " + c.mode + " · " + c.hardware_mode +
                            (c.unhealthy ? " (unhealthy)" : "");
  dl->AddText(ImVec2(p.x + 5, p.y + 2), IM_COL32(0x10, 0x10, 0x10, 0xff), title.c_str());
  const std::string remaining = "left " + grouped(c.remaining) + " cr";
  dl->AddText(ImVec2(p.x + 5, p.y + 21), IM_COL32(0xe5, 0xe7, 0xeb, 0xff), remaining.c_str());
  // Remaining credits as a bar of the card (1,600,000 = the whole card).
  const float frac = static_cast<float>(std::clamp<double>(static_cast<double>(c.remaining) / kCreditsPerCard, 0, 1));
  const ImVec2 b0(p.x + 5, p.y + 38), b1(p.x + kCardWidth - 5, p.y + 46);
  dl->AddRectFilled(b0, b1, IM_COL32(0x40, 0x44, 0x4c, 0xff));
  dl->AddRectFilled(b0, ImVec2(b0.x + (b1.x - b0.x) * frac, b1.y), IM_COL32(0x22, 0xc5, 0x5e, 0xff));
  std::string slices = c.slice_count > 0 ? "slices " + std::to_string(c.slices_used) + "/" + std::to_string(c.slice_count)
                        : c.hardware_mode == "MIG" ? std::to_string(c.instances.size()) + " MIG instance(s)"
                                                   : "no logical slices";
  if (c.hardware_mode == "MIG" && !c.ledger_ready) slices += ", ledger not ready";
  dl->AddText(ImVec2(p.x + 5, p.y + 49), IM_COL32(0xc0, 0xc4, 0xcc, 0xff), slices.c_str());
  if (!c.pending_mode.empty()) {  // flipped by the admin, the Device Manager has not re-detected it
    const std::string flip = "-> " + c.pending_mode;
    const ImVec2 size = ImGui::CalcTextSize(flip.c_str());
    const ImVec2 f0(p.x + kCardWidth - size.x - 9, p.y + 21);
    dl->AddRectFilled(f0, ImVec2(f0.x + size.x + 4, f0.y + size.y), IM_COL32(0xf9, 0x73, 0x16, 0xff), 3);
    dl->AddText(ImVec2(f0.x + 2, f0.y), IM_COL32(0x10, 0x10, 0x10, 0xff), flip.c_str());
  }
  if (c.memory_slices > 0) {
    const SlotMap map = slot_map(c.memory_slices, c.instances);
    const ImVec2 m0(p.x + 5, p.y + 67), m1(p.x + kCardWidth - 5, p.y + 87);
    const float w = m1.x - m0.x;
    for (int32_t i = 0; i < c.memory_slices; ++i) {
      const float x = m0.x + w * static_cast<float>(i) / static_cast<float>(c.memory_slices);
      dl->AddRect(ImVec2(x, m0.y), ImVec2(x + w / static_cast<float>(c.memory_slices), m1.y),
                  IM_COL32(0x60, 0x64, 0x6c, 0xff));
    }
    for (const SlotRect& r : map.instances) {
      const ImVec2 a(m0.x + w * static_cast<float>(r.x0) + 1, m0.y + 1), z(m0.x + w * static_cast<float>(r.x1) - 1, m1.y - 1);
      dl->AddRectFilled(a, z, r.conflict ? IM_COL32(0xef, 0x44, 0x44, 0xff) : im_colour(family_colour(Family::kPartitioned)));
      dl->PushClipRect(a, z, true);
      dl->AddText(ImVec2(a.x + 2, a.y + 2), IM_COL32(0x10, 0x10, 0x10, 0xff), r.label.c_str());
      dl->PopClipRect();
    }
  }
  ImGui::InvisibleButton(("card" + c.id).c_str(), ImVec2(kCardWidth, kCardHeight));
  const bool clicked = ImGui::IsItemClicked();
  std::string tip = c.product + " (" + c.accelerator_key + ")\n" + c.id + "\nremaining " + grouped(c.remaining) +
                    " cr of 1,600,000 (" + std::to_string(c.remaining * 100 / kCreditsPerCard) + " %)";
  tip += "\nhardware mode as detected: " + c.hardware_mode;
  if (!c.pending_mode.empty()) tip += "; flipped to " + c.pending_mode + ", waiting for the Device Manager to re-detect";
  for (const auto& inst : c.instances)
    tip += "\n" + inst.profile + " at memory slice " + std::to_string(inst.start) + ", " + std::to_string(inst.length) +
           " wide" + (inst.workload.empty() ? "" : ", held by " + inst.workload);
  for (const auto& room : c.profiles)
    if (room.remaining > 0) tip += "\ncan still build " + std::to_string(room.remaining) + " x " + room.published;
  tooltip(tip);
  return clicked;
}

// A MIG card: every offered profile with what is built and what can still be, then each instance
// with its placement and who holds it (a click opens the Workload).
void mig_details(const CardView& c, UiState& ui) {
  ImGui::Text("MIG card #%u: %s%s", c.index, c.ledger_ready ? "profiles by placement" : "ledger not ready, static ceilings",
              c.pending_mode.empty() ? "" : ("; flipped to " + c.pending_mode + ", not re-detected yet").c_str());
  constexpr ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("profiles", 4, flags)) {
    ImGui::TableSetupColumn("profile (published)");
    ImGui::TableSetupColumn("vendor");
    ImGui::TableSetupColumn("built");
    ImGui::TableSetupColumn("can still build");
    ImGui::TableHeadersRow();
    for (const auto& room : c.profiles) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(room.published.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(room.profile.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%d", room.allocated);
      ImGui::TableSetColumnIndex(3);
      if (room.remaining > 0) ImGui::Text("%d", room.remaining);
      else ImGui::TextDisabled("0");
    }
    ImGui::EndTable();
  }
  if (c.instances.empty() || !ImGui::BeginTable("instances", 4, flags)) return;
  ImGui::TableSetupColumn("instance");
  ImGui::TableSetupColumn("memory slices");
  ImGui::TableSetupColumn("Pod");
  ImGui::TableSetupColumn("Workload");
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < c.instances.size(); ++i) {
    const PlacedInstance& inst = c.instances[i];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(inst.profile.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%d..%d", inst.start, inst.start + inst.length - 1);
    ImGui::TableSetColumnIndex(2);
    if (inst.pod.empty()) ImGui::TextDisabled("none: carved, idle");
    else ImGui::TextUnformatted(inst.pod.c_str());
    ImGui::TableSetColumnIndex(3);
    if (inst.workload.empty()) {
      ImGui::TextDisabled("-");
    } else if (ImGui::Selectable((inst.workload + "##inst" + std::to_string(i)).c_str(), false)) {
      ui.selected_workload = inst.workload;
      ui.panel = PanelId::kWorkloads;
      ui.panel_forced = true;
    }
  }
  ImGui::EndTable();
}

}  // namespace

void draw_nodes_panel(const Snapshot& s, UiState& ui) {
  if (!s.state_note.empty()) ImGui::TextColored(ImVec4(0.9f, 0.75f, 0.3f, 1), "%s", s.state_note.c_str());
  ImGui::BeginChild("nodelist", ImVec2(250, 0), true);
  for (const auto& n : s.nodes) {
    const std::string label = n.name + "  (" + std::to_string(n.cards.size()) + " cards)" +
                              (n.terminating ? " leaving" : "") + "##" + n.name;
    const bool drifting = drifts(s, "Node", n.name) || drifts(s, "Devices", n.name);
    if (drifting) ImGui::PushStyleColor(ImGuiCol_Text, im_colour_vec(kDriftColour));
    if (ImGui::Selectable(label.c_str(), ui.selected_node == n.name)) {
      ui.selected_node = n.name;
      ui.selected_card.clear();
    }
    if (drifting) {
      ImGui::PopStyleColor();
      tooltip("the operator would still write this Node or its Devices (see the Drift tab)");
    }
  }
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("nodedetail", ImVec2(0, 0), false);
  const NodeView* node = nullptr;
  for (const auto& n : s.nodes)
    if (n.name == ui.selected_node) node = &n;
  if (node == nullptr && !s.nodes.empty()) node = &s.nodes.front();
  if (node == nullptr) {
    ImGui::TextDisabled("No Nodes in this cluster.");
    ImGui::EndChild();
    return;
  }
  ImGui::Text("Node %s%s", node->name.c_str(), node->ready ? "" : "  (unschedulable)");
  ImGui::TextDisabled("flavors:");
  ImGui::SameLine();
  if (node->flavors.empty()) ImGui::TextDisabled("none (the Node feeds no ResourceFlavor)");
  for (const auto& f : node->flavors) ImGui::TextWrapped("%s", f.c_str());
  if (ImGui::CollapsingHeader("capacity keys and fit labels", ImGuiTreeNodeFlags_DefaultOpen) &&
      ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp)) {
    for (const auto& [k, v] : node->capacity_keys) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(k.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(v.c_str());
    }
    for (const auto& [k, v] : node->fit_labels) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextColored(ImVec4(0.6f, 0.8f, 1, 1), "%s", k.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(v.c_str());
    }
    ImGui::EndTable();
  }
  ImGui::Text("Cards (%zu): colour = ledger mode, green bar = credits left, bottom row = memory slices", node->cards.size());
  const float avail = ImGui::GetContentRegionAvail().x;
  const int per_row = std::max(1, static_cast<int>(avail / (kCardWidth + 8)));
  for (size_t i = 0; i < node->cards.size(); ++i) {
    if (i % static_cast<size_t>(per_row) != 0) ImGui::SameLine();
    const CardView& c = node->cards[i];
    if (card_box(c, ui.selected_card == c.id)) ui.selected_card = ui.selected_card == c.id ? "" : c.id;
  }
  bool shown = false;
  for (const auto& c : node->cards)
    if (c.id == ui.selected_card) {
      shown = true;
      ImGui::Separator();
      if (c.hardware_mode == "MIG") mig_details(c, ui);
      ImGui::Text("Ledger row of card #%u (%s):", c.index, c.id.c_str());
      ImGui::TextUnformatted(c.ledger_row.c_str());
    }
  // No card selected: every MIG card's profiles and instances (a click on a card shows one).
  const auto mig = std::count_if(node->cards.begin(), node->cards.end(), [](const CardView& c) { return c.hardware_mode == "MIG"; });
  if (!shown && mig > 0) {
    ImGui::Separator();
    for (const auto& c : node->cards)
      if (c.hardware_mode == "MIG") {
        ImGui::PushID(c.id.c_str());
        mig_details(c, ui);
        ImGui::PopID();
      }
  }
  ImGui::EndChild();
}

}  // namespace chaintwin::viz
