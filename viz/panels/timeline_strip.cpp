// The timeline controls above every panel: play/pause, speed, step to the next event, seek to a
// time, and where the run stands (time, events, progress to its end).
#include <imgui.h>
#include <imgui_stdlib.h>

#include <cmath>

#include "viz/panels/panels.h"
#include "viz/units_text.h"

namespace chaintwin::viz {

void draw_timeline_strip(const Snapshot& s, UiState& ui, CommandSink& commands) {
  if (s.live) {  // a real cluster has no clock to drive
    ImGui::TextColored(ImVec4(0.13f, 0.77f, 0.37f, 1), "LIVE");
    ImGui::SameLine();
    ImGui::Text("%s | %lld objects | %zu write(s) the operator would make", s.source.c_str(),
                static_cast<long long>(s.events), s.drift.size());
    return;
  }
  if (ImGui::Button(s.playing ? "Pause" : "Play", ImVec2(60, 0)))
    commands.send({s.playing ? Command::Kind::kPause : Command::Kind::kPlay, 0, 0});
  ImGui::SameLine();
  if (ImGui::Button("Step", ImVec2(50, 0))) commands.send({Command::Kind::kStep, 0, 0});
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("process the next event");
  ImGui::SameLine();
  // Speed on a log scale: 1 s to 1 day of simulated time per wall second.
  float exponent = s.speed > 0 ? static_cast<float>(std::log10(s.speed)) : 2.0f;
  ImGui::SetNextItemWidth(160);
  const std::string speed_label = time_text(static_cast<int64_t>(std::pow(10.0, exponent) + 0.5) * 1'000'000) + " / s";
  if (ImGui::SliderFloat("##speed", &exponent, 0.0f, 4.94f, speed_label.c_str()))
    commands.send({Command::Kind::kSpeed, 0, std::pow(10.0, static_cast<double>(exponent))});
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("simulated time per wall-clock second");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110);
  const bool entered = ImGui::InputTextWithHint("##seek", "e.g. 2h, 1d00:30:00", &ui.seek_text,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  int64_t at = 0;
  const bool valid = parse_time(ui.seek_text, &at);
  if ((ImGui::Button("Seek") || entered) && valid) commands.send({Command::Kind::kSeek, at, 0});
  if (!ui.seek_text.empty() && !valid) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.94f, 0.27f, 0.27f, 1), "not a time");
  }
  ImGui::SameLine();
  const float frac = s.end_us > 0 ? static_cast<float>(static_cast<double>(s.now_us) / static_cast<double>(s.end_us)) : 0.0f;
  const std::string progress = time_text(s.now_us) + " of " + time_text(s.end_us) + (s.finished ? (s.now_us >= s.end_us ? " (end)" : " (no events left)") : "");
  ImGui::ProgressBar(frac, ImVec2(300, 0), progress.c_str());
  ImGui::SameLine();
  ImGui::Text("%lld %s | %s | %s", static_cast<long long>(s.events), s.from_file ? "log lines" : "events",
              s.scenario.c_str(), s.source.c_str());
}

}  // namespace chaintwin::viz
