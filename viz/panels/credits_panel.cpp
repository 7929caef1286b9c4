// Credits over time: per pool, the reserved quota against the nominal quota as step lines over
// the run, the pending Workloads on a second scale, holds and drains shaded in their stop
// policy's colour, and a marker at the current time. The selected queue alone, or every pool.
#include <imgui.h>

#include <algorithm>

#include "viz/chart_axes.h"
#include "viz/panels/draw_helpers.h"
#include "viz/panels/panels.h"
#include "viz/series_steps.h"
#include "viz/units_text.h"
#include "viz/value_scale.h"

namespace chaintwin::viz {
namespace {

constexpr float kAxisHeight = 16;  // the time axis' labels under each chart

void chart(const PoolSeries& series, const Snapshot& s, const UiState& ui, Rgba colour, float width, float height) {
  const int64_t t0 = 0, t1 = chart_window_end(s.now_us, s.end_us, ui.credits_whole_run);
  const int n = std::max(2, static_cast<int>(width));
  const std::vector<float> nominal_raw = sample_steps(series.points, SeriesField::kNominal, t0, t1, n);
  const std::vector<float> used_raw = sample_steps(series.points, SeriesField::kUsed, t0, t1, n);
  const std::vector<float> pending = sample_steps(series.points, SeriesField::kPendingWorkloads, t0, t1, n);
  // In percent of nominal the reserved line is divided at each instant and the quota is the 100 % line.
  const auto scale = static_cast<ValueScale>(ui.credits_scale);
  const bool percent = scale == ValueScale::kPercentOfNominal;
  const std::vector<float> used = percent ? percent_of_nominal(used_raw, nominal_raw) : used_raw;
  const std::vector<float> nominal =
      percent ? std::vector<float>(nominal_raw.size(), 100.0f) : nominal_raw;
  const ValueAxis axis = value_axis(scale, percent ? std::vector<float>{} : nominal, used, series.resource);
  const float top_pending = std::max(1.0f, *std::max_element(pending.begin(), pending.end()));
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + width, p.y + height), IM_COL32(0x24, 0x28, 0x30, 0xff));
  // The shading shares the lines' axis (0..end), and stops at now like them.
  for (const Shade& sh : held_shades(series.points, t0, t1, s.now_us))
    dl->AddRectFilled(ImVec2(p.x + static_cast<float>(sh.x0) * width, p.y),
                      ImVec2(p.x + static_cast<float>(sh.x1) * width, p.y + height),
                      im_colour(stop_policy_colour(sh.stop_policy), 0.25f));
  const float now_x = p.x + width * static_cast<float>(std::clamp(static_cast<double>(s.now_us) / static_cast<double>(t1), 0.0, 1.0));
  // A step line as a polyline with two points per change only: a run of a million samples
  // stays a few hundred vertices, within ImGui's 16-bit draw lists.
  // `value_y`: a value's height on its own axis, as a fraction of the chart's.
  auto line = [&](const std::vector<float>& v, const auto& value_y, ImU32 c, float thickness) {
    const auto y = [&](float value) { return p.y + height - 2 - (height - 4) * static_cast<float>(value_y(value)); };
    std::vector<ImVec2> pts;
    pts.emplace_back(p.x, y(v[0]));
    for (int i = 1; i < n; ++i) {
      const float x = p.x + width * static_cast<float>(i) / static_cast<float>(n - 1);
      if (x > now_x) {
        pts.emplace_back(now_x, pts.back().y);  // nothing is known after now
        break;
      }
      const float prev = v[static_cast<size_t>(i - 1)], cur = v[static_cast<size_t>(i)];
      if (cur != prev) {
        pts.emplace_back(x, y(prev));
        pts.emplace_back(x, y(cur));
      } else if (i == n - 1) {
        pts.emplace_back(x, y(cur));
      }
    }
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), c, ImDrawFlags_None, thickness);
  };
  const auto on_axis = [&](float v) { return axis.fraction(v); };
  const auto on_pending = [&](float v) { return static_cast<double>(v / top_pending); };
  line(nominal, on_axis, IM_COL32(0xe5, 0xe7, 0xeb, 0xff), 1.0f);
  line(pending, on_pending, IM_COL32(0xea, 0xb3, 0x08, 0xc0), 1.0f);
  line(used, on_axis, im_colour(colour), 2.0f);
  dl->AddLine(ImVec2(now_x, p.y), ImVec2(now_x, p.y + height), IM_COL32(0xff, 0xff, 0xff, 0xc0), 1.0f);
  // The axes: time ticks under the chart, the quota scale on the left (top and middle), the
  // pending Workloads' own scale on the right.
  const ImU32 axis_colour = IM_COL32(0x9c, 0xa3, 0xaf, 0xff);
  for (const TimeTick& tick : time_ticks(t0, t1, std::max(2, static_cast<int>(width / 90)))) {
    const float x = p.x + width * static_cast<float>(static_cast<double>(tick.at_us - t0) / static_cast<double>(t1 - t0));
    dl->AddLine(ImVec2(x, p.y + height - 4), ImVec2(x, p.y + height + 2), axis_colour, 1.0f);
    const float text_x = std::min(x + 2, p.x + width - ImGui::CalcTextSize(tick.label.c_str()).x);
    dl->AddText(ImVec2(text_x, p.y + height + 1), axis_colour, tick.label.c_str());
  }
  for (const ValueTick& tick : axis.ticks) {
    const float y = p.y + height - 2 - (height - 4) * static_cast<float>(axis.fraction(tick.value));
    dl->AddLine(ImVec2(p.x, y), ImVec2(p.x + 6, y), axis_colour, 1.0f);
    dl->AddText(ImVec2(p.x + 8, std::clamp(y - 7, p.y + 1, p.y + height - 15)), axis_colour, tick.label.c_str());
  }
  // The quota above a fitted scale is held at the top: say where it really is.
  if (!percent && *std::max_element(nominal.begin(), nominal.end()) > axis.top) {
    const std::string above = "quota " + quantity_short(series.resource, static_cast<int64_t>(nominal.back())) + " above";
    dl->AddText(ImVec2(p.x + width / 2 - ImGui::CalcTextSize(above.c_str()).x / 2, p.y + 1), axis_colour, above.c_str());
  }
  const std::string pending_label = "pending " + std::to_string(static_cast<int>(top_pending));
  dl->AddText(ImVec2(p.x + width - ImGui::CalcTextSize(pending_label.c_str()).x - 3, p.y + 1),
              IM_COL32(0xea, 0xb3, 0x08, 0xff), pending_label.c_str());
  ImGui::Dummy(ImVec2(width, height + kAxisHeight));
  if (ImGui::IsItemHovered()) {
    const float fx = std::clamp((ImGui::GetIO().MousePos.x - p.x) / width, 0.0f, 1.0f);
    const size_t i = static_cast<size_t>(fx * static_cast<float>(n - 1));
    const int64_t at = t0 + static_cast<int64_t>(static_cast<double>(fx) * static_cast<double>(t1 - t0));
    ImGui::SetTooltip("%s\nreserved %s (%.1f %% of nominal)\nnominal %s\npending Workloads %d", time_text(at).c_str(),
                      quantity_text(series.resource, static_cast<int64_t>(used_raw[i])).c_str(),
                      nominal_raw[i] > 0 ? used_raw[i] / nominal_raw[i] * 100.0f : 0.0f,
                      quantity_text(series.resource, static_cast<int64_t>(nominal_raw[i])).c_str(),
                      static_cast<int>(pending[i]));
  }
}

}  // namespace

