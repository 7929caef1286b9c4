// Shadow mode's verdict: what the operator should write to the observed cluster and has not. The
// operator's controllers run on the observed state to their fixpoint (the same reconcilers the
// simulator runs); every write they would make is one drift row: the object, the verb, the
// controller and its reason. Kueue's own writes, which the fixpoint emulates because the operator
// reads them, are left out: the real Kueue makes them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/result.h"
#include "model/cluster_state.h"
#include "model/stage4/plan.h"

namespace chaintwin::live {

struct DriftRow {
  std::string kind, name, verb, controller, reason;
  bool operator==(const DriftRow&) const = default;
};

struct Drift {
  std::vector<model::Write> writes;  // in the order the operator would make them
  std::vector<DriftRow> rows;        // one per write
};

// `now` is the RFC 3339 time the controllers stamp (conditions' lastTransitionTime).
model::Result<Drift> compute_drift(const model::ClusterState& observed, const std::string& now);

// The wall clock as RFC 3339 (UTC, seconds): the `now` a live reconcile stamps.
std::string wall_clock_rfc3339();

std::string drift_table(const std::vector<DriftRow>& rows);
nlohmann::json drift_json(const DriftRow& row);

}  // namespace chaintwin::live
