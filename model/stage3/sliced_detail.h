// A Devices group's slicing summary (pkg/device/sliced.go AggregateAcceleratorSlicedDetail):
// what the group's cards can be sliced into, summed over its cards. It reads capability only,
// so it never moves with carving. Detectors fill DevicesGroup::accelerator_sliced_detail with it;
// the InstanceType status reports it as slicedDetail.
#pragma once

#include <span>

#include "model/api/devices.h"

namespace chaintwin::model {

// Logical count summed; the overcommit flag set when any logically sliceable card (count > 0)
// has it; physical count summed; physical profiles summed by name in first-seen order, each
// carrying the memoryMib of its first occurrence.
AcceleratorSlicedDetail aggregate_accelerator_sliced_detail(std::span<const Accelerator> accelerators);

// Sets group.accelerator_sliced_detail from the group's own cards.
void set_group_sliced_detail(DevicesGroup& group);

}  // namespace chaintwin::model
