// The AdmissionCheck reconciler: the worker's startup apply and the two activation controllers.
#include "model/stage4/admission_check_reconciler.h"

#include <array>
#include <utility>

namespace chaintwin::model {
namespace {

struct OwnedCheck {
  std::string_view name;
  std::string_view controller_name;
  std::string_view activator;  // the operator controller that marks it Active
};

constexpr std::array<OwnedCheck, 2> kOwnedChecks = {{
    {kNodeDevicesAdmissionCheck, kNodeDevicesControllerName, "NodeDevicesAdmissionCheckReconciler"},
    {kJointAdmissionCheck, kJointControllerName, "ModelDeploymentJointAdmissionCheckReconciler"},
}};

const OwnedCheck* owner_of(std::string_view controller_name) {
  for (const auto& c : kOwnedChecks)
    if (c.controller_name == controller_name) return &c;
  return nullptr;
}

}  // namespace

AdmissionCheck desired_admission_check(std::string_view name, std::string_view controller_name) {
  AdmissionCheck ac;
  ac.metadata.name = std::string(name);
  ac.metadata.labels["app.kubernetes.io/part-of"] = "gpustack-operator";
  ac.controller_name = std::string(controller_name);
  return ac;
}

Condition admission_check_active_condition(std::string_view controller_name) {
  Condition c;
  c.type = "Active";
  c.status = "True";
  c.reason = "Ready";
  c.message = controller_name == kJointControllerName
                  ? "the model deployment joint admission check controller is running"
                  : "the node-devices admission check controller is running";
  return c;
}

Plan reconcile_admission_checks(const ClusterState& state) {
  Plan plan;
  const std::string controller(kAdmissionCheckController);
  for (const auto& check : kOwnedChecks) {
    if (state.admission_checks.count(std::string(check.name)) != 0) continue;
    plan.writes.push_back({WriteVerb::kCreate, desired_admission_check(check.name, check.controller_name), controller,
                           "the worker applies AdmissionCheck " + std::string(check.name) + " at startup"});
  }
  for (const auto& [name, ac] : state.admission_checks) {
    const OwnedCheck* owner = owner_of(ac.controller_name);
    if (owner == nullptr || ac.active()) continue;
    AdmissionCheck activated = ac;
    set_condition(activated.conditions, admission_check_active_condition(ac.controller_name));
    plan.writes.push_back({WriteVerb::kUpdateStatus, std::move(activated), controller,
                           std::string(owner->activator) + " marks AdmissionCheck " + name + " Active"});
  }
  return plan;
}

}  // namespace chaintwin::model
