// Workload <-> Kubernetes JSON (kind Workload): encoded as kueue.x-k8s.io/v1beta2 for serving a
// simulated cluster's Workloads (`chaintwin serve`); decoded from v1beta2 or v1beta1 (the fields
// read are spelled alike in both) for the live mode and `chaintwin snapshot`. Read and written:
// metadata, spec.queueName, priority, active (absent reads as true), podSets (count, absent reads
// as 1; the Pod template's labels, annotations, containers and initContainers with their requests
// (a restartable init container as restartPolicy: Always), nodeSelector, tolerations, required node
// affinity; the required topology level) and status
// (admission with its podSetAssignments, conditions, admissionChecks). A container's limits stand
// in for its missing requests, as the API server defaults them on the Pods. A topologyAssignment
// in Kueue's compact encoding (without `domains`) is not read. Errors name the field's path.
#pragma once

#include <nlohmann/json.hpp>

#include "model/result.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

nlohmann::json encode_workload(const Workload& workload);
Result<Workload> decode_workload(const nlohmann::json& document);

}  // namespace chaintwin::model
