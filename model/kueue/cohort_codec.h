// Cohort <-> Kubernetes JSON (kueue.x-k8s.io/v1beta2, v1beta1 accepted): spec.parentName and
// spec.resourceGroups (the same shape as a ClusterQueue's) and spec.fairSharing.weight
// (fair_sharing_codec.h). Decoding refuses by path: a malformed or negative quantity, a parentName
// naming the Cohort itself.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "model/kueue/kueue_objects.h"
#include "model/result.h"

namespace chaintwin::model {

nlohmann::json encode_cohort(const Cohort& cohort);
Result<Cohort> decode_cohort(const nlohmann::json& document);

}  // namespace chaintwin::model
