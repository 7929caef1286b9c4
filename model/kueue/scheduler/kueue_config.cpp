#include "model/kueue/scheduler/kueue_config.h"

#include <algorithm>

#include "model/credits.h"
#include "model/manufacturer.h"
#include "model/resource_names.h"

namespace chaintwin::model {

ResourceList default_kueue_effective_requests(const ResourceList& pod_requests) {
  ResourceList out;
  std::map<std::string, int64_t> credits;  // credits resource → units
  for (const auto& [key, q] : pod_requests) {
    bool transformed = false;
    for (const auto& m : known_manufacturers()) {
      const auto names = resource_names_for(m.name);
      if (!names) continue;
      int64_t factor = 0;
      if (key == names->exclusive) factor = kUnitsPerAccelerator;
      else if (key == names->shared) factor = kUnitsPerShare;
      else if (key == names->sliced_units || (!names->partitioned_units.empty() && key == names->partitioned_units))
        factor = 1;
      if (factor == 0) continue;
      credits[names->credits] += q.value_ceil() * factor;
      transformed = true;
      break;
    }
    if (!transformed) out[key] = q;
  }
  for (const auto& [name, units] : credits) out[name] = Quantity::from_int(units);
  return out;
}

int64_t resource_value(std::string_view name, const Quantity& q) {
  return name == "cpu" ? q.milli_value_ceil() : q.value_ceil();
}

Quantity resource_quantity(std::string_view name, int64_t value) {
  if (name == "cpu") return Quantity::from_milli(value);
  if (name == "memory") return Quantity::from_int_binary(value);
  return Quantity::from_int(value);
}

ResourceAmounts resource_amounts(const ResourceList& list) {
  ResourceAmounts out;
  for (const auto& [name, q] : list) out[name] = resource_value(name, q);
  return out;
}

ResourceList resource_list(const ResourceAmounts& amounts) {
  ResourceList out;
  for (const auto& [name, v] : amounts) out[name] = resource_quantity(name, v);
  return out;
}

ResourceList pod_effective_requests(const PodTemplate& pod) {
  ResourceAmounts sum;
  for (const auto& c : pod.containers)
    for (const auto& [name, q] : c.requests) sum[name] += resource_value(name, q);
  for (const auto& c : pod.init_containers)
    for (const auto& [name, q] : c.requests) sum[name] = std::max(sum[name], resource_value(name, q));
  return resource_list(sum);
}

}  // namespace chaintwin::model
