// Reading accelerator claims off container requests.
#include "model/admission/accelerator_claim.h"

#include <algorithm>

#include "model/catalog/manufacturer.h"
#include "model/catalog/profile_names.h"
#include "model/stage3/resource_classify.h"

namespace chaintwin::model {
namespace {

std::string_view strip_family_suffix(std::string_view name, ResourceFamily family) {
  auto cut_at = [&](std::string_view marker) -> std::string_view {
    const auto pos = name.find(marker);
    return pos == std::string_view::npos ? name : name.substr(0, pos);
  };
  switch (family) {
    case ResourceFamily::kShared: return name.substr(0, name.size() - kSharedSuffix.size());
    case ResourceFamily::kSliced: return cut_at(".sliced");
    case ResourceFamily::kPartitioned: return cut_at(".partitioned");
    default: return name;
  }
}

int64_t add_sat(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

}  // namespace

std::optional<AcceleratorKey> accelerator_key_of(std::string_view resource_name) {
  const ResourceClass c = resource_class_of(resource_name);
  if (c.manufacturer == nullptr) return std::nullopt;  // none, visibility, or no known base
  return AcceleratorKey{c.manufacturer->resource_base, c.manufacturer->name, c.family};
}

std::optional<AcceleratorKey> accelerator_key_by_rules(std::string_view resource_name) {
  const ResourceFamily family = resource_family_by_rules(resource_name);
  if (family == ResourceFamily::kNone || family == ResourceFamily::kVisibility) return std::nullopt;
  const std::string_view base = strip_family_suffix(resource_name, family);
  const auto info = manufacturer_by_resource_base(base);
  if (!info) return std::nullopt;
  return AcceleratorKey{info->resource_base, info->name, family};
}

bool claims_accelerator(const Container& container) {
  // accelerator_key_of(name).has_value() for some request, without building the key.
  return std::any_of(container.requests.begin(), container.requests.end(), [](const auto& request) {
    const std::string_view name = request.first;
    const ResourceFamily family = resource_family_of(name);
    if (family == ResourceFamily::kNone || family == ResourceFamily::kVisibility) return false;
    return manufacturer_by_resource_base(strip_family_suffix(name, family)).has_value();
  });
}

std::optional<ContainerClaim> container_claim(const Container& container) {
  std::optional<ContainerClaim> claim;
  for (const auto& [name, quantity] : container.requests) {
    // The name's class carries its role in the claim (read off the manufacturer's resource names
    // when the table was built): no comparison with those names here.
    const ResourceClass c = resource_class_of(name);
    if (c.manufacturer == nullptr) continue;  // none, visibility, or no known base
    if (!claim)
      claim = ContainerClaim{c.family, std::string(c.manufacturer->name), std::string(c.manufacturer->resource_base), 0, 0, ""};
    if (c.family != claim->family || c.manufacturer->resource_base != claim->base) continue;
    if (c.role == ClaimRole::kCount) {
      claim->count = quantity.value_ceil();
    } else if (c.role == ClaimRole::kUnits) {
      claim->units = quantity.value_ceil();
    } else if (const auto parsed = partitioned_profile_of(name)) {
      claim->profile = parsed->profile;
    }
  }
  return claim;
}

std::vector<ClaimingContainer> claiming_containers(const PodTemplate& pod) {
  std::vector<ClaimingContainer> out;
  for (const auto* list : {&pod.init_containers, &pod.containers})
    for (const auto& c : *list)
      if (auto claim = container_claim(c)) out.push_back({&c, std::move(*claim)});
  return out;
}

ResourceList pod_effective_requests(const PodTemplate& pod) {
  // One container and no init containers (most Pods): its requests, each rounded up to a milli,
  // as the general fold below gives them, without its three maps.
  if (pod.init_containers.empty() && pod.containers.size() == 1) {
    const auto& requests = pod.containers.front().requests;
    ResourceList out;
    out.reserve(requests.size());
    for (const auto& [name, q] : requests) out.emplace_hint(out.end(), name, Quantity::from_milli(q.milli_value_ceil()));
    return out;
  }
  std::map<std::string, int64_t> app;
  for (const auto& c : pod.containers)
    for (const auto& [name, q] : c.requests) app[name] = add_sat(app[name], q.milli_value_ceil());
  std::map<std::string, int64_t> sidecars;
  std::map<std::string, int64_t> total = app;
  for (const auto& c : pod.init_containers) {
    for (const auto& [name, q] : c.requests) {
      const int64_t milli = q.milli_value_ceil();
      if (c.restartable) {
        sidecars[name] = add_sat(sidecars[name], milli);
        total[name] = add_sat(total[name], milli);
      } else {
        // An init container runs beside the sidecars started before it.
        total[name] = std::max(total[name], add_sat(milli, sidecars[name]));
      }
    }
  }
  ResourceList out;
  for (const auto& [name, milli] : total) out[name] = Quantity::from_milli(milli);
  return out;
}

}  // namespace chaintwin::model
