// The credits transformation.
#include "model/admission/credit_transform.h"

#include <map>
#include <string>

#include "model/admission/accelerator_claim.h"
#include "model/credits.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {
namespace {

// Credits one accelerator key contributes for `value` of it.
int64_t credits_for(const AcceleratorKey& key, std::string_view name, int64_t value) {
  const auto names = resource_names_for(key.manufacturer);
  if (!names) return 0;
  if (name == names->exclusive) return value * kUnitsPerAccelerator;
  if (name == names->shared) return value * kUnitsPerShare;
  if (name == names->sliced_units || name == names->partitioned_units) return value;
  return 0;
}

}  // namespace

bool credit_transform_replaces(std::string_view resource_name) {
  return accelerator_key_of(resource_name).has_value();
}

ResourceList kueue_effective_requests(const ResourceList& pod_requests) {
  ResourceList out;
  std::map<std::string, int64_t> credits;
  for (const auto& [name, quantity] : pod_requests) {
    const auto key = accelerator_key_of(name);
    if (!key) {
      out[name] = quantity;
      continue;
    }
    const std::string credits_name = credits_resource_name(key->manufacturer);
    credits[credits_name] += credits_for(*key, name, quantity.value_ceil());
  }
  for (const auto& [name, value] : credits)
    if (value > 0) out[name] = Quantity::from_int(value);
  return out;
}

}  // namespace chaintwin::model
