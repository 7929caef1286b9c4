// The Pod webhook's fold, rules and shared card-count pin.
#include "model/admission/pod_webhook.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/admission/accelerator_claim.h"
#include "model/admission/pod_request_rules.h"
#include "model/credits.h"
#include "model/admission/fit_pin.h"
#include "model/catalog/label_keys.h"
#include "model/catalog/profile_names.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {
namespace {

constexpr int64_t kMi = 1024 * 1024;

std::string_view queue_of(const PodTemplate& pod) {
  const auto it = pod.labels.find(kQueueNameLabel);
  return it == pod.labels.end() ? std::string_view() : std::string_view(it->second);
}

// The fronting InstanceType, or the operator's error when there is none.
Result<const InstanceType*> fronting(const PodTemplate& pod, const InstanceType* it) {
  if (!it) return err("no instance type fronts local queue " + std::string(queue_of(pod)));
  return it;
}

const AcceleratorSlicedPhysicalDetailProfile* find_profile(const InstanceType& it, std::string_view manufacturer,
                                                           const std::string& published) {
  const std::string vendor = vendor_partitioned_profile_name(manufacturer, published);
  for (const auto& p : it.status.detail.sliced_detail.physical.profiles)
    if (p.name == vendor || p.name == published) return &p;
  return nullptr;
}

Result<int64_t> partition_units(const PodTemplate& pod, const InstanceType* it_or_null, const Container& c,
                                const AcceleratorKey& key, const std::string& profile) {
  const auto it = fronting(pod, it_or_null);
  if (!it.ok()) return Error{it.error()};
  const InstanceType& type = **it;
  const auto* prof = find_profile(type, key.manufacturer, profile);
  if (!prof) {
    if (type.status.detail.sliced_detail.physical.profiles.empty())
      return err("instance type " + type.metadata.name + " is not ready yet (accelerator detail not computed); retry");
    return err("container \"" + c.name + "\": partition profile \"" + profile +
               "\" is not offered by the target pool (instance type " + type.metadata.name + ")");
  }
  if (prof->memory_mib <= 0)
    return err("instance type " + type.metadata.name + " is not ready yet (partition profile \"" + profile +
               "\" has no memory detail); retry");
  const auto vram = instance_type_card_vram_mib(type);
  if (!vram.ok()) return vram;
  const int64_t units = memory_mib_to_units(prof->memory_mib, *vram);
  if (units <= 0)
    return err("container \"" + c.name + "\": cannot derive a positive " + std::string(key.base) +
               std::string(kPartitionedUnitsSuffix) + " from partition profile \"" + profile + "\"");
  return units;
}

// Folds one container; the first error refuses the Pod.
Status fold_container(const PodTemplate& pod, const InstanceType* it, Container& c) {
  std::map<std::string, AcceleratorKey> partition_bases, slice_bases;
  std::map<std::string, std::set<std::string>> profiles;  // base → published profiles
  for (const auto& [name, q] : c.requests) {
    const auto key = accelerator_key_of(name);
    if (!key) continue;
    if (key->family == ResourceFamily::kPartitioned) {
      partition_bases[std::string(key->base)] = *key;
      if (const auto parsed = partitioned_profile_of(name)) profiles[std::string(key->base)].insert(parsed->profile);
    } else if (key->family == ResourceFamily::kSliced) {
      slice_bases[std::string(key->base)] = *key;
    }
  }
  for (const auto& [base, key] : partition_bases) {
    if (profiles[base].size() != 1) continue;  // validation rejects it
    const auto units = partition_units(pod, it, c, key, *profiles[base].begin());
    if (!units.ok()) return Error{units.error()};
    c.requests[base + std::string(kPartitionedUnitsSuffix)] = Quantity::from_int(*units);
  }
  for (const auto& [base, key] : slice_bases) {
    const std::string cores = base + std::string(kSlicedCoresPercentageSuffix);
    const std::string mem_pct = base + std::string(kSlicedMemoryPercentageSuffix);
    const std::string mem_mib = base + std::string(kSlicedMemoryMibSuffix);
    const std::string units_key = base + std::string(kSlicedUnitsSuffix);
    if (!c.requests.count(cores)) c.requests[cores] = Quantity::from_int(100);
    const auto pct = c.requests.find(mem_pct);
    const auto mib = c.requests.find(mem_mib);
    int64_t units = 0;
    if (pct != c.requests.end() && pct->second.value_ceil() > 0) {
      if (pct->second.value_ceil() > 100)
        return err("container \"" + c.name + "\": " + mem_pct + " must be within (0, 100]");
      units = pct->second.value_ceil() * kUnitsPerAccelerator / 100;
    } else if (mib != c.requests.end() && mib->second.value_ceil() > 0) {
      const auto type = fronting(pod, it);
      if (!type.ok()) return Error{type.error()};
      const auto vram = instance_type_card_vram_mib(**type);
      if (!vram.ok()) return Error{vram.error()};
      if (mib->second.value_ceil() > *vram)
        return err("container \"" + c.name + "\": " + mem_mib + " must not exceed the per-card VRAM (" +
                   std::to_string(*vram) + " MiB)");
      units = memory_mib_to_units(mib->second.value_ceil(), *vram);
    } else {
      continue;  // no usable memory budget; validation rejects it
    }
    if (units <= 0)
      return err("container \"" + c.name + "\": cannot derive a positive " + units_key + " from the requested memory");
    c.requests[units_key] = Quantity::from_int(units);
  }
  return Ok{};
}

int64_t largest_shared_request(const PodTemplate& pod) {
  int64_t n = 0;
  for (const auto& claiming : claiming_containers(pod))
    if (claiming.claim.family == ResourceFamily::kShared) n = std::max(n, claiming.claim.count);
  return n;
}

}  // namespace

