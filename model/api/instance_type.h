// InstanceType (worker.gpustack.ai, cluster-scoped): the admin-facing unit of capacity backing the
// ClusterQueue of the same name. Field names follow the operator's InstanceTypeSpec; only what the
// chain reads or the operator authors is modelled so far (stage 4 extends it).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/api/devices.h"
#include "model/kueue/kueue_objects.h"
#include "model/api/object_meta.h"

namespace chaintwin::model {

// The per-unit CPU and RAM, held as the strings the API carries ("8", "64Gi").
struct InstanceTypeUnitResources {
  std::string cpu;
  std::string ram;
  bool operator==(const InstanceTypeUnitResources&) const = default;
};

// Hardware descriptors of the pool (manufacturer, product, family, per-card memory, cores).
struct InstanceTypeDescriptors {
  std::string manufacturer;
  std::string product;
  std::string family;
  std::string memory;  // per-card VRAM, e.g. "24Gi"
  std::string cores;
  bool operator==(const InstanceTypeDescriptors&) const = default;
};

struct InstanceTypeSpec {
  std::string display_name;  // <= 64 runes, admin-editable
  bool inactive = false;
  // Identity: which pool the type schedules onto.
  bool acceleratable = false;
  std::string accelerator_group;  // aKey; required when acceleratable
  std::string general_group;      // gKey or the sentinel "generic"
  std::string os;
  std::string arch;
  InstanceTypeDescriptors descriptors;
  // Unit spec: immutable after creation.
  InstanceTypeUnitResources unit_resources;
  std::string local_storage;  // e.g. "100Gi"
  std::string description;    // free-form admin note (<= 1024 runes)
  bool operator==(const InstanceTypeSpec&) const = default;
};

// One of the four accelerator views (EX / SH / SL / PT) or the CPU view of the status:
// `kubectl get instancetypes` shows onceMaxRequest/remaining.
struct InstanceTypeCapacityView {
  int64_t capacity = 0;
  int64_t once_max_request = 0;
  int64_t remaining = 0;
  bool operator==(const InstanceTypeCapacityView&) const = default;
};

struct InstanceTypePartitionedView {
  InstanceTypeCapacityView view;
  std::map<std::string, int64_t> remaining_profiles;  // published name -> instances; every offered profile, even 0
  std::map<std::string, int64_t> allocated_profiles;
  bool operator==(const InstanceTypePartitionedView&) const = default;
};

struct InstanceTypeDetail {
  AcceleratorSlicedDetail sliced_detail;  // the static capability catalog (Devices spec), never availability
  std::string manufacturer, product, family, compute_capability;
  std::string memory, cores;  // accelerated types only
  std::string cpu;            // the CPU descriptor (the flavor's cpuDetail note), as JSON text
  bool operator==(const InstanceTypeDetail&) const = default;
};

struct InstanceTypeStatus {
  std::string phase;     // "Active" | "Inactive" | "Draining" | "Activating"
  std::string phase_message;  // why the phase, e.g. "instance type is terminating"
  std::string entrance;       // the LocalQueue name
  InstanceTypeCapacityView accelerator;         // EX: whole cards
  InstanceTypeCapacityView accelerator_shared;  // SH: shares
  InstanceTypeCapacityView accelerator_sliced;  // SL: percent of a card
  InstanceTypePartitionedView accelerator_partitioned;  // PT: instances
  InstanceTypeCapacityView cpu;                 // CPU cores
  InstanceTypeDetail detail;
  std::vector<Condition> conditions;
  bool operator==(const InstanceTypeStatus&) const = default;
};

struct InstanceType {
  ObjectMeta metadata;
  InstanceTypeSpec spec;
  InstanceTypeStatus status;
  bool operator==(const InstanceType&) const = default;
};

}  // namespace chaintwin::model
