// Which Kueue the twin behaves as: a version (v0.14.0 … v0.20) and the feature gates that change a
// scheduling decision, each defaulting as that version's pkg/features/kube_features.go does
// (docs/research/kueue-general-behaviour.md §2). A scenario names them (kueue.version,
// kueue.featureGates); the scheduler reads the gates only (KueueConfig::gates).
//
// Modelled gates:
//   FlavorFungibilityPreserveScanProgress (PR #13956, the fix of kueue#13658): beta and on by default
//   from v0.18.5 and v0.19.1 (absent in v0.19.0 and before v0.18.5). On, a Workload that did not fit
//   keeps where its flavor search stopped and resumes at the next flavor in its next cycle (the
//   record lives one cycle; a preemption issued clears it), so a TAS failure on the first flavor
//   moves on to the second. Off, the twin restarts the search at the first flavor every cycle,
//   which is v0.14's behaviour on a busy ClusterQueue (its record is dropped whenever a quota holder
//   of the queue changes).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chaintwin::model {

struct KueueVersion {
  int minor = 14;
  int patch = 8;
  bool operator==(const KueueVersion&) const = default;
  auto operator<=>(const KueueVersion&) const = default;
  std::string to_string() const;
};

// The version the twin follows when a scenario names none (kueue-semantics §1 is written against it).
inline constexpr KueueVersion kDefaultKueueVersion{14, 8};

// "v0.14.8" or "0.14.8" (a ".0" patch may be left out: "v0.19"), within v0.14.0 … v0.20.x.
std::optional<KueueVersion> parse_kueue_version(std::string_view text);

struct KueueFeatureGates {
  bool flavor_fungibility_preserve_scan_progress = false;
  // AdmissionFairSharing: alpha (off) in v0.14, beta and on from v0.15.
  bool admission_fair_sharing = false;
  // FairSharingPrioritizeNonBorrowing and FairSharingPreemptWithinNominal: beta and on from v0.17,
  // absent before (fair_sharing.h, fair_preemption.h).
  bool fair_sharing_prioritize_non_borrowing = false;
  bool fair_sharing_preempt_within_nominal = false;
  bool operator==(const KueueFeatureGates&) const = default;
};

// The gates as `version` ships them.
KueueFeatureGates default_feature_gates(KueueVersion version);

// The gates a scenario may set, by Kueue's names.
const std::vector<std::string>& modelled_feature_gates();
// Whether `gate` exists in `version` ("" when it does; else why not, e.g. "added in v0.18.5 and v0.19.1").
std::string feature_gate_absent(std::string_view gate, KueueVersion version);
// Sets a gate by Kueue's name; false for a name that is not modelled.
bool set_feature_gate(KueueFeatureGates& gates, std::string_view gate, bool on);

}  // namespace chaintwin::model
