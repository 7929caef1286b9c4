#include "model/api/topology_source.h"

#include <algorithm>

namespace chaintwin::model {

bool selector_matches(const LabelSelector& selector, const StringMap& labels) {
  for (const auto& [k, v] : selector.match_labels) {
    const auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  for (const auto& r : selector.match_expressions) {
    const auto it = labels.find(r.key);
    const bool has = it != labels.end();
    const bool in = has && std::find(r.values.begin(), r.values.end(), it->second) != r.values.end();
    if (r.operator_ == "In" && !in) return false;
    if (r.operator_ == "NotIn" && in) return false;
    if (r.operator_ == "Exists" && !has) return false;
    if (r.operator_ == "DoesNotExist" && has) return false;
  }
  return true;
}

bool TopologySource::ready() const {
  const Condition* c = find_condition(conditions, "Ready");
  return c != nullptr && c->status == "True";
}

}  // namespace chaintwin::model
