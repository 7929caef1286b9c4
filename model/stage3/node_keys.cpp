// Node keys, node labels, NodeFlavors and topology naming (pkg/nodefeature/helper.go,
// pkg/worker/controllers/worker/{node_flavor,node_queue,node_topology}.go).
#include "model/stage3/node_keys.h"

#include <limits>

#include "model/fnv.h"
#include "model/catalog/label_keys.h"
#include "model/catalog/manufacturer.h"
#include "model/normalize_name.h"

namespace chaintwin::model {
namespace {

std::string label_or_empty(const StringMap& labels, std::string_view key) {
  const auto it = labels.find(key);
  return it == labels.end() ? std::string() : it->second;
}

std::string with_prefix(std::string_view prefix, std::string_view rest) {
  return std::string(prefix) + std::string(rest);
}

std::string before_dash(std::string_view s) { return std::string(s.substr(0, s.find('-'))); }

}  // namespace

std::optional<int64_t> go_atoi(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  // Accumulate negatively so that INT64_MIN parses.
  int64_t value = 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const int64_t digit = c - '0';
    if (value < (kMin + digit) / 10) return std::nullopt;
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == kMin) return std::nullopt;
    value = -value;
  }
  return value;
}

std::string general_feature_annotation(const Node& node, std::string_view name) {
  std::string v = label_or_empty(node.metadata.annotations, with_prefix(keys::kFeaturePrefix, "cpu-") + std::string(name));
  if (!v.empty() && v.front() == '@') return "";
  return v;
}

std::string general_node_manufacturer(const Node& node) {
  std::string manu = label_or_empty(node.metadata.labels, keys::kCpuVendorLabel);
  for (char& c : manu)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  if (manu.empty() || manu == "vendorunknown") return std::string(kGeneralManufacturerGeneric);
  return manu;
}

std::string extract_general_node_key(const Node& node) {
  const std::string manu = general_node_manufacturer(node);
  std::string id;
  if (const std::string name = general_feature_annotation(node, "name"); !name.empty()) {
    // "<manu>-<id>" must leave room for its longest sibling label, "<gKey>.capacity".
    const int budget = 63 - static_cast<int>(kCapacitySuffix.size()) - static_cast<int>(manu.size()) - 1;
    id = normalize_name(name, manu, budget, true);
  } else {
    const std::string family = label_or_empty(node.metadata.labels, keys::kCpuFamilyLabel);
    const std::string model_id = label_or_empty(node.metadata.labels, keys::kCpuIdLabel);
    if (!family.empty() && !model_id.empty()) id = family + "-" + model_id;
  }
  return id.empty() ? manu : manu + "-" + id;
}

std::vector<std::string> extract_acceleratable_node_keys(const Node& node) {
  std::vector<std::string> out;
  for (const auto& [key, value] : node.metadata.labels) {
    if (value != "true" || key.rfind(keys::kAcceleratablePrefix, 0) != 0) continue;
    const std::string rest = key.substr(keys::kAcceleratablePrefix.size());
    const size_t dash = rest.find('-');
    if (dash == std::string::npos || !find_manufacturer(rest.substr(0, dash))) continue;
    out.push_back(rest);
  }
  return out;  // std::map order: sorted
}

StringMap construct_node_capacity_labels(const Node& node, bool manual_node_management) {
  StringMap labels;
  const std::string managed_key(keys::kManaged);
  if (!manual_node_management) labels[managed_key] = "true";
  if (const std::string existing = label_or_empty(node.metadata.labels, keys::kManaged); !existing.empty())
    labels[managed_key] = existing;

  const std::string g_key = extract_general_node_key(node);
  labels[with_prefix(keys::kGeneralPrefix, before_dash(g_key))] = "true";
  labels[with_prefix(keys::kGeneralPrefix, g_key)] = "true";
  if (const auto cpu = node.status.capacity.find("cpu"); cpu != node.status.capacity.end()) {
    if (const int64_t count = cpu->second.value_ceil(); count > 0)
      labels[with_prefix(keys::kGeneralPrefix, g_key) + std::string(kCountSuffix)] = std::to_string(count);
  }
  return labels;
}

StringMap construct_acceleratable_node_labels(const std::vector<DevicesGroup>& groups) {
  StringMap labels;
  const auto put = [&labels](const std::string& key, std::string_view value) {
    labels[key] = sanitize_label_value(value);
  };
  for (const auto& group : groups) {
    if (group.accelerators.empty()) continue;
    put(std::string(keys::kAcceleratable), "true");
    const std::string manu_key = with_prefix(keys::kAcceleratablePrefix, group.manufacturer);
    put(manu_key, "true");
    if (!group.driver_version.empty()) put(manu_key + ".driver-version", group.driver_version);
    if (!group.runtime_version.empty()) put(manu_key + ".runtime-version", group.runtime_version);
    const std::string node_key = manu_key + "-" + group.id;
    put(node_key, "true");
    put(node_key + ".product", group.name);
    put(node_key + ".memory", format_binary_si_mib(group.memory));
    put(node_key + ".cores", std::to_string(group.cores));
    put(node_key + std::string(kCountSuffix), std::to_string(group.accelerators.size()));
    if (!group.family.empty()) put(node_key + ".family", group.family);
    if (!group.compute_capability.empty()) put(node_key + ".comcap", group.compute_capability);
  }
  return labels;
}

