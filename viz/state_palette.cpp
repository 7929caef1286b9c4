#include "viz/state_palette.h"

namespace chaintwin::viz {

Rgba card_mode_colour(std::string_view mode) {
  if (mode == "Exclusive") return family_colour(Family::kExclusive);
  if (mode == "Shared") return family_colour(Family::kShared);
  if (mode == "Sliced") return family_colour(Family::kSliced);
  if (mode == "Partitioned") return family_colour(Family::kPartitioned);
  return {0x4b, 0x55, 0x63, 0xff};  // idle: slate grey
}

Rgba card_mode_dim_colour(std::string_view mode) {
  const Rgba c = card_mode_colour(mode), bg = background_colour();
  const auto mix = [](uint8_t a, uint8_t b) { return static_cast<uint8_t>((a * 2 + b * 3) / 5); };
  return {mix(c.r, bg.r), mix(c.g, bg.g), mix(c.b, bg.b), 0xff};
}

Rgba event_colour(std::string_view kind, std::string_view message) {
  constexpr Rgba kGreen{0x22, 0xc5, 0x5e, 0xff}, kRed{0xef, 0x44, 0x44, 0xff}, kOrange{0xf9, 0x73, 0x16, 0xff},
      kYellow{0xea, 0xb3, 0x08, 0xff}, kAmber{0xfb, 0xbf, 0x24, 0xff}, kBlue{0x60, 0xa5, 0xfa, 0xff},
      kViolet{0xc0, 0x84, 0xfc, 0xff}, kTeal{0x2d, 0xd4, 0xbf, 0xff}, kGrey{0x9c, 0xa3, 0xaf, 0xff},
      kWhite{0xe5, 0xe7, 0xeb, 0xff};
  const auto has = [&](std::string_view part) { return message.find(part) != std::string_view::npos; };
  if (kind == "expect") return message.rfind("holds", 0) == 0 ? kGreen : message.rfind("FAILED", 0) == 0 ? kRed : kGrey;
  if (kind == "check") return has(" Rejected:") ? kRed : has(" Retry:") ? kAmber : has(" Ready:") ? kGreen : kGrey;
  if (kind == "Evicted") return kOrange;
  if (kind == "Admitted" || kind == "PodRunning") return kGreen;
  if (kind == "Pending" || kind == "Requeued") return kYellow;
  if (kind == "QuotaReserved") return kTeal;
  if (kind == "write") return kBlue;
  if (kind == "action") return kViolet;
  if (kind == "arrival" || kind == "start") return kWhite;
  return kGrey;  // QuotaReleased, Finished, PodsDeleted, ...
}

Rgba workload_phase_colour(WorkloadPhase phase) {
  switch (phase) {
    case WorkloadPhase::kPending: return {0xea, 0xb3, 0x08, 0xff};   // yellow
    case WorkloadPhase::kAdmitted: return {0x22, 0xc5, 0x5e, 0xff};  // green
    case WorkloadPhase::kEvicted: return {0xf9, 0x73, 0x16, 0xff};   // orange
    case WorkloadPhase::kFinished: return {0x9c, 0xa3, 0xaf, 0xff};  // grey
    case WorkloadPhase::kRejected: return {0xef, 0x44, 0x44, 0xff};  // red
  }
  return {0xff, 0xff, 0xff, 0xff};
}

std::string_view workload_phase_label(WorkloadPhase phase) {
  switch (phase) {
    case WorkloadPhase::kPending: return "Pending";
    case WorkloadPhase::kAdmitted: return "Admitted";
    case WorkloadPhase::kEvicted: return "Evicted";
    case WorkloadPhase::kFinished: return "Finished";
    case WorkloadPhase::kRejected: return "Rejected";
  }
  return "?";
}

Rgba topology_ready_colour(std::string_view status) {
  if (status == "True") return {0x22, 0xc5, 0x5e, 0xff};
  if (status == "False") return {0xef, 0x44, 0x44, 0xff};
  return {0x9c, 0xa3, 0xaf, 0xff};
}

Rgba background_colour() { return {0x1a, 0x1d, 0x23, 0xff}; }

}  // namespace chaintwin::viz
