// Workload -> Kubernetes JSON (kueue.x-k8s.io/v1beta2, kind Workload), for serving a simulated
// cluster's Workloads (`chaintwin serve`): metadata, spec.queueName, priority, active, podSets
// (count, the Pod template's requests, node selector, required topology) and status (admission
// with its podSetAssignments, conditions, admissionChecks). Encoding only: nothing reads Workloads
// back yet.
#pragma once

#include <nlohmann/json.hpp>

#include "model/workload/workload.h"

namespace chaintwin::model {

nlohmann::json encode_workload(const Workload& workload);

}  // namespace chaintwin::model
