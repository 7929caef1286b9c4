// Stage 3 for one Node: everything the operator's worker derives from a Node and its same-named
// Devices record — the presence labels it publishes through NFD (NodeFeature
// `<node>-gpustack-worker`), the capacity counting keys it patches into status.capacity, and the
// per-card fit labels it patches onto the Node — with the patch for each that takes the observed
// Node to the converged one. Called by `chaintwin derive`, and later by the simulator and the live
// mode, which apply the same patches.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/stage3/capacity_keys.h"
#include "model/api/devices.h"
#include "model/stage3/fit_labels.h"
#include "model/catalog/label_keys.h"
#include "model/api/node.h"
#include "model/api/settings.h"

namespace chaintwin::model {

inline constexpr std::string_view kWorkerNodeFeatureSuffix = "-gpustack-worker";
using keys::kSystemNamespace;

struct NodeStage3 {
  std::string node;                           // the Node's name
  bool managed = false;                       // after the presence labels are applied
  std::string general_key;                    // gKey
  std::vector<std::string> accelerator_keys;  // aKeys on the Node (Device Manager labels)

  // Presence labels: the desired NodeFeature labels, and the merge patch NFD's application of
  // them makes to the Node's labels (nullopt: nothing changes).
  StringMap worker_labels;
  std::optional<LabelMergePatch> worker_label_patch;

  // Capacity counting keys (`status.capacity`) and their merge patch on nodes/<name>/status.
  ResourceList capacity;
  std::optional<CapacityPatch> capacity_patch;

  // Per-card fit labels and their merge patch on the Node's labels.
  StringMap fit_labels;
  std::optional<LabelMergePatch> fit_label_patch;

  Node node_after;                 // the Node with every patch applied
  std::vector<std::string> notes;  // why, and anything the input left out, one line each

  bool writes() const { return worker_label_patch || capacity_patch || fit_label_patch; }
};

// Derives stage 3 for `node`. `devices` is the Node's Devices record, or nullptr when it has none.
// The capacity keys and fit labels are computed on the Node as it is once NFD has applied the
// presence labels, i.e. the converged state; deriving again from `node_after` writes nothing.
NodeStage3 derive_node_stage3(const Node& node, const Devices* devices, const Settings& settings);

// The presence labels alone (ConstructNodeCapacityLabels plus the cpu-only pin when mixing is off).
StringMap desired_worker_labels(const Node& node, const Settings& settings);

// The merge patch NFD makes when the worker's NodeFeature carries `desired`: changed values are
// set; worker-owned labels no longer desired (stale general keys, cpu-only) are removed. The
// managed mark is never removed: under manual management it belongs to the admin.
std::optional<LabelMergePatch> build_worker_label_patch(const StringMap& desired, const StringMap& current);

}  // namespace chaintwin::model
