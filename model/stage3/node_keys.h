// Node keys and the names built from them (pkg/nodefeature/helper.go, node_flavor.go,
// node_topology.go): the general (CPU) key gKey, the accelerator keys aKey a node carries, the
// labels the worker writes onto a Node (managed mark, general presence and `.count`) and the
// ones the Device Manager writes from Devices groups, the NodeFlavors (ResourceFlavor
// identities) a node contributes to, and topology-profile naming.
// Callers: the capacity / fit-label / flavor reconcilers, the Devices-to-Node publisher.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/api/devices.h"
#include "model/api/node.h"

namespace chaintwin::model {

inline constexpr std::string_view kGeneralManufacturerGeneric = "generic";  // also GeneralGroupGeneric
inline constexpr std::string_view kCountSuffix = ".count";
inline constexpr std::string_view kCapacitySuffix = ".capacity";  // the longest sibling of a gKey label
inline constexpr std::string_view kTopologyProfilePrefix = "fnv64-";
inline constexpr std::string_view kTopologyNamePrefix = "gpustack-";

// Go's strconv.Atoi on a 64-bit platform: optional sign, decimal digits, no overflow.
std::optional<int64_t> go_atoi(std::string_view text);

// "feature.gpustack.ai/cpu-<name>" annotation; a value leading with '@' (an unresolved NFD
// template) reads as unreported, i.e. "".
std::string general_feature_annotation(const Node& node, std::string_view name);

// Lower-cased cpu-model.vendor_id label; "generic" when empty or "vendorunknown".
std::string general_node_manufacturer(const Node& node);

// gKey: "<manufacturer>" or "<manufacturer>-<id>", id = the normalized cpu-name annotation
// (budget so that gKey + ".capacity" fits 63 characters) or else "<family>-<id>" from the
// cpu-model labels when both are set. Never empty, never carries os/arch.
std::string extract_general_node_key(const Node& node);

// Every aKey of a node: the suffix of each acceleratable.feature.gpustack.ai/<m>-<id>=true label
// whose <m> (text before the first '-') is a known manufacturer. Sorted; empty when none.
std::vector<std::string> extract_acceleratable_node_keys(const Node& node);

// The labels the worker owns on a Node: gpustack.ai/managed=true unless `manual_node_management`
// (an existing non-empty value on the node always wins), general.feature.gpustack.ai/<manu>=true,
// .../<gKey>=true and .../<gKey>.count=<ceil(capacity cpu)> (omitted when that is <= 0).
StringMap construct_node_capacity_labels(const Node& node, bool manual_node_management);

// The Device Manager's accelerator labels from Devices groups; a group without accelerators
// contributes nothing. Every value passes through sanitize_label_value.
StringMap construct_acceleratable_node_labels(const std::vector<DevicesGroup>& groups);

// One ResourceFlavor identity a node contributes to (before its topology qualification).
struct NodeFlavor {
  std::string name;             // gpustack--<gKey>-<os>-<arch>-<n>c | gpustack--<gKey>--<aKey>-<os>-<arch>-<n>d
  std::string general_key;      // always set
  std::string accelerator_key;  // device flavors only
  std::string os, arch;
  int64_t count = 0;  // CPU cores (CPU flavor) or cards (device flavor)
  bool acceleratable = false;
  std::string manufacturer;     // CPU or device manufacturer
  std::string product, family;  // device labels, or the CPU's cpu-name / cpu-family annotations
  std::string memory, cores;    // device flavors only (the .memory / .cores labels)
  StringMap node_labels;        // the selector that pools nodes into this flavor
  const std::string& own_key() const { return acceleratable ? accelerator_key : general_key; }
  bool operator==(const NodeFlavor&) const = default;
};

// ExtractNodeFlavors: the CPU flavor (when the node's <gKey>.count label reads > 0) and one
// device flavor per aKey whose .count label reads > 0.
std::vector<NodeFlavor> extract_node_flavors(const Node& node);

// formatNodeFlavorName.
std::string format_node_flavor_name(std::string_view general_key, std::string_view accelerator_key,
                                    std::string_view os, std::string_view arch, int64_t count, bool acceleratable);

// ResourceFlavor object name: "<flavor name>-<topology profile>".
std::string topology_qualified_flavor_name(std::string_view flavor_name, std::string_view profile);
// The inverse for a flavor carrying profile `profile` (unchanged when the profile is empty).
std::string topology_unqualified_flavor_name(std::string_view resource_flavor_name, std::string_view profile);
// The per-node count segment ("<n>c" / "<n>d", scanned from the end) of a flavor name, after
// dropping any "-fnv64-..." topology tail; 0 when none parses.
int64_t parse_node_flavor_count(std::string_view name);

// "fnv64-" + fnv64a(levels joined by NUL).
std::string topology_profile(const std::vector<std::string>& levels);
// "gpustack-" + profile.
std::string topology_name(std::string_view profile);

}  // namespace chaintwin::model
