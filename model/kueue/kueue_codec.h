// Kueue's small objects and the core Namespace <-> Kubernetes JSON, with the API's field names:
// ResourceFlavor (spec.nodeLabels, nodeTaints, tolerations, topologyName), LocalQueue
// (spec.clusterQueue), AdmissionCheck (spec.controllerName, retryDelayMinutes; status.conditions),
// Topology (spec.levels[].nodeLabel) and Namespace (v1, metadata only). Kueue objects are
// written as kueue.x-k8s.io/v1beta2 (what the operator uses); v1beta1 is accepted on decode, and
// Topology's older v1alpha1 too. Empty fields are omitted, unknown ones ignored, and a bad field
// is refused by path (`spec.tolerations[0].operator: expected "Exists" or "Equal", got "In"`).
// The ClusterQueue lives in model/kueue/cluster_queue_codec.h.
#pragma once

#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "model/kueue/kueue_objects.h"
#include "model/result.h"

namespace chaintwin::model {

inline constexpr std::string_view kKueueApiVersion = "kueue.x-k8s.io/v1beta2";
inline constexpr std::string_view kKueueApiVersionV1beta1 = "kueue.x-k8s.io/v1beta1";

nlohmann::json encode_resource_flavor(const ResourceFlavor& flavor);
Result<ResourceFlavor> decode_resource_flavor(const nlohmann::json& document);

nlohmann::json encode_local_queue(const LocalQueue& queue);
Result<LocalQueue> decode_local_queue(const nlohmann::json& document);

nlohmann::json encode_admission_check(const AdmissionCheck& check);
Result<AdmissionCheck> decode_admission_check(const nlohmann::json& document);

nlohmann::json encode_topology(const Topology& topology);
Result<Topology> decode_topology(const nlohmann::json& document);

nlohmann::json encode_namespace(const Namespace& ns);
Result<Namespace> decode_namespace(const nlohmann::json& document);

}  // namespace chaintwin::model
