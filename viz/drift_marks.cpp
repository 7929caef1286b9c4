#include "viz/drift_marks.h"

namespace chaintwin::viz {

bool drifts(const Snapshot& s, std::string_view kind, std::string_view name) {
  for (const auto& d : s.drift)
    if (d.kind == kind && d.name == name) return true;
  return false;
}

bool pool_drifts(const Snapshot& s, std::string_view cluster_queue) {
  return drifts(s, "ClusterQueue", cluster_queue) || drifts(s, "InstanceType", cluster_queue);
}

}  // namespace chaintwin::viz
