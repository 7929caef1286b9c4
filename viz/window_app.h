// The GUI's window: GLFW + OpenGL 3 + Dear ImGui drawing the dashboard over the newest snapshot
// of a source, sending the controls' commands to a sink. It never waits on the source: a frame
// draws whatever snapshot is newest. In screenshot mode it draws a few frames of one snapshot,
// writes the framebuffer as a PNG and returns.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/result.h"
#include "viz/commands.h"
#include "viz/ui_state.h"

namespace chaintwin::viz {

struct WindowOptions {
  int width = 1280, height = 800;
  std::string title = "chaintwin";
  std::optional<std::string> screenshot;  // write this PNG and return instead of running
  std::optional<PanelId> panel;           // the tab to open
  std::string select_queue;               // preselected pool (chain graph, credits)
  std::string select_node;                // preselected Node (nodes and cards, chain graph)
  std::string select_workload;            // preselected Workload (the Workloads panel explains it)
  int value_scale = 0;                    // the credits charts' value scale (viz::ValueScale)
  int screenshot_frames = 4;              // frames drawn before the capture (auto-sized items settle)
  // When set, the wall time of each screenshot frame after the fourth, from the start of the frame
  // to glFinish after its draw data is rendered, in milliseconds.
  std::vector<double>* frame_ms = nullptr;
};

// Runs until the window is closed (or the screenshot is written). Fails with the reason when no
// display or no OpenGL 3.3 context is available, or the PNG cannot be written.
model::Status run_window(const SnapshotSource& source, CommandSink& commands, const WindowOptions& options);

}  // namespace chaintwin::viz
