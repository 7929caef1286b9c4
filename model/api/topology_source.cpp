#include "model/api/topology_source.h"

#include <algorithm>

#include "model/api/k8s_validation.h"

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

Status validate_label_selector(const LabelSelector& selector) {
  for (const auto& [key, value] : selector.match_labels) {
    if (!is_qualified_name(key)) return err("invalid label key \"" + key + "\"");
    if (!is_label_value(value)) return err("invalid label value \"" + value + "\" for key \"" + key + "\"");
  }
  for (const auto& r : selector.match_expressions) {
    if (!is_qualified_name(r.key)) return err("invalid label key \"" + r.key + "\"");
    if (r.operator_ == "In" || r.operator_ == "NotIn") {
      if (r.values.empty()) return err("values: Invalid value: for 'in', 'notin' operators, values set can't be empty");
    } else if (r.operator_ == "Exists" || r.operator_ == "DoesNotExist") {
      if (!r.values.empty()) return err("values: Invalid value: values set must be empty for exists and does not exist");
    } else {
      return err("\"" + r.operator_ + "\" is not a valid label selector operator");
    }
    for (const auto& v : r.values)
      if (!is_label_value(v)) return err("invalid label value \"" + v + "\" for key \"" + r.key + "\"");
  }
  return Ok{};
}

bool TopologySource::ready() const {
  const Condition* c = find_condition(conditions, "Ready");
  return c != nullptr && c->status == "True";
}

int64_t TopologySource::max_staleness_us() const {
  if (config_map) return config_map->max_staleness_us;
  if (webhook) return webhook->max_staleness_us;
  return 0;
}

}  // namespace chaintwin::model
