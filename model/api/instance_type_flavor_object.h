// InstanceTypeFlavor (worker.gpustack.ai/v1, cluster-scoped, list-only): one entry of the
// read-only catalog of pools an InstanceType can be built on, projected from the operator's
// ResourceFlavor notes. No os/arch, no labels. The catalog itself is computed by
// model/stage4/instance_type_flavor.h; this header only holds the object.
#pragma once

#include <string>

#include "model/api/object_meta.h"

namespace chaintwin::model {

// Mirrors the identity part of InstanceTypeSpec so the catalog and an InstanceType read alike.
struct InstanceTypeFlavorSpec {
  bool acceleratable = false;
  std::string accelerator_group;  // aKey; empty for a generic pool
  std::string general_group;      // gKey, "generic", or empty (accelerated pool, awareness off)
  std::string manufacturer;       // device (or CPU) manufacturer, e.g. "nvidia", "generic"
  std::string product;            // e.g. "NVIDIA A10G"; empty for a generic pool
  std::string family;             // e.g. "ampere"
  std::string memory;             // per-card VRAM, e.g. "24576Mi"
  std::string cores;              // per-card core count, e.g. "9216"
  bool sliceable = false;
  bool operator==(const InstanceTypeFlavorSpec&) const = default;
};

struct InstanceTypeFlavor {
  ObjectMeta metadata;
  InstanceTypeFlavorSpec spec;
  bool operator==(const InstanceTypeFlavor&) const = default;
};

}  // namespace chaintwin::model
