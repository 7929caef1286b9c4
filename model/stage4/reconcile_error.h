// How a pure reconciler reports that the operator's Reconcile would have returned an error: a
// Requeue whose reason starts with "error: " and whose delay is 0 (controller-runtime retries an
// erroring key with its own exponential backoff, which the twin does not model). Nothing is
// written for that key in that pass, exactly as the operator writes nothing after the error.
// Used by the stage-4 reconcilers (node topology, node flavor).
#pragma once

#include <string>
#include <string_view>

#include "model/stage4/plan.h"

namespace chaintwin::model {

inline constexpr std::string_view kReconcileErrorPrefix = "error: ";

inline Requeue reconcile_error(std::string controller, std::string key, std::string_view message) {
  return Requeue{std::move(controller), std::move(key), 0, std::string(kReconcileErrorPrefix) + std::string(message)};
}

inline bool is_reconcile_error(const Requeue& r) {
  return r.after_seconds == 0 && r.reason.rfind(kReconcileErrorPrefix, 0) == 0;
}

}  // namespace chaintwin::model
