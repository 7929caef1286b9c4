// FlavorScan: where a Workload's flavor search stopped (flavor_assigner.h records it; the
// QueueManager keeps it between cycles under FlavorFungibilityPreserveScanProgress).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace chaintwin::model {

// Where a Workload's flavor search stopped, per PodSet and resource group (Kueue's
// AssignmentClusterQueueState.LastTriedFlavorIdx): the index of the last flavor attempted, or -1
// when the group's last flavor was attempted (the next search starts over).
struct FlavorScan {
  std::vector<std::vector<int32_t>> tried;  // [pod set][resource group]; absent: -1
  // The index a resumed search of that group starts at (tried + 1; 0 when nothing is recorded).
  int32_t next(std::size_t pod_set, std::size_t group) const {
    if (pod_set >= tried.size() || group >= tried[pod_set].size()) return 0;
    return tried[pod_set][group] + 1;
  }
  // Kueue's PendingFlavors: some group has flavors left to try.
  bool pending_flavors() const {
    for (const auto& ps : tried)
      for (const int32_t t : ps)
        if (t != -1) return true;
    return false;
  }
  bool operator==(const FlavorScan&) const = default;
};

}  // namespace chaintwin::model
