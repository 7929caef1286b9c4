// Pools: one row per InstanceType/ClusterQueue with its quota, usage and demand, the four
// accelerator views, its stop policy and its topology condition. Sortable, filterable; a click
// selects the queue for the credits chart and the chain graph.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "viz/bar_fill.h"
#include "viz/drift_marks.h"
#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/pending_reasons.h"
#include "viz/pool_order.h"
#include "viz/state_palette.h"
#include "viz/units_text.h"

namespace chaintwin::viz {

namespace {

// Right-click on a pool: open one of its views, the pool selected.
void pool_links(const std::string& queue, UiState& ui) {
  if (!ImGui::BeginPopupContextItem(("links" + queue).c_str())) return;
  static constexpr std::pair<const char*, PanelId> kLinks[] = {
      {"its Workloads", PanelId::kWorkloads}, {"its pending work", PanelId::kPending},
      {"its credits over time", PanelId::kCredits}, {"its drains", PanelId::kDrains}, {"its chain graph", PanelId::kChain}};
  ImGui::TextDisabled("%s", queue.c_str());
  for (const auto& [label, panel] : kLinks)
    if (ImGui::MenuItem(label)) {
      ui.selected_queue = queue;
      ui.panel = panel;
      ui.panel_forced = true;
    }
  ImGui::EndPopup();
}

}  // namespace

void draw_pools_panel(const Snapshot& s, UiState& ui) {
  ImGui::SetNextItemWidth(260);
  ImGui::InputTextWithHint("##poolfilter", "filter by name", &ui.pool_filter);
  ImGui::SameLine();
  ImGui::TextDisabled("%zu pools; bar: admitted | reserved | pending demand (hatched), full width = nominal quota; views: onceMaxRequest/remaining",
                      s.pools.size());
  constexpr ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                    ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX | ImGuiTableFlags_Resizable |
                                    ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("pools", 13, flags)) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  // Widths 0: each column fits its widest value (openb's long names and numbers are not cut).
  ImGui::TableSetupColumn("pool (ClusterQueue)", ImGuiTableColumnFlags_DefaultSort);
  ImGui::TableSetupColumn("families");
  ImGui::TableSetupColumn("nominal");
  ImGui::TableSetupColumn("usage", 0, 130);
  ImGui::TableSetupColumn("reserved", ImGuiTableColumnFlags_NoSort);
  ImGui::TableSetupColumn("pending / why");
  ImGui::TableSetupColumn("P/R/A wl", ImGuiTableColumnFlags_NoSort);
  ImGui::TableSetupColumn("EX cards", ImGuiTableColumnFlags_NoSort);
  ImGui::TableSetupColumn("SH shares", ImGuiTableColumnFlags_NoSort);
  ImGui::TableSetupColumn("SL %", ImGuiTableColumnFlags_NoSort);
  ImGui::TableSetupColumn("PT inst.", ImGuiTableColumnFlags_NoSort);
  ImGui::TableSetupColumn("CPU cores", ImGuiTableColumnFlags_NoSort);
  ImGui::TableSetupColumn("stop policy / topology");  // the table scrolls sideways when the columns are wider
  ImGui::TableHeadersRow();

