// Accelerator populations (pkg/device/population.go): which family a card can serve, from its
// reported capability. A card feeds exactly one of {exclusive, shared, sliced} or partitioned.
#pragma once

#include <cstdint>

#include "model/api/devices.h"

namespace chaintwin::model {

// physicalSliced.count > 0 — partitioning wins over logical slicing.
bool is_partitioned(const AcceleratorStatus& s);
// logicalSliced.count > 0 and not partitioned.
bool is_logically_sliceable(const AcceleratorStatus& s);
// Can be granted whole or shared: not partitioned.
bool is_whole_accelerator_capable(const AcceleratorStatus& s);
// Free logical slots: logicalSliced.count - allocatedSlices when sliceable (may read negative
// when over-allocated), 0 otherwise.
int32_t logical_slots_free(const AcceleratorStatus& s, int32_t allocated_slices);
// A partitioned card's ledger row is ready once it lists allocated or remaining profiles.
bool partition_ledger_ready(const AcceleratorAllocation* allocation);

}  // namespace chaintwin::model
