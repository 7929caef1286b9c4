// The whole window's content for one frame: the timeline strip on top and the panels as tabs
// below it, over the newest snapshot. Used by the window and by the headless smoke test, which
// draws it without any GL behind ImGui.
#pragma once

#include "viz/commands.h"
#include "viz/snapshot.h"
#include "viz/ui_state.h"

namespace chaintwin::viz {

// Draws into a window covering (0, 0)–(width, height). `snapshot` may be null (none yet).
void draw_dashboard(const Snapshot* snapshot, UiState& ui, CommandSink& commands, float width, float height);

}  // namespace chaintwin::viz
