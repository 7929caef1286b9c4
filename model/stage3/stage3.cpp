#include "model/stage3/stage3.h"

#include <optional>
#include <utility>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage3/sliced_detail.h"

namespace chaintwin::model {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Labels only the worker's NodeFeature publishes (besides the managed mark).
bool worker_owned_label(std::string_view key) {
  return starts_with(key, keys::kGeneralPrefix) || key == keys::kCpuOnly;
}

}  // namespace

StringMap desired_worker_labels(const Node& node, const Settings& settings) {
  StringMap labels = construct_node_capacity_labels(node, settings.node_management_manual);
  if (!settings.instance_type_mixed_on_node && extract_acceleratable_node_keys(node).empty())
    labels[std::string(keys::kCpuOnly)] = "true";
  return labels;
}

std::optional<LabelMergePatch> build_worker_label_patch(const StringMap& desired, const StringMap& current) {
  LabelMergePatch patch;
  for (const auto& [k, v] : desired) {
    const auto it = current.find(k);
    if (it == current.end() || it->second != v) patch[k] = v;
  }
  for (const auto& [k, v] : current)
    if (worker_owned_label(k) && !desired.count(k)) patch[k] = std::nullopt;
  if (patch.empty()) return std::nullopt;
  return patch;
}

NodeStage3 derive_node_stage3(const Node& node, const Devices* devices, const Settings& settings) {
  NodeStage3 out;
  out.node = node.metadata.name;
  out.general_key = extract_general_node_key(node);
  out.accelerator_keys = extract_acceleratable_node_keys(node);

  // 1. Presence labels, as NFD applies them from the worker's NodeFeature.
  out.worker_labels = desired_worker_labels(node, settings);
  out.worker_label_patch = build_worker_label_patch(out.worker_labels, node.metadata.labels);
  std::optional<Node> patched;  // a copy only when NFD's patch changes the labels
  if (out.worker_label_patch) {
    patched = node;
    patched->metadata.labels = apply_label_merge_patch(patched->metadata.labels, *out.worker_label_patch);
  }
  const Node& labelled = patched ? *patched : node;
  out.managed = is_managed(labelled.metadata);
  if (!out.managed) {
    out.notes.push_back(settings.node_management_manual
                            ? "not managed: node-management-manual is on and the Node carries no gpustack.ai/managed=true"
                            : "not managed: the Node's gpustack.ai/managed label is not \"true\"");
  }

  // 2. Capacity counting keys.
  CapacityDecision capacity = reconcile_capacity(labelled, devices);
  out.capacity = capacity.desired;
  out.capacity_patch = capacity.patch;
  for (const auto& r : capacity.reasons) out.notes.push_back("capacity: " + r);

  // 3. Per-card fit labels, on the Node as it is after the capacity patch.
  FitLabelDecision fit = reconcile_fit_labels(capacity.node_after, devices);
  out.fit_labels = fit.desired;
  out.fit_label_patch = fit.patch;
  if (!fit.reason.empty()) out.notes.push_back("fit labels: " + fit.reason);

  out.node_after = std::move(capacity.node_after);
  out.node_after.metadata.labels = std::move(fit.labels_after);

  // Inputs that leave part of the chain underived.
  if (devices == nullptr && !out.accelerator_keys.empty())
    out.notes.push_back("the Node carries accelerator keys but has no Devices record: no capacity keys or fit labels");
  if (devices != nullptr) {
    for (const auto& g : devices->spec.groups) {
      if (g.accelerators.empty()) continue;
      const std::string akey = g.manufacturer + "-" + g.id;
      bool labelled_key = false;
      for (const auto& k : out.accelerator_keys) labelled_key = labelled_key || k == akey;
      if (!(aggregate_accelerator_sliced_detail(g.accelerators) == g.accelerator_sliced_detail))
        out.notes.push_back("Devices group " + akey + ": acceleratorSlicedDetail does not aggregate its accelerators "
                            "(the Device Manager always writes the aggregate); the operator reads the detail as given");
      if (!labelled_key)
        out.notes.push_back("Devices group " + akey + " has " + std::to_string(g.accelerators.size()) +
                            " accelerator(s) but the Node carries no acceleratable.feature.gpustack.ai/" + akey +
                            "=true label (the Device Manager publishes it): no capacity keys for it");
    }
  }
  return out;
}

}  // namespace chaintwin::model
