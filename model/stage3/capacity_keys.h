// Stage 3 capacity counting keys (pkg/worker/controllers/worker/node_capacity.go): the
// `.sliced.*` and `.partitioned.*` extended resources the worker patches into a managed Node's
// status.capacity from the Node's acceleratable labels and its same-named Devices record, and
// the JSON merge patch that converges the Node onto them. Called by the reconcile loop (and the
// CLI) through reconcile_capacity; the watch predicates use the *_changed functions.
//
// Keys live under each manufacturer's resource base and are summed over its models:
//   <base>.sliced.{units,cores-percentage,memory-percentage,memory-mib}  (logical population)
//   <base>.partitioned.units, <base>.partitioned.<kind>-<profile>        (partitioned population)
// Each family is gated on its bare device-plugin pool (<base>.sliced / <base>.partitioned) being
// positive in CAPACITY — never allocatable, which also reads 0 when merely saturated.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/api/devices.h"
#include "model/api/node.h"
#include "model/api/object_meta.h"
#include "model/result.h"

namespace chaintwin::model {

// Profile name (vendor spelling, as the Devices record has it) -> instance count.
using ProfileCounts = std::map<std::string, int64_t>;

// The counting keys a node should carry (desiredAcceleratorCapacity). Empty for an unmanaged
// node, a node without Devices, or one whose models can neither be sliced nor partitioned.
ResourceList desired_accelerator_capacity(const Node& node, const Devices* devices);

// Whether the counting keys read `devices`' ledger (Devices.status) at all: only through a
// partitioned card's instance counts (partition_instances_by_profile). For a Devices record without
// a partitioned card, a change to the ledger alone (Pods allocated or released) cannot move them.
bool capacity_reads_ledger(const Devices& devices);

// acceleratorCards: a group's cards split into the two populations that never overlap. A card
// with a physical (partition) capability is partitioned (IsPartitioned wins); otherwise one with
// a logical slice count is logical, and logical_slices sums those cards' slice counts; a card
// offering neither is in neither.
struct AcceleratorCards {
  int64_t logical = 0;
  int64_t logical_slices = 0;
  int64_t partitioned = 0;
  bool operator==(const AcceleratorCards&) const = default;
};
AcceleratorCards accelerator_cards(const DevicesGroup& group);

// One Devices status group's ledger rows by accelerator id (a later duplicate id wins).
using AcceleratorLedger = std::map<std::string, const AcceleratorAllocation*>;
// devicesLedgerByGroup: Devices.status groups keyed "<manufacturer>-<group id>" (the key the
// spec side uses; a later duplicate group wins), then by accelerator id. Empty for a null
// Devices. The rows point into `devices`.
std::map<std::string, AcceleratorLedger> devices_ledger_by_group(const Devices* devices);

// poolAdvertised: the manufacturer's bare device-plugin pool for `mode`
// (GetAcceleratableResourceName) is named and positive in the node's status.capacity — never
// allocatable. False when the manufacturer has no such pool (no partition kind).
bool pool_advertised(const Node& node, std::string_view manufacturer, DeviceAllocationMode mode);

// acceleratableCardMemoryMib: the per-card VRAM from the node label "<node_key>.memory"
// (node_key = acceleratable.feature.gpustack.ai/<aKey>), Quantity.Value() / 2^20; 0 when the
// label is absent or not a quantity.
int64_t acceleratable_card_memory_mib(const Node& node, std::string_view node_key);

// hasAcceleratorSuffix: `resource_name` is one of `suffixes` behind a name
// IsKnownAcceleratableResourceName accepts (so a foreign "example.com/foo.sliced.units" is not).
bool has_accelerator_suffix(std::string_view resource_name, std::span<const std::string_view> suffixes);

// Per profile offered by the group's partitioned accelerators: Σ (allocated + remaining) from
// the ledger, or the static ceiling for an accelerator whose ledger row is not ready. Every
// offered profile has an entry, even at 0. `ledger` is the group's status row (may be null).
ProfileCounts partition_instances_by_profile(const DevicesGroup& group, const DevicesAllocationGroup* ledger);
// The same from the group's rows by accelerator id (devices_ledger_by_group's entry).
ProfileCounts partition_instances_by_profile(const DevicesGroup& group, const AcceleratorLedger& ledger);
// The same for every spec group, keyed "<manufacturer>-<group id>"; the ledger row is looked up
// by manufacturer AND group id.
std::map<std::string, ProfileCounts> partition_instances_by_group(const Devices& devices);

// One of the keys this reconciler writes: a known accelerator base plus one of the five fixed
// suffixes, or a per-profile key (known base, its kind, non-empty tail). Never a bare pool.
bool is_owned_capacity_key(std::string_view resource_name);
// An owned key or a bare `.sliced` / `.partitioned` pool (the keys the Node watch reacts to).
bool is_accelerator_family_capacity_key(std::string_view resource_name);

// A JSON merge patch for status.capacity as a value: key -> canonical quantity string, or
// nullopt (JSON null) to delete the key.
using CapacityPatch = std::map<std::string, std::optional<std::string>>;

// Sets every desired key whose current value differs, nulls every owned key not desired;
// nullopt when nothing differs (no write).
std::optional<CapacityPatch> build_accelerator_capacity_patch(const ResourceList& desired,
                                                             const ResourceList& current);
// Applies a capacity merge patch (what the API server does with it). Refuses a value that is
// not a quantity.
Result<ResourceList> apply_capacity_patch(const ResourceList& capacity, const CapacityPatch& patch);

// Node update predicate: an owned key or a bare pool was added, removed or changed.
bool accelerator_family_capacity_changed(const ResourceList& old_capacity, const ResourceList& new_capacity);

// What the desired capacity is computed from, per Devices spec group.
struct AcceleratorSignature {
  int64_t logical_accelerators = 0;
  int64_t partitioned_accelerators = 0;
  int32_t logical_count = 0;        // acceleratorSlicedDetail.logical.count
  bool logical_overcommit = false;  // acceleratorSlicedDetail.logical.coresPercentageOvercommit
  std::string partition_profiles;   // sorted "name=count;..." of partition_instances_by_profile
  bool operator==(const AcceleratorSignature&) const = default;
};
// Keyed "<manufacturer>-<group id>"; empty for a null Devices.
std::map<std::string, AcceleratorSignature> accelerator_signatures(const Devices* devices);
// Devices update predicate: some group's signature moved (health flips and ledger churn that
// leaves every profile count alone do not fire).
bool accelerator_detail_changed(const Devices* old_devices, const Devices* new_devices);

// One NodeCapacityReconciler pass as a value.
struct CapacityDecision {
  ResourceList desired;                // the counting keys the node should carry
  std::optional<CapacityPatch> patch;  // nullopt: nothing to write
  Node node_after;                     // the node once the patch is applied to status.capacity
  std::vector<std::string> reasons;    // why, one line each
};
// Skips a node being deleted (no patch). node_after.status.allocatable is left as it was: the
// kubelet, not this reconciler, mirrors extended resources into allocatable.
CapacityDecision reconcile_capacity(const Node& node, const Devices* devices);

}  // namespace chaintwin::model
