// NodeFeature <-> Kubernetes JSON (apiVersion nfd.k8s-sigs.io/v1alpha1, kind NodeFeature):
// metadata and spec.labels (spec.features, which NFD also carries, is written empty and not read).
// Used by the live plan applier and the served twin; decoding names the field it refuses.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "model/api/node_feature.h"
#include "model/result.h"

namespace chaintwin::model {

nlohmann::json encode_node_feature(const NodeFeature& feature);
Result<NodeFeature> decode_node_feature(const nlohmann::json& document);

}  // namespace chaintwin::model