  PoolSort sort = PoolSort::kName;
  bool descending = false;
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs != nullptr && specs->SpecsCount > 0) {
    static constexpr PoolSort kByColumn[] = {PoolSort::kName,    PoolSort::kFamily, PoolSort::kNominal,
                                             PoolSort::kUsage,   PoolSort::kUsage,  PoolSort::kPending,
                                             PoolSort::kName,    PoolSort::kName,   PoolSort::kName,
                                             PoolSort::kName,    PoolSort::kName,   PoolSort::kName,
                                             PoolSort::kStopPolicy};
    sort = kByColumn[std::clamp<int>(specs->Specs[0].ColumnIndex, 0, 12)];
    descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
  }
  if (ui.pool_reasons == nullptr || !(ui.pool_reasons->stamp == SnapshotStamp::of(s)))
    ui.pool_reasons = std::make_shared<PoolReasons>(pool_reasons(s));
  for (const size_t i : pool_order(s.pools, ui.pool_filter, sort, descending)) {
    const PoolRow& p = s.pools[i];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    const std::string label = (p.display_name.empty() ? p.cluster_queue : p.display_name) + "##" + p.cluster_queue;
    if (ImGui::Selectable(label.c_str(), ui.selected_queue == p.cluster_queue, ImGuiSelectableFlags_SpanAllColumns))
      ui.selected_queue = ui.selected_queue == p.cluster_queue ? "" : p.cluster_queue;
    tooltip(p.cluster_queue + "\nphase " + (p.phase.empty() ? "-" : p.phase) + ", resource " + p.resource +
            "\nright-click: its Workloads, pending work, credits, drains, chain");
    pool_links(p.cluster_queue, ui);
    if (!p.display_name.empty() && p.display_name != p.cluster_queue) {  // the ClusterQueue beside its display name
      ImGui::SameLine();
      ImGui::TextDisabled("%s", p.cluster_queue.c_str());
    }
    ImGui::TableSetColumnIndex(1);
    for (size_t f = 0; f < p.families.size(); ++f) {
      if (f > 0) ImGui::SameLine(0, 4);
      ImGui::TextColored(im_colour_vec(family_colour(p.families[f])), "%s", std::string(family_label(p.families[f])).c_str());
    }
    tooltip("the families the pool has capacity in (InstanceType status views with capacity > 0)");
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(quantity_short(p.resource, p.nominal).c_str());
    tooltip(quantity_text(p.resource, p.nominal));
    ImGui::TableSetColumnIndex(3);
    quota_bar(bar_fill(p.nominal, p.reserved, p.admitted, p.pending_demand), family_colour(p.family), 120, 14);
    tooltip("reserved " + quantity_text(p.resource, p.reserved) + "\nadmitted " + quantity_text(p.resource, p.admitted) +
            "\npending demand " + quantity_text(p.resource, p.pending_demand) + "\nnominal " +
            quantity_text(p.resource, p.nominal));
    ImGui::TableSetColumnIndex(4);
    // Reserved of nominal, and the share (of a pool with no quota: none).
    const std::string share = p.nominal > 0 ? " " + std::to_string(static_cast<int>(
                                                        static_cast<double>(p.reserved) * 100.0 / static_cast<double>(p.nominal) + 0.5)) + " %"
                                            : "";
    // The unit is the nominal column's: the numbers alone here.
    const auto number = [&](int64_t v) {
      const std::string t = quantity_short(p.resource, v);
      return t.substr(0, t.find(' '));
    };
    ImGui::Text("%s/%s%s", number(p.reserved).c_str(), number(p.nominal).c_str(), share.c_str());
    tooltip("reserved of nominal quota (Kueue's flavorsReservation over the ClusterQueue's nominalQuota)");
    ImGui::TableSetColumnIndex(5);
    ImGui::TextUnformatted(quantity_short(p.resource, p.pending_demand).c_str());
    if (const auto& reasons = ui.pool_reasons->by_queue[p.cluster_queue]; !reasons.empty()) {
      ImGui::SameLine();
      badge(std::to_string(reasons.front().count) + " " + short_reason(reasons.front().kind), {0xfd, 0xba, 0x74, 0xff});
      std::string all = "pending Workloads by why they wait:";
      for (const auto& r : reasons) all += "\n" + std::to_string(r.count) + " x " + r.kind;
      tooltip(all + "\n(the Workloads panel, pending view, has each message in full)");
    }
    ImGui::TableSetColumnIndex(6);
    ImGui::Text("%d/%d/%d", p.pending_workloads, p.reserving_workloads, p.admitted_workloads);
    tooltip("pending / reserving / admitted Workloads (ClusterQueue status)");
    const std::string* views[] = {&p.view_ex, &p.view_sh, &p.view_sl, &p.view_pt, &p.view_cpu};
    static constexpr const char* kViewUnits[] = {
        "whole cards (accelerator)", "shares, 10 per card (acceleratorShared)",
        "percent of a card, 100 per sliceable card (acceleratorSliced)", "MIG instances (acceleratorPartitioned)",
        "cores (cpu)"};
    for (int v = 0; v < 5; ++v) {
      ImGui::TableSetColumnIndex(7 + v);
      ImGui::TextUnformatted(views[v]->empty() ? "-" : views[v]->c_str());
      tooltip(std::string("onceMaxRequest/remaining, in ") + kViewUnits[v]);
    }
    ImGui::TableSetColumnIndex(12);
    static constexpr const char* kPolicy[] = {"None", "Hold", "HoldAndDrain"};
    badge(kPolicy[static_cast<int>(p.stop_policy)], stop_policy_colour(p.stop_policy));
    if (pool_drifts(s, p.cluster_queue)) {
      ImGui::SameLine();
      badge("drift", kDriftColour);
      tooltip("the operator would still write this pool's ClusterQueue or InstanceType (see the Drift tab)");
    }
    if (p.empty_plan_hold) {
      ImGui::SameLine();
      badge("empty plan", {0x93, 0xc5, 0xfd, 0xff});
      tooltip("topology.gpustack.ai/empty-plan-hold: held until the queue has a flavor");
    }
    if (!p.migration_phase.empty()) {
      ImGui::SameLine();
      badge("migration: " + p.migration_phase, {0xf9, 0x73, 0x16, 0xff});
    }
    if (!p.topology_ready.empty()) {
      ImGui::SameLine();
      ImGui::TextColored(im_colour_vec(topology_ready_colour(p.topology_ready)), "TopologyReady=%s",
                         p.topology_ready.c_str());
      tooltip("reason: " + p.topology_reason);
    }
  }
  ImGui::EndTable();
}

}  // namespace chaintwin::viz
