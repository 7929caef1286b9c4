// Pending work: every Workload that waits, filtered by ClusterQueue and text, sorted by any column,
// grouped by the kind of its wait ("407 × topology doesn't fit", the largest group first) or in
// one list; for each, how long it has waited since it last entered the queue, what it asks, its
// place in its queue, its evictions and retries, and its last message in full on hover (an
// evicted one's eviction first). Clicking a row opens it in the Workloads panel, which explains
// why it waits. The choice of rows is viz/pending_work.h.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/pending_reasons.h"
#include "viz/pending_work.h"
#include "viz/state_palette.h"
#include "viz/units_text.h"

namespace chaintwin::viz {
namespace {

constexpr int kColumns = 7;

// The table of `members` (indexes into `items`); its header sorts the whole view.
void items_table(const char* id, const Snapshot& s, UiState& ui, const std::vector<PendingItem>& items,
                 const std::vector<size_t>& members, float height) {
  if (!begin_list_table(id, kColumns, ImVec2(0, height), ImGuiTableFlags_Sortable)) return;
  ImGui::TableSetupColumn("Workload", 0, 220, static_cast<ImGuiID>(PendingSort::kWorkload));
  ImGui::TableSetupColumn("ClusterQueue", 0, 260, static_cast<ImGuiID>(PendingSort::kClusterQueue));
  ImGui::TableSetupColumn("waiting", 0, 95, static_cast<ImGuiID>(PendingSort::kWait));
  ImGui::TableSetupColumn("asks", 0, 85, static_cast<ImGuiID>(PendingSort::kRequested));
  ImGui::TableSetupColumn("position", ImGuiTableColumnFlags_DefaultSort, 70, static_cast<ImGuiID>(PendingSort::kPosition));
  ImGui::TableSetupColumn("evicted/retried", 0, 95, static_cast<ImGuiID>(PendingSort::kEvictions));
  ImGui::TableSetupColumn("why it waits", ImGuiTableColumnFlags_WidthStretch, 0, static_cast<ImGuiID>(PendingSort::kReason));
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs != nullptr && specs->SpecsDirty) {
    if (specs->SpecsCount > 0) {
      ui.pending_sort = static_cast<int>(specs->Specs[0].ColumnUserID);
      ui.pending_descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    }
    specs->SpecsDirty = false;
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(members.size()));
  while (clipper.Step())
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const PendingItem& item = items[members[static_cast<size_t>(r)]];
      const WorkloadRow& w = s.workloads[item.row];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      if (ImGui::Selectable((w.key + "##pending").c_str(), ui.selected_workload == w.key,
                            ImGuiSelectableFlags_SpanAllColumns)) {
        ui.selected_workload = w.key;  // the Workloads panel explains it
        ui.panel = PanelId::kWorkloads;
        ui.panel_forced = true;
      }
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(w.cluster_queue.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(time_text(item.waiting_us / 1'000'000 * 1'000'000).c_str());  // whole seconds
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(w.resource.empty() ? "-" : quantity_short(w.resource, w.requested).c_str());
      if (!w.resource.empty()) tooltip(quantity_text(w.resource, w.requested));
      ImGui::TableSetColumnIndex(4);
      if (w.queue_position > 0) ImGui::Text("%d", w.queue_position);
      else ImGui::TextDisabled("-");
      ImGui::TableSetColumnIndex(5);
      ImGui::Text("%d/%d", w.evictions, w.retries);
      ImGui::TableSetColumnIndex(6);
      if (!item.eviction.empty()) {
        ImGui::TextColored(im_colour_vec(workload_phase_colour(WorkloadPhase::kEvicted)), "evicted: %s",
                           item.eviction.c_str());
        tooltip("evicted: " + item.eviction + "\nwaits: " + w.reason);
      } else {
        ImGui::TextUnformatted(w.reason.c_str());
        tooltip(w.reason);
      }
    }
  ImGui::EndTable();
}

void queue_combo(const Snapshot& s, UiState& ui) {
  ImGui::SetNextItemWidth(300);
  if (!ImGui::BeginCombo("##pendingqueue", ui.pending_queue.empty() ? "every ClusterQueue" : ui.pending_queue.c_str()))
    return;
  if (ImGui::Selectable("every ClusterQueue", ui.pending_queue.empty())) ui.pending_queue.clear();
  for (const auto& p : s.pools)
    if (ImGui::Selectable(p.cluster_queue.c_str(), ui.pending_queue == p.cluster_queue)) ui.pending_queue = p.cluster_queue;
  ImGui::EndCombo();
}

}  // namespace

void draw_pending_panel(const Snapshot& s, UiState& ui) {
  // A pool selected elsewhere (Pools, --select) narrows the view until another is chosen here.
  if (ui.selected_queue != ui.pending_selection_seen) {
    ui.pending_queue = ui.selected_queue;
    ui.pending_selection_seen = ui.selected_queue;
  }
  queue_combo(s, ui);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(240);
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s", ui.pending_text.c_str());
  if (ImGui::InputTextWithHint("##pendingtext", "filter: Workload, queue, message", buf, sizeof buf)) ui.pending_text = buf;
  ImGui::SameLine();
  ImGui::Checkbox("group by reason", &ui.pending_grouped);
  const PendingQuery query{ui.pending_queue, ui.pending_text, static_cast<PendingSort>(ui.pending_sort),
                           ui.pending_descending};
  const std::vector<PendingItem> items = pending_items(s.workloads, s.now_us, query);
  size_t waiting = 0, evicted = 0;
  for (const auto& w : s.workloads) waiting += is_waiting(w) ? 1 : 0;
  for (const auto& it : items) evicted += !it.eviction.empty();
  ImGui::SameLine();
  ImGui::TextDisabled("  %zu shown of %zu waiting (%zu evicted and queued again); click one to see why it waits",
                      items.size(), waiting, evicted);
  if (!ui.pending_grouped) {
    std::vector<size_t> all(items.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    items_table("pending", s, ui, items, all, 0);
    return;
  }
  ImGui::BeginChild("pendinggroups");
  const std::vector<PendingGroup> groups = group_by_reason(items);
  for (size_t g = 0; g < groups.size(); ++g) {
    const PendingGroup& group = groups[g];
    const std::string title = grouped(static_cast<int64_t>(group.items.size())) + " × " + group.kind + "###" + group.kind;
    ImGui::SetNextItemOpen(g == 0, ImGuiCond_Once);
    if (!ImGui::CollapsingHeader(title.c_str())) continue;
    const float rows = static_cast<float>(std::min<size_t>(group.items.size(), 16) + 1);
    items_table(("pending-" + group.kind).c_str(), s, ui, items, group.items,
                rows * ImGui::GetTextLineHeightWithSpacing() + 12);
  }
  ImGui::EndChild();
}

}  // namespace chaintwin::viz
