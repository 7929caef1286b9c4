// TopologySource <-> Kubernetes JSON (apiVersion worker.gpustack.ai/v1, kind TopologySource;
// v1alpha1 accepted on decode): spec.nodeSelector {matchLabels, matchExpressions[{key, operator,
// values}]}, spec.levels, spec.additionalWritePrefix, the source arm (exactly one of nodeLabels |
// configMap {configMapRef, key, maxStaleness} | webhook {url, pollInterval, timeout, maxStaleness,
// caBundleConfigMapRef, bearerTokenSecretRef, tlsClientCertificateSecretRef}; durations as Go
// spells them) and the status (observedGeneration, sourceKind, lastSuccessfulRevision,
// lastSuccessfulRefreshTime, selectedNodes, mutatedNodes, conflictedNodes, conditions). Decoding
// refuses by path: an unknown selector operator, more than one arm, a duration Go cannot parse, a
// condition without a valid status. What admission would refuse is validate_topology_source's.
#pragma once

#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "model/result.h"
#include "model/api/topology_source.h"

namespace chaintwin::model {

inline constexpr std::string_view kWorkerApiVersion = "worker.gpustack.ai/v1";
inline constexpr std::string_view kWorkerApiVersionV1alpha1 = "worker.gpustack.ai/v1alpha1";

nlohmann::json encode_topology_source(const TopologySource& source);
Result<TopologySource> decode_topology_source(const nlohmann::json& document);

// A metav1.LabelSelector on its own; error paths are relative to the value.
nlohmann::json encode_label_selector(const LabelSelector& selector);
Result<LabelSelector> decode_label_selector(const nlohmann::json& value);

}  // namespace chaintwin::model
