// The operator's two Kueue AdmissionChecks as a pure reconciler: gpustack-node-devices
// (controllerName worker.gpustack.ai/node-devices, Gate 3) and gpustack-model-deployment-joint
// (worker.gpustack.ai/model-deployment-joint). The worker applies both at startup
// (kuberess, spec only, label app.kubernetes.io/part-of=gpustack-operator); their controllers
// (NodeDevicesAdmissionCheckReconciler, ModelDeploymentJointAdmissionCheckReconciler) mark a
// check they own Active=True, reason Ready, whenever it is not already True. A check whose
// controllerName is someone else's is left alone, as the controllers' predicates do.
//
// Twin simplification: the startup apply is modelled as "create when missing" on every pass,
// so a deleted check comes back at once (the real worker re-applies it on its next restart).
#pragma once

#include <cstdint>
#include <string_view>

#include "model/stage4/plan.h"

namespace chaintwin::model {

inline constexpr std::string_view kAdmissionCheckController = "AdmissionCheck";

inline constexpr std::string_view kNodeDevicesAdmissionCheck = "gpustack-node-devices";
inline constexpr std::string_view kNodeDevicesControllerName = "worker.gpustack.ai/node-devices";
inline constexpr std::string_view kJointAdmissionCheck = "gpustack-model-deployment-joint";
inline constexpr std::string_view kJointControllerName = "worker.gpustack.ai/model-deployment-joint";

// How long Gate 3 asks Kueue to hold a Workload it answered Retry (the per-Workload
// AdmissionCheckState's requeueAfterSeconds, _NodeDevicesRetryAfterSeconds). It is not a field of
// the AdmissionCheck object: the applied object carries no retryDelayMinutes.
inline constexpr int64_t kNodeDevicesRetryAfterSeconds = 30;

// The object the worker applies (no status).
AdmissionCheck desired_admission_check(std::string_view name, std::string_view controller_name);

// The Active condition the owning controller writes (reason Ready, its own message).
Condition admission_check_active_condition(std::string_view controller_name);

// Creates of missing checks, then status updates that mark owned checks Active.
Plan reconcile_admission_checks(const ClusterState& state);

}  // namespace chaintwin::model
