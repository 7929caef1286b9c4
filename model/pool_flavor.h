// PoolFlavor: the pool one ResourceFlavor stands for, as InstanceType authoring reads it — the
// subset of the operator's nodefeature.NodeFlavor that derived_instance_type.h needs (identity
// keys, os/arch, and the accelerator manufacturer/product the unit preset is keyed by).
#pragma once

#include <string>

namespace chaintwin::model {

struct PoolFlavor {
  bool acceleratable = false;
  std::string manufacturer;     // accelerator manufacturer key ("nvidia"); empty for a CPU pool
  std::string product;          // the node's product label value (sanitized, <= 63 chars)
  std::string general_key;      // gKey, e.g. "generic" or "intel-xeon-gold-6430"
  std::string accelerator_key;  // aKey, e.g. "nvidia-a10g"; empty for a CPU pool
  std::string os;               // kubernetes.io/os
  std::string arch;             // kubernetes.io/arch
  bool operator==(const PoolFlavor&) const = default;
};

}  // namespace chaintwin::model