void draw_credits_panel(const Snapshot& s, UiState& ui) {
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("white: nominal quota; coloured: reserved; yellow: pending Workloads (own scale); shaded: held "
                      "(yellow Hold, red HoldAndDrain); vertical line: now. %s", ui.selected_queue.empty()
                                                                                ? "Every pool; click a pool in Pools to show one."
                                                                                : "Selected pool.");
  ImGui::PopTextWrapPos();
  ImGui::Checkbox("whole run", &ui.credits_whole_run);
  ImGui::SameLine();
  ImGui::TextDisabled(ui.credits_whole_run ? "(time axis: start to the horizon)" : "(time axis: start to now)");
  ImGui::SameLine();
  ImGui::TextUnformatted("   value scale:");
  for (ValueScale v : {ValueScale::kNominal, ValueScale::kFitted, ValueScale::kLog, ValueScale::kPercentOfNominal}) {
    ImGui::SameLine();
    ImGui::RadioButton(value_scale_name(v), &ui.credits_scale, static_cast<int>(v));
  }
  ImGui::BeginChild("charts");
  const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x - 10);
  // A selected pool's chart takes the panel's whole height.
  const float chart_height =
      ui.selected_queue.empty()
          ? 90.0f
          : std::max(90.0f, ImGui::GetContentRegionAvail().y - ImGui::GetTextLineHeightWithSpacing() - kAxisHeight - 12);
  for (const auto& series : s.series) {
    if (!ui.selected_queue.empty() && series.cluster_queue != ui.selected_queue) continue;
    Rgba colour = family_colour(Family::kCpu);
    for (const auto& p : s.pools)
      if (p.cluster_queue == series.cluster_queue) colour = family_colour(p.family);
    const SeriesPoint* last = series.points.empty() ? nullptr : &series.points.back();
    ImGui::Text("%s  (%s)  now: reserved %s of %s", series.cluster_queue.c_str(), series.resource.c_str(),
                last ? quantity_short(series.resource, last->used).c_str() : "-",
                last ? quantity_short(series.resource, last->nominal).c_str() : "-");
    // Each chart in its own child window, so its own draw list.
    ImGui::BeginChild(("chart" + series.cluster_queue + series.resource).c_str(),
                      ImVec2(width, chart_height + 2 + kAxisHeight), false, ImGuiWindowFlags_NoScrollbar);
    chart(series, s, ui, colour, width, chart_height);
    ImGui::EndChild();
    ImGui::Spacing();
  }
  ImGui::EndChild();
}

}  // namespace chaintwin::viz
