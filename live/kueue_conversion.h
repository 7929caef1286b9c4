// Kueue's two served API versions, kueue.x-k8s.io/v1beta1 (Kueue up to v0.14) and v1beta2 (served
// from v0.15), converted the way Kueue's conversion functions do, for the fields that differ:
// ClusterQueue spec.cohort ↔ spec.cohortName and flavorFungibility's Borrow / Preempt ↔
// MayStopSearch; LocalQueue status.flavorUsage ↔ status.flavorsUsage; Workload
// status.accumulatedPastExexcutionTimeSeconds (v1beta1's spelling) ↔
// accumulatedPastExecutionTimeSeconds and spec.priorityClassSource + priorityClassName ↔
// spec.priorityClassRef. Everything else is spelled alike and passes unchanged; objects of other
// groups are returned as they are.
//
// The model works in v1beta2. The live mode converts what a v1beta1-only cluster sends up before
// decoding and what it writes down before sending; `serve --kueue-version v1beta1` converts the
// other way at its edge, so it can stand in for such a cluster.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

namespace chaintwin::live {

inline constexpr std::string_view kKueueGroup = "kueue.x-k8s.io";

nlohmann::json kueue_to_v1beta2(nlohmann::json object);
nlohmann::json kueue_to_v1beta1(nlohmann::json object);

}  // namespace chaintwin::live
