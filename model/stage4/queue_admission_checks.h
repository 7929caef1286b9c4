// The AdmissionCheck references the NodeQueue reconciler writes on a ClusterQueue
// (node_queue.go fillClusterQueue, admissionCheckActive). A queue lists a check only while the
// check is Active, because Kueue turns a queue that lists a missing or inactive check inactive.
// Callers: the NodeQueue reconciler.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/cluster_state.h"

namespace chaintwin::model {

inline constexpr std::string_view kNodeDevicesAdmissionCheckName = "gpustack-node-devices";
inline constexpr std::string_view kNodeDevicesAdmissionCheckController = "worker.gpustack.ai/node-devices";
inline constexpr std::string_view kJointAdmissionCheckName = "gpustack-model-deployment-joint";

// The named AdmissionCheck exists and its Active condition is True.
bool admission_check_active(const ClusterState& state, std::string_view name);

// In order: gpustack-node-devices when the queue is accelerated, instance-type-derived-from-node
// is on and the check is Active; gpustack-model-deployment-joint when the setting is on and that
// check is Active (the code gates the joint check on the setting, whatever the docs say). Empty
// means no admissionChecksStrategy.
std::vector<std::string> queue_admission_checks(const ClusterState& state, bool acceleratable);

}  // namespace chaintwin::model
