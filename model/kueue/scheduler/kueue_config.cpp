#include "model/kueue/scheduler/kueue_config.h"

#include <algorithm>

#include "model/credits.h"
#include "model/catalog/manufacturer.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {


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


}  // namespace chaintwin::model
