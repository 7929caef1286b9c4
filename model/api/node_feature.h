// NodeFeature (nfd.k8s-sigs.io/v1alpha1, namespaced): the labels one producer wants on one Node,
// which NFD projects onto it (model/stage3/nfd_projection.h). The twin keeps the ones a writing
// TopologySource reconciles — `gpustack-system/gpustack-topology-<hash>`, labelled with the Node's
// name and the source's UID, controlled by the source. The worker's own presence-label NodeFeature
// (`<node>-gpustack-worker`) is not kept as an object: stage 3 writes its labels directly.
#pragma once

#include <string_view>

#include "model/api/object_meta.h"

namespace chaintwin::model {

inline constexpr std::string_view kNfdNodeNameLabel = "nfd.node.kubernetes.io/node-name";
inline constexpr std::string_view kNfdApiVersion = "nfd.k8s-sigs.io/v1alpha1";

struct NodeFeature {
  ObjectMeta metadata;
  StringMap labels;  // spec.labels: what NFD projects onto the Node
  // The Node it describes (its nfd.node.kubernetes.io/node-name label), "" when unlabelled.
  std::string node_name() const {
    const auto it = metadata.labels.find(std::string(kNfdNodeNameLabel));
    return it == metadata.labels.end() ? std::string() : it->second;
  }
  bool operator==(const NodeFeature&) const = default;
};

// NodeFeatures are namespaced: the key of one in ClusterState::node_features.
inline std::string node_feature_key(const std::string& ns, const std::string& name) { return ns + "/" + name; }

}  // namespace chaintwin::model
