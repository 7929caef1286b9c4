#include "model/stage4/queue_admission_checks.h"

namespace chaintwin::model {

bool admission_check_active(const ClusterState& state, std::string_view name) {
  const auto it = state.admission_checks.find(std::string(name));
  return it != state.admission_checks.end() && it->second.active();
}

std::vector<std::string> queue_admission_checks(const ClusterState& state, bool acceleratable) {
  std::vector<std::string> checks;
  const bool derived = state.settings.instance_type_derived_from_node;
  if (acceleratable && derived && admission_check_active(state, kNodeDevicesAdmissionCheckName))
    checks.emplace_back(kNodeDevicesAdmissionCheckName);
  if (derived && admission_check_active(state, kJointAdmissionCheckName)) checks.emplace_back(kJointAdmissionCheckName);
  return checks;
}

}  // namespace chaintwin::model
