#include "sim/stage3_report.h"

namespace chaintwin::sim {
namespace {

using json = nlohmann::ordered_json;

json label_patch_document(const std::optional<model::LabelMergePatch>& patch) {
  if (!patch) return nullptr;
  json labels = json::object();
  for (const auto& [k, v] : *patch) labels[k] = v ? json(*v) : json(nullptr);
  return json{{"metadata", {{"labels", labels}}}};
}

json capacity_patch_document(const std::optional<model::CapacityPatch>& patch) {
  if (!patch) return nullptr;
  json capacity = json::object();
  for (const auto& [k, v] : *patch) capacity[k] = v ? json(*v) : json(nullptr);
  return json{{"status", {{"capacity", capacity}}}};
}

}  // namespace

nlohmann::ordered_json stage3_document(const model::NodeStage3& s) {
  json doc = json::object();
  doc["node"] = s.node;
  doc["managed"] = s.managed;
  doc["keys"] = {{"general", s.general_key}, {"accelerators", s.accelerator_keys}};
  doc["nodeFeature"] = {
      {"apiVersion", "nfd.k8s-sigs.io/v1alpha1"},
      {"kind", "NodeFeature"},
      {"metadata",
       {{"name", s.node + std::string(model::kWorkerNodeFeatureSuffix)},
        {"namespace", std::string(model::kSystemNamespace)},
        {"labels", {{"nfd.node.kubernetes.io/node-name", s.node}, {"app.kubernetes.io/part-of", "gpustack-operator-worker"}}}}},
      {"spec", {{"labels", s.worker_labels}}},
  };
  json capacity = json::object();
  for (const auto& [k, q] : s.capacity) capacity[k] = q.to_string();
  doc["capacity"] = capacity;
  doc["fitLabels"] = s.fit_labels.empty() ? json::object() : json(s.fit_labels);
  doc["patches"] = {
      {"nodeLabels", label_patch_document(s.worker_label_patch)},
      {"nodeStatus", capacity_patch_document(s.capacity_patch)},
      {"fitLabels", label_patch_document(s.fit_label_patch)},
  };
  doc["notes"] = s.notes;
  return doc;
}

}  // namespace chaintwin::sim
