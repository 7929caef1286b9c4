// Gate 5 — the device plugin's Allocate and the ledger it keeps in Devices.status
// (pkg/devicemanager allocator). Called by the simulator's runner when a bound Pod starts
// (allocate_pod), finishes (release_pod, deleted=false) and is deleted (release_pod,
// deleted=true). Each ledger row is updated exactly as the Device Manager keeps it — mode,
// allocated, remaining, allocatedSlices, allocated/remainingProfiles — plus the model-only
// partition `instances` and per-holder `charges` that make release exact and idempotent.
//
// Card choice per family (all-or-nothing per Pod; on refusal nothing changes):
//   exclusive N   → the first N untouched whole-capable cards in ledger order;
//   shared N      → N distinct cards with a free ownership share (≤ 10 holders a card), the cards
//                   with the most free shares first (ties: ledger order) — Gate 3 spends them so;
//   a slice       → the most-occupied card that still fits its units and has a free slot (ties:
//                   position in the group), refused (FailedPrecondition) when none does — unless
//                   the sliced allocate gate is off (then clamped, see allocate_pod);
//   a partition   → select_partition_placements: the fullest partitioned card with a legal start.
// A card held in another mode is never chosen (the cross-mode refusal). Unhealthy cards are
// skipped. Visibility requests are not modelled here (they take no ledger room).
#pragma once

#include <string_view>
#include <vector>

#include "model/api/devices.h"
#include "model/result.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// The Pod status reason the kubelet writes when Allocate refuses (the Pod then fails).
inline constexpr std::string_view kUnexpectedAdmissionError = "UnexpectedAdmissionError";

// Allocates every accelerator-requesting container of `pod` on `devices`; a container already
// charged on this ledger (a retried Allocate) gets its existing grant back. On refusal the error
// starts with "FailedPrecondition: " and `devices` is unchanged. With `sliced_allocate_gate` false
// (GPUSTACK_DEVICE_PLUGIN_SLICED_ALLOCATE_GATE=false) a logical slice no card has the units for is
// allocated anyway on the freest card with a free slot, its remaining clamped at 0.
Result<std::vector<ContainerAllocation>> allocate_pod(Devices& devices, const Pod& pod,
                                                      bool sliced_allocate_gate = true);

// Gives back what `pod` holds. deleted=false (the Pod finished): exclusive and shared cards and
// logical slices are released, partitions and MetaX/Cambricon slices stay charged; with
// `release_terminated_pods` false (GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS=false) nothing is.
// deleted=true releases everything left. Idempotent per (pod, deleted). Returns whether the
// ledger moved (a charge released, or a card's mode settled back to none).
bool release_pod(Devices& devices, const Pod& pod, bool deleted, bool release_terminated_pods = true);

// Whether a charge of this mode, on a card of this manufacturer, outlives a finished Pod.
bool charge_outlives_finished_pod(DeviceAllocationMode mode, std::string_view manufacturer);

// Whether the Pod's allocation record names every accelerator-requesting container (Gate 3
// counts such a Pod as charged in the ledger).
bool pod_allocation_complete(const Pod& pod);

}  // namespace chaintwin::model