std::vector<NodeFlavor> extract_node_flavors(const Node& node) {
  std::vector<NodeFlavor> flavors;
  const StringMap& labels = node.metadata.labels;
  const std::string os = label_or_empty(labels, keys::kOs);
  const std::string arch = label_or_empty(labels, keys::kArch);
  const std::string g_key = extract_general_node_key(node);
  const std::string g_node_key = with_prefix(keys::kGeneralPrefix, g_key);
  const std::string g_count_key = g_node_key + std::string(kCountSuffix);

  const auto base_selector = [&]() {
    return StringMap{{std::string(keys::kManaged), "true"}, {std::string(keys::kOs), os}, {std::string(keys::kArch), arch}};
  };

  // CPU flavor, sized by the .count label the worker stamped (the rounded-up CPU capacity).
  const std::string g_count_text = label_or_empty(labels, g_count_key);
  if (const auto cpu_count = go_atoi(g_count_text); cpu_count && *cpu_count > 0) {
    NodeFlavor f;
    f.name = format_node_flavor_name(g_key, "", os, arch, *cpu_count, false);
    f.general_key = g_key;
    f.os = os;
    f.arch = arch;
    f.count = *cpu_count;
    f.manufacturer = before_dash(g_key);
    f.product = general_feature_annotation(node, "name");
    f.family = general_feature_annotation(node, "family");
    f.node_labels = base_selector();
    f.node_labels[g_node_key] = "true";
    f.node_labels[g_count_key] = g_count_text;
    flavors.push_back(std::move(f));
  }

  // One device flavor per aKey, sized by its reported card count.
  for (const auto& a_key : extract_acceleratable_node_keys(node)) {
    const std::string a_node_key = with_prefix(keys::kAcceleratablePrefix, a_key);
    const std::string a_count_key = a_node_key + std::string(kCountSuffix);
    const std::string a_count_text = label_or_empty(labels, a_count_key);
    const auto count = go_atoi(a_count_text);
    if (!count || *count <= 0) continue;
    NodeFlavor f;
    f.name = format_node_flavor_name(g_key, a_key, os, arch, *count, true);
    f.general_key = g_key;
    f.accelerator_key = a_key;
    f.os = os;
    f.arch = arch;
    f.count = *count;
    f.acceleratable = true;
    f.manufacturer = before_dash(a_key);
    f.product = label_or_empty(labels, a_node_key + ".product");
    f.family = label_or_empty(labels, a_node_key + ".family");
    f.memory = label_or_empty(labels, a_node_key + ".memory");
    f.cores = label_or_empty(labels, a_node_key + ".cores");
    f.node_labels = base_selector();
    f.node_labels[g_node_key] = "true";  // binds nodes of the paired CPU
    f.node_labels[a_node_key] = "true";
    f.node_labels[a_count_key] = a_count_text;
    flavors.push_back(std::move(f));
  }
  return flavors;
}

std::string format_node_flavor_name(std::string_view general_key, std::string_view accelerator_key,
                                    std::string_view os, std::string_view arch, int64_t count, bool acceleratable) {
  std::string name = "gpustack--" + std::string(general_key);
  if (acceleratable) name += "--" + std::string(accelerator_key);
  name += "-" + std::string(os) + "-" + std::string(arch) + "-" + std::to_string(count);
  name += acceleratable ? "d" : "c";
  return name;
}

std::string topology_qualified_flavor_name(std::string_view flavor_name, std::string_view profile) {
  return std::string(flavor_name) + "-" + std::string(profile);
}

std::string topology_unqualified_flavor_name(std::string_view resource_flavor_name, std::string_view profile) {
  if (profile.empty()) return std::string(resource_flavor_name);
  const std::string tail = "-" + std::string(profile);
  if (resource_flavor_name.size() >= tail.size() &&
      resource_flavor_name.substr(resource_flavor_name.size() - tail.size()) == tail)
    resource_flavor_name.remove_suffix(tail.size());
  return std::string(resource_flavor_name);
}

int64_t parse_node_flavor_count(std::string_view name) {
  const std::string marker = "-" + std::string(kTopologyProfilePrefix);
  if (const size_t at = name.rfind(marker); at != std::string_view::npos) name = name.substr(0, at);
  std::vector<std::string_view> segments;
  for (size_t start = 0;;) {
    const size_t dash = name.find('-', start);
    segments.push_back(name.substr(start, dash == std::string_view::npos ? std::string_view::npos : dash - start));
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  for (auto it = segments.rbegin(); it != segments.rend(); ++it) {
    const std::string_view segment = *it;
    if (segment.size() < 2 || (segment.back() != 'c' && segment.back() != 'd')) continue;
    if (const auto v = go_atoi(segment.substr(0, segment.size() - 1))) return *v;
  }
  return 0;
}

std::string topology_profile(const std::vector<std::string>& levels) {
  std::string joined;
  for (size_t i = 0; i < levels.size(); ++i) {
    if (i > 0) joined.push_back('\0');
    joined += levels[i];
  }
  return std::string(kTopologyProfilePrefix) + sum_by_fnv64a(joined);
}

std::string topology_name(std::string_view profile) { return std::string(kTopologyNamePrefix) + std::string(profile); }

}  // namespace chaintwin::model
