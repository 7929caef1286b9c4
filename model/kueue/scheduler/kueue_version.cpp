#include "model/kueue/scheduler/kueue_version.h"

#include <charconv>

namespace chaintwin::model {
namespace {

constexpr std::string_view kPreserveScanProgress = "FlavorFungibilityPreserveScanProgress";
constexpr std::string_view kAdmissionFairSharing = "AdmissionFairSharing";
constexpr std::string_view kPrioritizeNonBorrowing = "FairSharingPrioritizeNonBorrowing";
constexpr std::string_view kPreemptWithinNominal = "FairSharingPreemptWithinNominal";

// The releases that carry the fix of kueue#13658: v0.18.5+ of the 0.18 line, v0.19.1+, v0.20 on.
bool has_preserve_scan_progress(KueueVersion v) {
  if (v.minor == 18) return v.patch >= 5;
  if (v.minor == 19) return v.patch >= 1;
  return v.minor >= 20;
}

bool read_int(std::string_view s, int& out) {
  if (s.empty() || s.size() > 4) return false;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::string KueueVersion::to_string() const { return "v0." + std::to_string(minor) + "." + std::to_string(patch); }

std::optional<KueueVersion> parse_kueue_version(std::string_view text) {
  if (!text.empty() && text.front() == 'v') text.remove_prefix(1);
  if (text.substr(0, 2) != "0.") return std::nullopt;
  text.remove_prefix(2);
  const auto dot = text.find('.');
  KueueVersion v{0, 0};
  if (!read_int(text.substr(0, dot), v.minor)) return std::nullopt;
  if (dot != std::string_view::npos && !read_int(text.substr(dot + 1), v.patch)) return std::nullopt;
  if (v.minor < 14 || v.minor > 20 || v.patch < 0) return std::nullopt;
  return v;
}

KueueFeatureGates default_feature_gates(KueueVersion version) {
  KueueFeatureGates g;
  g.flavor_fungibility_preserve_scan_progress = has_preserve_scan_progress(version);
  g.admission_fair_sharing = version.minor >= 15;
  g.fair_sharing_prioritize_non_borrowing = version.minor >= 17;
  g.fair_sharing_preempt_within_nominal = version.minor >= 17;
  return g;
}

const std::vector<std::string>& modelled_feature_gates() {
  static const std::vector<std::string> names{std::string(kAdmissionFairSharing), std::string(kPreemptWithinNominal),
                                              std::string(kPrioritizeNonBorrowing), std::string(kPreserveScanProgress)};
  return names;
}

std::string feature_gate_absent(std::string_view gate, KueueVersion version) {
  if (gate == kPreserveScanProgress && !has_preserve_scan_progress(version))
    return "it exists from v0.18.5, v0.19.1 and v0.20 on (" + version.to_string() + " has no such gate)";
  if ((gate == kPrioritizeNonBorrowing || gate == kPreemptWithinNominal) && version.minor < 17)
    return "it exists from v0.17.0 on (" + version.to_string() + " has no such gate)";
  return "";
}

bool set_feature_gate(KueueFeatureGates& gates, std::string_view gate, bool on) {
  struct Field {
    std::string_view name;
    bool KueueFeatureGates::*flag;
  };
  static constexpr Field kFields[] = {
      {kAdmissionFairSharing, &KueueFeatureGates::admission_fair_sharing},
      {kPreemptWithinNominal, &KueueFeatureGates::fair_sharing_preempt_within_nominal},
      {kPrioritizeNonBorrowing, &KueueFeatureGates::fair_sharing_prioritize_non_borrowing},
      {kPreserveScanProgress, &KueueFeatureGates::flavor_fungibility_preserve_scan_progress},
  };
  for (const Field& f : kFields)
    if (f.name == gate) {
      gates.*f.flag = on;
      return true;
    }
  return false;
}

}  // namespace chaintwin::model
