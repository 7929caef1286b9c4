#include "model/stage4/queue_status.h"

#include <algorithm>

namespace chaintwin::model {
namespace {

bool resource_usage_nonzero(const ResourceUsage& u) { return !u.total.is_zero() || !u.borrowed.is_zero(); }

// A flavor listed in `usage` with every resource at zero.
bool listed_idle(const std::vector<FlavorUsage>& usage, const std::string& flavor) {
  const auto it = std::find_if(usage.begin(), usage.end(), [&](const FlavorUsage& u) { return u.name == flavor; });
  if (it == usage.end()) return false;
  return std::none_of(it->resources.begin(), it->resources.end(), resource_usage_nonzero);
}

}  // namespace

bool has_reserved(const ClusterQueueStatus& status) {
  if (status.reserving_workloads != 0 || status.admitted_workloads != 0) return true;
  return std::any_of(status.flavors_reservation.begin(), status.flavors_reservation.end(), [](const FlavorUsage& f) {
    return std::any_of(f.resources.begin(), f.resources.end(), resource_usage_nonzero);
  });
}

bool observed_at_current_generation(const ClusterQueue& cq) {
  const Condition* active = find_condition(cq.status.conditions, kClusterQueueActiveCondition);
  return active != nullptr && active->observed_generation >= cq.metadata.generation;
}

bool stopped_at_current_generation(const ClusterQueue& cq) {
  if (!observed_at_current_generation(cq)) return false;
  const Condition* active = find_condition(cq.status.conditions, kClusterQueueActiveCondition);
  return active->status == "False" && active->reason == kClusterQueueActiveReasonStopped;
}

bool flavors_may_be_in_use(const ClusterQueue& cq, const std::vector<std::string>& flavors) {
  return std::any_of(flavors.begin(), flavors.end(), [&](const std::string& f) {
    return !listed_idle(cq.status.flavors_reservation, f) || !listed_idle(cq.status.flavors_usage, f);
  });
}

}  // namespace chaintwin::model
