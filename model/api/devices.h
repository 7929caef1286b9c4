// Devices (worker.gpustack.ai): the per-node record the Device Manager keeps — capability in
// spec.groups (what each accelerator can be), the allocation ledger in status.groups (what each
// accelerator holds). Field names follow api/worker/v1alpha1/devices.go.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/api/object_meta.h"

namespace chaintwin::model {

enum class DeviceAllocationMode : uint32_t {
  kNone = 0,
  kExclusive = 1,
  kShared = 2,
  kSliced = 3,
  kPartitioned = 4,
  kVisibility = 5,
};

// The operator's String(): unknown values render "None".
std::string_view to_string(DeviceAllocationMode mode);
// Parses a mode by name ("Sliced") or number ("3"); nullopt when neither.
std::optional<DeviceAllocationMode> parse_allocation_mode(std::string_view text);
DeviceAllocationMode allocation_mode_from_number(uint32_t value);

struct AcceleratorPlacement {
  int32_t start = 0;
  int32_t length = 0;
  bool operator==(const AcceleratorPlacement&) const = default;
};

struct AcceleratorPhysicalSlicedProfile {
  std::string name;  // vendor spelling, e.g. 1g.5gb or 4g48gb
  int64_t memory_mib = 0;
  int32_t compute_slices = 0;
  int32_t memory_slices = 0;
  int32_t count = 0;  // static ceiling: instances on an empty accelerator
  std::vector<AcceleratorPlacement> placements;
  bool operator==(const AcceleratorPhysicalSlicedProfile&) const = default;
};

struct AcceleratorLogicalSliced {
  bool cores_percentage_overcommit = false;
  int32_t count = 0;  // max logical slices; 0 when partitioning is enabled
  bool operator==(const AcceleratorLogicalSliced&) const = default;
};

struct AcceleratorPhysicalSliced {
  std::vector<AcceleratorPhysicalSlicedProfile> profiles;
  int32_t count = 0;  // max Count over profiles
  bool operator==(const AcceleratorPhysicalSliced&) const = default;
};

struct AcceleratorStatus {
  bool unhealthy = false;
  AcceleratorLogicalSliced logical_sliced;
  AcceleratorPhysicalSliced physical_sliced;
  bool operator==(const AcceleratorStatus&) const = default;
};

struct Accelerator {
  std::string id;  // UUID
  uint32_t index = 0;
  std::vector<uint32_t> physical_indexes;
  std::string topology_json;  // DeviceTopology kept verbatim (not used by the chain)
  AcceleratorStatus status;
  bool operator==(const Accelerator&) const = default;
};

struct AcceleratorSlicedPhysicalDetailProfile {
  std::string name;
  int32_t count = 0;
  int64_t memory_mib = 0;
  bool operator==(const AcceleratorSlicedPhysicalDetailProfile&) const = default;
};

struct AcceleratorSlicedDetail {
  AcceleratorLogicalSliced logical;  // {coresPercentageOvercommit, count}
  struct Physical {
    std::vector<AcceleratorSlicedPhysicalDetailProfile> profiles;
    int32_t count = 0;
    bool operator==(const Physical&) const = default;
  } physical;
  bool operator==(const AcceleratorSlicedDetail&) const = default;
};

struct DevicesGroup {
  std::string id;  // group id; aKey = manufacturer + "-" + id
  std::string manufacturer;
  std::string name;     // product name
  uint64_t memory = 0;  // MiB
  uint32_t cores = 0;
  std::string driver_version, runtime_version, compute_capability, family;
  std::vector<Accelerator> accelerators;
  AcceleratorSlicedDetail accelerator_sliced_detail;
  bool operator==(const DevicesGroup&) const = default;
};

struct AcceleratorProfileCount {
  std::string name;
  int32_t count = 0;
  bool operator==(const AcceleratorProfileCount&) const = default;
};

// One row of the ledger: what one accelerator holds.
struct AcceleratorAllocation {
  std::string id;
  uint32_t index = 0;
  DeviceAllocationMode mode = DeviceAllocationMode::kNone;
  int32_t allocated = 0;
  int32_t remaining = 0;  // credit units; seeded at M
  int32_t allocated_slices = 0;
  std::vector<AcceleratorProfileCount> allocated_profiles;
  std::vector<AcceleratorProfileCount> remaining_profiles;
  // Live partition instances with their memory-slice placement. The real ledger carries these
  // only in transit; the simulator keeps them to recompute the published counts above by
  // placement. Readers of the ledger use the published counts, as the operator does.
  struct Instance {
    std::string profile;  // vendor spelling
    AcceleratorPlacement placement;
    bool operator==(const Instance&) const = default;
  };
  std::vector<Instance> instances;
  // Model-only: who holds what on this card, one entry per container charge, so the allocator
  // can give back exactly what a Pod took (and do it once). Not part of the Devices API; the
  // operator rebuilds the same knowledge from the Pods' allocation annotations.
  struct Charge {
    std::string holder;  // "<namespace>/<pod>/<container>"
    DeviceAllocationMode mode = DeviceAllocationMode::kNone;
    int32_t units = 0;   // credit units taken from `remaining`
    int32_t slices = 0;  // logical slice slots taken (0 or 1)
    std::string profile;  // partitions: the instance's vendor profile; "" otherwise
    int32_t start = 0;    // partitions: the instance's first memory slice
    bool operator==(const Charge&) const = default;
  };
  std::vector<Charge> charges;
  bool operator==(const AcceleratorAllocation&) const = default;
};

struct DevicesAllocationGroup {
  std::string id;
  std::string manufacturer;
  std::vector<AcceleratorAllocation> accelerators;
  bool operator==(const DevicesAllocationGroup&) const = default;
};

struct DevicesSpec {
  std::vector<DevicesGroup> groups;
  std::string interfaces_json;  // spec.interfaces kept verbatim (RDMA inventory, not modelled)
  bool operator==(const DevicesSpec&) const = default;
};

struct DevicesStatus {
  std::vector<DevicesAllocationGroup> groups;
  bool operator==(const DevicesStatus&) const = default;
};

struct Devices {
  ObjectMeta metadata;  // same name as the Node
  DevicesSpec spec;
  DevicesStatus status;
  bool operator==(const Devices&) const = default;
};

}  // namespace chaintwin::model
