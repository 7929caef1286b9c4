// Keeps what the model does not know when the live mode writes an object back. A replace (PUT)
// sends the whole object, so a field the model never decoded (a Kueue field from a newer release,
// another controller's annotation, spec.preemption of a ClusterQueue) would be wiped by it. The
// model's own reading of the object tells which fields those are: whatever the cluster sent that
// does not survive decode → encode. Those, and only those, are put back into the planned object;
// a field the model knows and the plan removes (a label the operator deletes) stays removed.
//
// Objects are compared key by key; list items are matched by their `name` where they have one
// (Kubernetes list-map keys), else by position when both lists have the same length.
#pragma once

#include <nlohmann/json.hpp>

namespace chaintwin::live {

// The parts of `sent` (the object as the cluster sent it) that `round_trip` (the model's encoding
// of its decoding) lacks; null when there are none.
nlohmann::json unknown_fields(const nlohmann::json& sent, const nlohmann::json& round_trip);

// `planned` with every `unknown` part put back where `planned` does not set it already.
nlohmann::json with_unknown_fields(nlohmann::json planned, const nlohmann::json& unknown);

}  // namespace chaintwin::live
