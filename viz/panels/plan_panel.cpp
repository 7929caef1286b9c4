// Plan: a capacity plan's results (`chaintwin plan`): its name, the recommendation line by line,
// and its plots, the same images the plan writes as PNGs. All plots in a grid (as many columns as
// fit, each scaled to its cell with its aspect kept), or one alone, picked in the selector or by
// clicking it, scaled to the panel. The images become textures once, through UiState::plot_textures.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "viz/panels/panels.h"
#include "viz/plot_layout.h"
#include "viz/plot_textures.h"

namespace chaintwin::viz {
namespace {

constexpr float kMinCell = 520;  // a plot narrower than this is hard to read: fewer columns

// The plot at the cursor, `size` big: its texture, or a framed placeholder with its title when
// there is none (headless, or the texture could not be made). True when it was clicked.
bool plot_image(const std::shared_ptr<const PlanView>& view, size_t index, PlotSize size, UiState& ui) {
  const PlanPlot& plot = view->plots[index];
  const ImVec2 extent(std::max(size.width, 1.0f), std::max(size.height, 1.0f));
  ImTextureID texture = ui.plot_textures != nullptr ? ui.plot_textures->texture(view, index) : nullptr;
  ImGui::PushID(static_cast<int>(index));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool clicked = ImGui::InvisibleButton("plot", extent);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  if (texture != nullptr) {
    draw->AddImage(texture, at, ImVec2(at.x + extent.x, at.y + extent.y));
  } else {
    draw->AddRectFilled(at, ImVec2(at.x + extent.x, at.y + extent.y), IM_COL32(255, 255, 255, 255));
    draw->AddRect(at, ImVec2(at.x + extent.x, at.y + extent.y), IM_COL32(120, 120, 120, 255));
    draw->AddText(ImVec2(at.x + 8, at.y + 8), IM_COL32(40, 40, 40, 255), plot.title.c_str());
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s (%dx%d)%s", plot.title.c_str(), plot.width, plot.height,
                      ui.plan_plot < 0 ? "\nclick to show it alone" : "\nclick to show every plot");
  ImGui::PopID();
  return clicked;
}

}  // namespace

void draw_plan_panel(const Snapshot& s, UiState& ui) {
  if (s.plan == nullptr) {
    ImGui::TextDisabled("No capacity plan is open in this window.");
    return;
  }
  const std::shared_ptr<const PlanView>& view = s.plan;
  ImGui::Text("Plan: %s", view->plan_name.c_str());
  for (const std::string& line : view->summary) ImGui::TextWrapped("%s", line.c_str());
  if (view->plots.empty()) {
    ImGui::Separator();
    ImGui::TextDisabled("This plan has no plots.");
    return;
  }
  const int count = static_cast<int>(view->plots.size());
  if (ui.plan_plot >= count) ui.plan_plot = -1;
  ImGui::Separator();
  ImGui::SetNextItemWidth(420);
  const std::string current = ui.plan_plot < 0 ? "All plots (" + std::to_string(count) + ")"
                                               : view->plots[static_cast<size_t>(ui.plan_plot)].title;
  if (ImGui::BeginCombo("plot", current.c_str())) {
    if (ImGui::Selectable("All plots", ui.plan_plot < 0)) ui.plan_plot = -1;
    for (int i = 0; i < count; ++i) {
      const std::string item = view->plots[static_cast<size_t>(i)].title + "##" + std::to_string(i);
      if (ImGui::Selectable(item.c_str(), ui.plan_plot == i)) ui.plan_plot = i;
    }
    ImGui::EndCombo();
  }
  ImGui::BeginChild("plan_plots", ImVec2(0, 0), false);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (ui.plan_plot >= 0) {
    const PlanPlot& plot = view->plots[static_cast<size_t>(ui.plan_plot)];
    if (plot_image(view, static_cast<size_t>(ui.plan_plot), fit_plot(plot.width, plot.height, avail.x, avail.y), ui))
      ui.plan_plot = -1;
  } else {
    const int columns = plot_columns(count, avail.x, kMinCell);
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float cell = (avail.x - spacing * static_cast<float>(columns - 1)) / static_cast<float>(columns);
    for (int i = 0; i < count; ++i) {
      if (i % columns != 0) ImGui::SameLine();
      const PlanPlot& plot = view->plots[static_cast<size_t>(i)];
      if (plot_image(view, static_cast<size_t>(i), fit_plot(plot.width, plot.height, cell, 0), ui)) ui.plan_plot = i;
    }
  }
  ImGui::EndChild();
}

}  // namespace chaintwin::viz
