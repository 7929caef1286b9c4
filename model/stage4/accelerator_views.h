// The four accelerator views of an InstanceType's status (EX / SH / SL / PT), computed from the
// Devices records of the nodes backing its pool, counting only the cards of the type's
// accelerator group. Every card feeds exactly one side, by the capability it reports: an
// unpartitioned card feeds EX / SH / SL (read from its ledger row), a partitioned card feeds PT
// (enumerated from the capability side, its ledger row joined in; a card without a usable row
// counts at its catalog ceilings). Callers: the InstanceType status (instance_type_status.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/api/devices.h"
#include "model/api/instance_type.h"

namespace chaintwin::model {

struct AcceleratorViews {
  // EX: capacity = unpartitioned cards; remaining = wholly free cards (remaining >= M);
  // onceMaxRequest = the largest single node's free cards.
  InstanceTypeCapacityView exclusive;
  // SH: capacity = unpartitioned cards x 10; remaining = Σ remaining / (M/10) over free and
  // Shared-mode cards; onceMaxRequest = the largest single node's count of cards with at least
  // one free share (the docs' current reading; operator code and recorded outputs sum the
  // node's shares instead).
  InstanceTypeCapacityView shared;
  // SL: capacity = logically sliceable cards x 100; remaining = Σ remaining / (M/100) over free
  // and Sliced-mode sliceable cards; onceMaxRequest = the freest such card's percent.
  InstanceTypeCapacityView sliced;
  // PT: capacity = Σ card ceilings; remaining = Σ per card of its largest per-profile free
  // count; onceMaxRequest = 1 while any card can host an instance, else 0; remainingProfiles
  // lists every offered profile (published name) even at 0, allocatedProfiles the profiles
  // with live instances.
  InstanceTypePartitionedView partitioned;
  // Why a card was read the way it was when the placement model refused its ledger (the
  // card then counts from the ledger's own published per-profile counts, as the operator
  // reads them). Empty in the normal case.
  std::vector<std::string> notes;
  bool operator==(const AcceleratorViews&) const = default;
};

// `pool` holds one Devices record per backing node (each node once). `accelerator_group` is
// the aKey ("<manufacturer>-<group id>"); groups are matched on that full key because a bare
// group id can repeat across manufacturers.
AcceleratorViews accelerator_views(const std::vector<const Devices*>& pool, std::string_view accelerator_group);

}  // namespace chaintwin::model
