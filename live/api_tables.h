// The columns `kubectl get` prints for each served kind: the server answers a Table
// (meta.k8s.io/v1) when the client asks for one, as a real API server does for its own kinds and
// for CRDs' additionalPrinterColumns. InstanceTypes show the four views and CPU as
// onceMaxRequest/remaining; ClusterQueues their stop policy, Workload counts and TopologyReady.
#pragma once

#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace chaintwin::live {

// A Table of `objects` (all of `kind`), with `resource_version` in its list metadata.
nlohmann::json object_table(std::string_view kind, const std::vector<nlohmann::json>& objects,
                            const std::string& resource_version);

}  // namespace chaintwin::live
