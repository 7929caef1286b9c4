// A managed CPU Node as NodeFlavor reads it: the presence labels stage 3 leaves and the topology
// profile NodeTopology writes, so that it feeds exactly one CPU flavor
// ("gpustack--generic-linux-amd64-<cpu>c-<profile>"), under the profile given.
#pragma once

#include <cstdint>
#include <string>

#include "model/api/node.h"
#include "model/catalog/label_keys.h"

namespace chaintwin::model::testing {

inline const std::string kFlavorTestProfile = "fnv64-87bf574bea2a4f23";

inline Node flavor_cpu_node(const std::string& name, int64_t cpu = 4,
                            const std::string& profile = kFlavorTestProfile) {
  Node n;
  n.metadata.name = name;
  n.metadata.labels = {{std::string(keys::kManaged), "true"},
                       {std::string(keys::kOs), "linux"},
                       {std::string(keys::kArch), "amd64"},
                       {std::string(keys::kTopologyProfile), profile},
                       {"general.feature.gpustack.ai/generic", "true"},
                       {"general.feature.gpustack.ai/generic.count", std::to_string(cpu)},
                       {std::string(keys::kCpuOnly), "true"}};
  return n;
}

}  // namespace chaintwin::model::testing
