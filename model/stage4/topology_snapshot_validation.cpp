// Snapshot validation and the labels a writing TopologySource publishes.
#include "model/stage4/topology_snapshot_validation.h"

#include "model/api/k8s_validation.h"
#include "model/catalog/label_keys.h"

namespace chaintwin::model {
namespace {

constexpr std::string_view kWritablePrefix = "topology.gpustack.ai/";
constexpr std::string_view kRegion = "topology.kubernetes.io/region";
constexpr std::string_view kZone = "topology.kubernetes.io/zone";

bool starts_with(std::string_view s, std::string_view prefix) {
  return !prefix.empty() && s.substr(0, prefix.size()) == prefix;
}

// The operator's validateTopologySourceLabel.
Status check_label(const std::string& key, const std::string& value, const std::string& prefix) {
  if (!is_standard_topology_label(key) && !is_writable_topology_label(key, prefix))
    return err("topology source cannot publish label " + go_quote(key));
  if (value.empty() || !is_label_value(value))
    return err("label " + go_quote(key) + " has invalid value " + go_quote(value));
  return Ok{};
}

}  // namespace

std::string go_quote(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          constexpr char kHex[] = "0123456789abcdef";
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 0xf];
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

bool is_standard_topology_label(std::string_view key) { return key == kRegion || key == kZone; }

bool is_writable_topology_label(std::string_view key, std::string_view additional_write_prefix) {
  if (key == keys::kTopologyProfile) return false;
  return starts_with(key, kWritablePrefix) || starts_with(key, additional_write_prefix);
}

std::set<std::string> selected_node_names(const TopologySource& source, const NodeTable& nodes) {
  std::set<std::string> out;
  for (const auto& [name, node] : nodes)
    if (selector_matches(source.node_selector, node.metadata.labels)) out.insert(name);
  return out;
}

Status validate_topology_snapshot(const TopologySource& source, const TopologySnapshot& snapshot,
                                  const std::set<std::string>& selected) {
  if (snapshot.api_version != kTopologySnapshotApiVersion)
    return err("unsupported topology snapshot apiVersion " + go_quote(snapshot.api_version));
  if (snapshot.revision.find_first_not_of(" \t\r\n\v\f") == std::string::npos)
    return err("topology snapshot revision is required");
  const std::vector<std::string>& levels = source.levels;
  std::map<std::string, size_t> level_index;
  for (size_t i = 0; i < levels.size(); ++i) level_index.emplace(levels[i], i);
  // child level → child value → the parent tuple it was first seen under.
  std::map<std::string, std::map<std::string, std::string>> parents;
  for (const auto& [node, labels] : snapshot.nodes) {
    if (selected.count(node) == 0)
      return err("topology snapshot references unknown or unselected Node " + go_quote(node));
    for (const auto& [key, value] : labels) {
      const auto index = level_index.find(key);
      if (index == level_index.end())
        return err("topology snapshot Node " + go_quote(node) + " declares undeclared level " + go_quote(key));
      if (const Status s = check_label(key, value, source.additional_write_prefix); !s.ok())
        return err("topology snapshot Node " + go_quote(node) + ": " + s.error());
      for (size_t p = 0; p < index->second; ++p)
        if (labels.count(levels[p]) == 0)
          return err("topology snapshot Node " + go_quote(node) + " has level " + go_quote(key) +
                     " without parent level " + go_quote(levels[p]));
    }
    for (size_t i = 1; i < levels.size(); ++i) {
      const auto child = labels.find(levels[i]);
      if (child == labels.end()) continue;
      std::string tuple;
      for (size_t p = 0; p < i; ++p) {
        if (p > 0) tuple += '\0';
        tuple += labels.at(levels[p]);
      }
      auto& by_value = parents[levels[i]];
      const auto seen = by_value.find(child->second);
      if (seen != by_value.end() && seen->second != tuple)
        return err("topology snapshot level " + go_quote(levels[i]) + " value " + go_quote(child->second) +
                   " has conflicting parent tuples");
      by_value[child->second] = tuple;
    }
  }
  return Ok{};
}

Result<std::map<std::string, StringMap>> published_topology_labels(const TopologySnapshot& snapshot,
                                                                   const NodeTable& nodes,
                                                                   const std::set<std::string>& selected) {
  std::map<std::string, StringMap> out;
  for (const auto& name : selected) {
    const auto described = snapshot.nodes.find(name);
    const auto node = nodes.find(name);
    if (described == snapshot.nodes.end() || node == nodes.end()) continue;
    StringMap published;
    for (const auto& [key, value] : described->second) {
      if (is_standard_topology_label(key)) {
        const auto own = node->second.metadata.labels.find(key);
        if (own == node->second.metadata.labels.end() || own->second != value)
          return err("standard label " + go_quote(key) + " on Node " + go_quote(name) + " must already equal " +
                     go_quote(value));
        continue;
      }
      published[key] = value;
    }
    if (!published.empty()) out[name] = std::move(published);
  }
  return out;
}

SnapshotDecision decide_topology_snapshot(const TopologySource& source, const TopologySnapshot& snapshot,
                                          const NodeTable& nodes) {
  SnapshotDecision d;
  const std::set<std::string> selected = selected_node_names(source, nodes);
  Status valid = validate_topology_snapshot(source, snapshot, selected);
  if (valid.ok()) {
    auto published = published_topology_labels(snapshot, nodes, selected);
    if (published.ok()) {
      d.accepted = true;
      d.node_labels = std::move(published).value();
      return d;
    }
    valid = err(published.error());
  }
  d.reason = std::string(kSnapshotInvalid);
  d.message = valid.error();
  return d;
}

}  // namespace chaintwin::model
