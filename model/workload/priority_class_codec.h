// WorkloadPriorityClass (kueue.x-k8s.io/v1beta1, v1beta2) and PriorityClass (scheduling.k8s.io/v1)
// <-> Kubernetes JSON. Decoding refuses by path what the API server refuses: a missing or
// non-int32 value, and a PriorityClass value above 1000000000 unless its name starts "system-"
// (Kubernetes' HighestUserDefinablePriority).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "model/result.h"
#include "model/workload/priority_class.h"

namespace chaintwin::model {

Result<WorkloadPriorityClass> decode_workload_priority_class(const nlohmann::json& document);
Result<PriorityClass> decode_priority_class(const nlohmann::json& document);
nlohmann::json encode_workload_priority_class(const WorkloadPriorityClass& c);
nlohmann::json encode_priority_class(const PriorityClass& c);

}  // namespace chaintwin::model
