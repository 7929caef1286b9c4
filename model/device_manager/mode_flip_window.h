// The window between an administrator's mode flip and the Device Manager's re-detection
// (operator-domain §5.1, §10.16). The admin flips a card with the vendor CLI, which refuses a busy
// card; the hardware is then in the new mode at once, but the Devices record, the ledger and the
// pool tokens the device plugin registered stay those of the old mode until the Device Manager
// restarts and re-detects. A Pod admitted in between whose Allocate lands on a flipped card fails
// with UnexpectedAdmissionError (nothing is charged, the capacity keys do not move); the flip
// itself sticks and takes effect at re-detection. Called by the simulator's set-partitioning
// action (check_mode_flip, flipped_cards) and by its Pod start (check_allocation_in_flip_window).
#pragma once

#include <cstdint>
#include <vector>

#include "model/api/devices.h"
#include "model/result.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// Cards of one node whose hardware mode no longer matches what the Device Manager detected.
struct PendingModeFlip {
  std::vector<int32_t> cards;  // node-wide card indexes, ascending, no duplicates
  bool mig = false;            // the hardware mode now: MIG (true) or logical (false)
  bool operator==(const PendingModeFlip&) const = default;
};

// The vendor CLI's verdict on flipping `cards` of `detected` to `mig`: the refusals of
// set_card_partitioning (unknown card, busy card, MIG on a model without MIG). Changes nothing.
Status check_mode_flip(const Devices& detected, const std::vector<int32_t>& cards, bool mig);

// The cards among `cards` whose detected mode differs from `mig` (the ones the flip changes),
// ascending and without duplicates.
std::vector<int32_t> flipped_cards(const Devices& detected, const std::vector<int32_t>& cards, bool mig);

// Merges a new flip into the pending ones of a node: a card flipped again takes the newest mode;
// a card flipped back to its detected mode is no longer pending.
std::vector<PendingModeFlip> merge_pending_flip(const Devices& detected, std::vector<PendingModeFlip> pending,
                                                const std::vector<int32_t>& cards, bool mig);

// Whether the device plugin's Allocate, granted `allocations` on the detected ledger, can succeed
// on the hardware: an error (the kubelet's UnexpectedAdmissionError message, "Allocate failed due
// to …, which is unexpected") when one names a card with a pending flip.
Status check_allocation_in_flip_window(const std::vector<ContainerAllocation>& allocations,
                                       const std::vector<PendingModeFlip>& pending);

}  // namespace chaintwin::model
