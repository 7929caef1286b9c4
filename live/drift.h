// Shadow mode's verdict: what the operator should write to the observed cluster and has not. The
// operator's controllers run on the observed state to their fixpoint (the same reconcilers the
// simulator runs); every write they would make is one drift row: the object, the verb, the
// controller and its reason.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/result.h"
#include "model/stage4/cluster_state.h"

namespace chaintwin::live {

struct DriftRow {
  std::string kind, name, verb, controller, reason;
  bool operator==(const DriftRow&) const = default;
};

// `now` is the RFC 3339 time the controllers stamp (conditions' lastTransitionTime).
model::Result<std::vector<DriftRow>> compute_drift(const model::ClusterState& observed, const std::string& now);

std::string drift_table(const std::vector<DriftRow>& rows);
nlohmann::json drift_json(const DriftRow& row);

}  // namespace chaintwin::live
