// Renders the converged chain as Kubernetes objects — what `chaintwin derive` prints: per Node its
// labels and counting keys and the worker's NodeFeature (stage 3), then the Kueue chain (Topology,
// ResourceFlavor, InstanceTypeFlavor, InstanceType with status, ClusterQueue spec, LocalQueue,
// AdmissionCheck), sorted by kind then name, without the fields only an API server sets.
#pragma once

#include <nlohmann/json.hpp>

#include "model/cluster_state.h"

namespace chaintwin::sim {

// The objects of `state` (a converged ClusterState), sorted by kind then name.
nlohmann::json chain_objects(const model::ClusterState& state);

}  // namespace chaintwin::sim
