// Pool identity and naming (pkg/nodefeature/helper.go DerivedInstanceTypeIdentity,
// PoolScheduleLabels, PoolFlavorSelector, FormatLocalQueueName; the InstanceTypeFlavor API's
// instanceTypeFlavorSpec / instanceTypeFlavorName).
#include "model/stage3/pool_identity.h"

#include <algorithm>

#include "model/fnv.h"
#include "model/catalog/label_keys.h"

namespace chaintwin::model {
namespace {

std::string os_arch_tail(const NodeFlavor& f) { return "-" + f.os + "-" + f.arch; }

}  // namespace

InstanceTypeIdentity derived_instance_type_identity(const NodeFlavor& flavor, bool aware) {
  InstanceTypeIdentity id;
  id.general_group = aware ? flavor.general_key : std::string(kGeneralManufacturerGeneric);
  if (flavor.acceleratable) {
    id.accelerator_group = flavor.accelerator_key;
    id.name = aware ? "gpustack--" + flavor.general_key + "--" + flavor.accelerator_key + os_arch_tail(flavor)
                    : "gpustack--" + flavor.accelerator_key + os_arch_tail(flavor);
    return id;
  }
  id.name = "gpustack--" + (aware ? flavor.general_key : std::string(kGeneralManufacturerGeneric)) + os_arch_tail(flavor);
  return id;
}

StringMap pool_schedule_labels(bool acceleratable, bool aware, std::string_view general_group,
                               std::string_view accelerator_group, std::string_view os, std::string_view arch) {
  StringMap labels{{std::string(keys::kAcceleratable), acceleratable ? "true" : "false"}};
  if (!os.empty()) labels[std::string(keys::kOs)] = std::string(os);
  if (!arch.empty()) labels[std::string(keys::kArch)] = std::string(arch);
  if (acceleratable && !accelerator_group.empty())
    labels[std::string(keys::kAcceleratablePrefix) + std::string(accelerator_group)] = "true";
  if (aware && !general_group.empty() && general_group != kGeneralManufacturerGeneric)
    labels[std::string(keys::kGeneralPrefix) + std::string(general_group)] = "true";
  return labels;
}

std::optional<StringMap> pool_flavor_selector(const StringMap& labels) {
  StringMap selector;
  bool discriminated = false;
  for (const auto& [key, value] : labels) {
    if (key == keys::kOs || key == keys::kArch) {
      selector[key] = value;
    } else if (key == keys::kAcceleratable) {
      selector[key] = value;
      discriminated = true;
    } else if (value == "true" && (key.starts_with(keys::kGeneralPrefix) || key.starts_with(keys::kAcceleratablePrefix))) {
      selector[key] = value;
      discriminated = true;
    }
  }
  if (!discriminated) return std::nullopt;
  return selector;
}

bool map_contains(const StringMap& superset, const StringMap& subset) {
  // Both are sorted by key: each key of `subset` is searched for only past the previous one's place.
  auto from = superset.begin();
  for (const auto& [key, value] : subset) {
    from = std::lower_bound(from, superset.end(), key,
                            [](const auto& entry, const std::string& k) { return entry.first < k; });
    if (from == superset.end() || from->first != key || from->second != value) return false;
    ++from;
  }
  return true;
}

bool flavor_feeds_queue(const StringMap& flavor_labels, const StringMap& queue_labels) {
  const auto flavor_selector = pool_flavor_selector(flavor_labels);
  const auto queue_selector = pool_flavor_selector(queue_labels);
  if (!flavor_selector || !queue_selector) return false;
  return map_contains(*flavor_selector, *queue_selector);
}

std::string instance_type_flavor_name(const NodeFlavor& flavor, bool aware) {
  if (flavor.acceleratable) {
    if (aware && !flavor.general_key.empty()) return "gpustack--" + flavor.general_key + "--" + flavor.accelerator_key;
    return "gpustack--" + flavor.accelerator_key;
  }
  return "gpustack--" + (aware ? flavor.general_key : std::string(kGeneralManufacturerGeneric));
}

std::string format_local_queue_name(std::string_view cluster_queue_name) {
  return "gpustack-fnv64-" + sum_by_fnv64a(cluster_queue_name);
}

}  // namespace chaintwin::model
