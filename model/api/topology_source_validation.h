// What the operator's TopologySource admission webhook (topology_source_webhook.go) refuses, so a
// scenario or a cluster file holding such a source is refused with the field instead of being
// reconciled: levels (1 to 16 label keys, none twice, never kubernetes.io/hostname), the
// additionalWritePrefix (one DNS prefix with a trailing slash, not a reserved one; not with
// nodeLabels), a malformed nodeSelector, not exactly one arm, and each arm's settings — references
// in the worker namespace, a ConfigMap key, positive durations, an https URL, a timeout no longer
// than the poll interval, exactly one webhook credential. Called by sim/cluster_objects.cpp.
#pragma once

#include <vector>

#include "model/api/devices_validation.h"  // FieldProblem
#include "model/api/topology_source.h"

namespace chaintwin::model {

inline constexpr int kMaxTopologyLevels = 16;

// Problems in field order, each `{path, "Invalid value: ...: why"}` as the API server words them;
// empty when admission accepts the source.
std::vector<FieldProblem> validate_topology_source(const TopologySource& source);

}  // namespace chaintwin::model