int64_t memory_mib_to_units(int64_t mib, int64_t card_mib) {
  if (card_mib <= 0) return 0;
  return mib * kUnitsPerAccelerator / card_mib;
}

std::string accelerator_count_label_key(std::string_view accelerator_group) {
  return std::string(keys::kAcceleratablePrefix) + std::string(accelerator_group) + ".count";
}

Result<int64_t> instance_type_card_vram_mib(const InstanceType& it) {
  const std::string& text = !it.status.detail.memory.empty() ? it.status.detail.memory : it.spec.descriptors.memory;
  if (text.empty()) return err("instance type " + it.metadata.name + " has no memory");
  const auto q = Quantity::parse(text);
  if (!q.ok()) return err("parse memory \"" + text + "\" of instance type " + it.metadata.name + ": " + q.error());
  const int64_t mib = q->value_ceil() / kMi;
  if (mib <= 0) return err("instance type " + it.metadata.name + " has non-positive memory \"" + text + "\"");
  return mib;
}

PodAdmission admit_pod(const PodTemplate& pod, const InstanceType* instance_type, std::string_view pod_name) {
  if (queue_of(pod).empty() && !pod.labels.count(kQueueNameLabel)) return {true, "", pod};
  PodTemplate out = pod;
  for (auto* list : {&out.init_containers, &out.containers})
    for (auto& c : *list)
      if (const auto folded = fold_container(out, instance_type, c); !folded.ok()) return {false, folded.error(), pod};

  if (const auto errors = validate_pod_accelerator_request(out); !errors.empty())
    return {false, invalid_pod_message(std::string(pod_name), errors), pod};

  if (const int64_t n = largest_shared_request(out); n >= 2) {
    if (!instance_type || instance_type->spec.accelerator_group.empty())
      return {false,
              instance_type ? "instance type " + instance_type->metadata.name + " has no accelerator group"
                            : "no instance type fronts local queue " + std::string(queue_of(pod)),
              pod};
    const NodeSelectorRequirement pin{accelerator_count_label_key(instance_type->spec.accelerator_group), "Gt",
                                      {std::to_string(n - 1)}};
    out.required_node_affinity = pin_required_terms(std::move(out.required_node_affinity), {pin});
  }
  return {true, "", std::move(out)};
}

}  // namespace chaintwin::model
