// The desired node-derived ResourceFlavor and the note / drift rules around it.
#include "model/stage4/node_flavor_shape.h"

#include "model/catalog/label_keys.h"
#include "model/stage4/cpu_detail_note.h"

namespace chaintwin::model {
namespace {

std::string label_of(const StringMap& labels, std::string_view key) {
  const auto it = labels.find(key);
  return it == labels.end() ? std::string() : it->second;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

std::string feature_key_label(bool acceleratable, std::string_view key) {
  return std::string(acceleratable ? keys::kAcceleratablePrefix : keys::kGeneralPrefix) + std::string(key);
}

DesiredResourceFlavor desired_resource_flavor(const std::string& name, const NodeFlavor& flavor, const Node& first,
                                              int64_t contributors, const Settings& settings) {
  const bool mixing_allowed = settings.instance_type_mixed_on_node;
  const bool cpu_aware = settings.instance_type_aware_cpu_manufacturer;
  const std::string profile = label_of(first.metadata.labels, keys::kTopologyProfile);
  const std::string key_label = feature_key_label(flavor.acceleratable, flavor.own_key());

  DesiredResourceFlavor d;
  ResourceFlavor& rf = d.object;
  rf.metadata.name = name;
  StringMap& labels = rf.metadata.labels;
  labels[key_label] = "true";
  labels[std::string(keys::kOs)] = flavor.os;
  labels[std::string(keys::kArch)] = flavor.arch;
  labels[std::string(keys::kTopologyProfile)] = profile;
  labels[std::string(keys::kAcceleratable)] = flavor.acceleratable ? "true" : "false";
  labels[key_label + std::string(kCountSuffix)] = std::to_string(flavor.count);
  labels[key_label + std::string(kFlavorCapacitySuffix)] = std::to_string(contributors * flavor.count);
  // A device flavor also carries its paired CPU key, so an aware pool can select it.
  if (flavor.acceleratable) labels[feature_key_label(false, flavor.general_key)] = "true";

  rf.spec.node_labels = flavor.node_labels;
  rf.spec.node_labels[std::string(keys::kTopologyProfile)] = profile;
  if (!flavor.acceleratable && !mixing_allowed) rf.spec.node_labels[std::string(keys::kCpuOnly)] = "true";
  rf.spec.tolerations = {Toleration{"", "Exists", "", ""}};
  rf.spec.topology_name = topology_name(profile);

  d.notes = {
      {"acceleratable", flavor.acceleratable ? "true" : "false"},
      {"generalGroup", flavor.general_key},
      {"acceleratorGroup", flavor.accelerator_key},
      {"manufacturer", flavor.manufacturer},
      {"product", flavor.product},
      {"family", flavor.family},
      {"memory", flavor.memory},
      {"cores", flavor.cores},
      {"topologyProfile", profile},
  };
  // Always on a CPU flavor; on a device flavor only with CPU-manufacturer awareness on.
  if (!flavor.acceleratable || cpu_aware)
    d.notes["cpuDetail"] = cpu_detail_note(extract_general_detail(first), flavor.acceleratable);
  note_resource(rf.metadata, kResourceFlavorResType, d.notes);
  return d;
}

StringMap resource_notes(const ObjectMeta& meta) {
  StringMap notes;
  for (const auto& [k, v] : meta.annotations)
    if (starts_with(k, keys::kNotePrefix)) notes[k.substr(keys::kNotePrefix.size())] = v;
  return notes;
}

void note_resource(ObjectMeta& meta, std::string_view res_type, const StringMap& notes) {
  if (!res_type.empty()) meta.labels[std::string(keys::kResourceType)] = std::string(res_type);
  for (const auto& [k, v] : notes) meta.annotations[std::string(keys::kNotePrefix) + k] = v;
}

bool sync_node_flavor_notes(ResourceFlavor& rf, const StringMap& want) {
  if (label_of(rf.metadata.labels, keys::kResourceType) == kResourceFlavorResType && resource_notes(rf.metadata) == want)
    return false;
  for (auto it = rf.metadata.annotations.begin(); it != rf.metadata.annotations.end();) {
    if (starts_with(it->first, keys::kNotePrefix)) it = rf.metadata.annotations.erase(it);
    else ++it;
  }
  note_resource(rf.metadata, kResourceFlavorResType, want);
  return true;
}

bool resource_flavor_mixing_selector_drift(const ResourceFlavor& actual, const ResourceFlavor& wanted,
                                           bool acceleratable) {
  const StringMap& a = actual.spec.node_labels;
  const StringMap& w = wanted.spec.node_labels;
  const bool same_acceleratable = label_of(a, keys::kAcceleratable) == label_of(w, keys::kAcceleratable);
  const bool same_cpu_only = label_of(a, keys::kCpuOnly) == label_of(w, keys::kCpuOnly);
  if (acceleratable || (same_acceleratable && same_cpu_only)) return false;
  for (const StringMap* labels : {&a, &w}) {
    const std::string acc = label_of(*labels, keys::kAcceleratable);
    if (!acc.empty() && acc != "false") return false;
    const std::string cpu_only = label_of(*labels, keys::kCpuOnly);
    if (!cpu_only.empty() && cpu_only != "true") return false;
  }
  ResourceFlavorSpec a_spec = actual.spec, w_spec = wanted.spec;
  for (ResourceFlavorSpec* spec : {&a_spec, &w_spec}) {
    spec->node_labels.erase(std::string(keys::kAcceleratable));
    spec->node_labels.erase(std::string(keys::kCpuOnly));
  }
  return a_spec == w_spec;
}

}  // namespace chaintwin::model
