// PlotTextures: how the Plan panel turns a PlanView's images into something ImGui::Image draws.
// The window's implementation uploads each image as an OpenGL texture once and keeps it while the
// same PlanView is shown (viz/window_app.cpp); the headless tests pass a fake or none (the panel
// then draws a framed placeholder per plot).
#pragma once

#include <imgui.h>

#include <cstddef>
#include <memory>

#include "viz/plan_view.h"

namespace chaintwin::viz {

class PlotTextures {
 public:
  virtual ~PlotTextures() = default;
  // The texture of `view`->plots[index], made on first use; null when it cannot be made.
  virtual ImTextureID texture(const std::shared_ptr<const PlanView>& view, size_t index) = 0;
};

}  // namespace chaintwin::viz
