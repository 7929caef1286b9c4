// The GUI's panels, one per file in this folder. Each draws one aspect of a Snapshot into the
// current ImGui window; it may change the UiState (selection, filters) and send Commands, never
// the snapshot or anything behind it.
#pragma once

#include "viz/commands.h"
#include "viz/snapshot.h"
#include "viz/ui_state.h"

namespace chaintwin::viz {

void draw_timeline_strip(const Snapshot& s, UiState& ui, CommandSink& commands);  // play, speed, step, seek
void draw_pools_panel(const Snapshot& s, UiState& ui);
void draw_credits_panel(const Snapshot& s, UiState& ui);
void draw_nodes_panel(const Snapshot& s, UiState& ui);
void draw_card_map_panel(const Snapshot& s, UiState& ui);  // every card of the cluster, a cell each
void draw_workloads_panel(const Snapshot& s, UiState& ui);
void draw_pending_panel(const Snapshot& s, UiState& ui);  // the waiting Workloads, grouped by reason
void draw_drains_panel(const Snapshot& s, UiState& ui);
void draw_chain_panel(const Snapshot& s, UiState& ui);
void draw_events_panel(const Snapshot& s, UiState& ui);
void draw_drift_panel(const Snapshot& s, UiState& ui);
void draw_compare_panel(const Snapshot& s, UiState& ui);  // two runs side by side, per pool and GPU model
void draw_plan_panel(const Snapshot& s, UiState& ui);  // a capacity plan's summary and plots
// Within the Workloads panel: why the selected Workload waits (Snapshot::explanation).
void draw_explanation(const Snapshot& s, const std::string& workload);

}  // namespace chaintwin::viz
