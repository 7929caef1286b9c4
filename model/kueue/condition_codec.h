// metav1.Condition lists <-> Kubernetes JSON, shared by every codec whose object reports
// conditions (ClusterQueue, AdmissionCheck, TopologySource, InstanceType). Writes type, status,
// reason, message and observedGeneration (when set); lastTransitionTime is not modelled, so it
// is ignored on decode and not written. A condition without a type, or whose status is not
// "True", "False" or "Unknown", is refused by path.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/kueue/kueue_objects.h"
#include "model/result.h"

namespace chaintwin::model {

nlohmann::json encode_conditions(const std::vector<Condition>& conditions);
Result<std::vector<Condition>> decode_conditions(const nlohmann::json& list);

namespace codec {
// For other codecs: decodes the condition list found at `path`, throwing DecodeError.
std::vector<Condition> decode_conditions_at(const nlohmann::json& list, const std::string& path);
}  // namespace codec

}  // namespace chaintwin::model
