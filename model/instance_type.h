// InstanceType (worker.gpustack.ai, cluster-scoped): the admin-facing unit of capacity backing the
// ClusterQueue of the same name. Field names follow the operator's InstanceTypeSpec; only what the
// chain reads or the operator authors is modelled so far (stage 4 extends it).
#pragma once

#include <string>

#include "model/object_meta.h"

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
  bool operator==(const InstanceTypeSpec&) const = default;
};

struct InstanceType {
  ObjectMeta metadata;
  InstanceTypeSpec spec;
  bool operator==(const InstanceType&) const = default;
};

}  // namespace chaintwin::model
