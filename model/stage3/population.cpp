#include "model/stage3/population.h"

namespace chaintwin::model {

bool is_partitioned(const AcceleratorStatus& s) { return s.physical_sliced.count > 0; }

bool is_logically_sliceable(const AcceleratorStatus& s) {
  return s.logical_sliced.count > 0 && !is_partitioned(s);
}

bool is_whole_accelerator_capable(const AcceleratorStatus& s) { return !is_partitioned(s); }

int32_t logical_slots_free(const AcceleratorStatus& s, int32_t allocated_slices) {
  if (!is_logically_sliceable(s)) return 0;
  return s.logical_sliced.count - allocated_slices;
}

bool partition_ledger_ready(const AcceleratorAllocation* allocation) {
  return allocation != nullptr &&
         (!allocation->allocated_profiles.empty() || !allocation->remaining_profiles.empty());
}

}  // namespace chaintwin::model
