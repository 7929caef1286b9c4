#include "model/stage4/resource_groups.h"

#include <algorithm>
#include <set>

#include "model/credits.h"
#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage3/pool_identity.h"
#include "model/catalog/resource_names.h"

namespace chaintwin::model {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string lookup(const StringMap& map, const std::string& key) {
  const auto it = map.find(key);
  return it == map.end() ? std::string() : it->second;
}

// The feature-key prefix a flavor sizes on: acceleratable.… on an accelerated flavor, general.… else.
std::string_view own_key_prefix(const ResourceFlavor& rf) {
  return lookup(rf.metadata.labels, std::string(keys::kAcceleratable)) == "true" ? keys::kAcceleratablePrefix
                                                                                  : keys::kGeneralPrefix;
}

// The first "true" key under the own prefix of `keys_from` whose `suffix` sibling in `siblings_from`
// parses above zero.
int64_t own_key_sibling(const StringMap& keys_from, const StringMap& siblings_from, std::string_view prefix,
                        std::string_view suffix) {
  for (const auto& [key, value] : keys_from) {
    if (value != "true" || !starts_with(key, prefix)) continue;
    const auto n = go_atoi(lookup(siblings_from, key + std::string(suffix)));
    if (n && *n > 0) return *n;
  }
  return 0;
}

}  // namespace

std::string note_of(const ObjectMeta& meta, std::string_view name) {
  return lookup(meta.annotations, std::string(keys::kNotePrefix) + std::string(name));
}

std::optional<std::vector<ResourceFlavor>> live_pool_flavors(const ClusterState& state, const StringMap& queue_labels) {
  auto selector = pool_flavor_selector(queue_labels);
  if (!selector || selector->empty()) return std::nullopt;
  (*selector)[std::string(keys::kResourceType)] = std::string(kResourceFlavorResType);
  std::vector<ResourceFlavor> live;
  for (const auto& [name, rf] : state.resource_flavors) {
    if (rf.metadata.deletion_timestamp) continue;  // Kueue still finalizing it: treated as gone
    if (map_contains(rf.metadata.labels, *selector)) live.push_back(rf);
  }
  return live;
}

int64_t resource_flavor_count(const ResourceFlavor& rf) {
  return own_key_sibling(rf.spec.node_labels, rf.spec.node_labels, own_key_prefix(rf), kCountSuffix);
}

int64_t resource_flavor_capacity(const ResourceFlavor& rf) {
  return own_key_sibling(rf.metadata.labels, rf.metadata.labels, own_key_prefix(rf), kCapacitySuffix);
}

void sort_by_per_node_count(std::vector<ResourceFlavor>& flavors) {
  std::stable_sort(flavors.begin(), flavors.end(), [](const ResourceFlavor& a, const ResourceFlavor& b) {
    const int64_t ca = resource_flavor_count(a), cb = resource_flavor_count(b);
    if (ca != cb) return ca < cb;
    return a.metadata.name < b.metadata.name;
  });
}

std::vector<ResourceGroup> build_resource_groups(const std::vector<ResourceFlavor>& ordered, bool acceleratable,
                                                 std::string_view manufacturer) {
  const std::string covered = acceleratable ? credits_resource_name(manufacturer) : std::string("cpu");
  ResourceGroup group;
  group.covered_resources = {covered};
  for (const auto& rf : ordered) {
    const int64_t capacity = resource_flavor_capacity(rf);
    if (capacity <= 0) continue;
    ResourceQuota quota;
    quota.name = covered;
    quota.nominal_quota = Quantity::from_int(acceleratable ? capacity * kUnitsPerAccelerator : capacity);
    group.flavors.push_back({rf.metadata.name, {quota}});
  }
  if (group.flavors.empty()) return {};
  return {group};
}

std::vector<std::string> dropped_flavor_references(const std::vector<ResourceGroup>& current,
                                                   const std::vector<ResourceGroup>& desired) {
  std::set<std::string> wanted;
  for (const auto& g : desired)
    for (const auto& f : g.flavors) wanted.insert(f.name);
  std::vector<std::string> dropped;
  for (const auto& g : current)
    for (const auto& f : g.flavors)
      if (!wanted.count(f.name)) dropped.push_back(f.name);
  return dropped;
}

}  // namespace chaintwin::model
