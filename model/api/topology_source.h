// TopologySource (worker.gpustack.ai/v1, cluster-scoped): where a node's topology levels come
// from. The chain reads which Ready source selects a node and its ordered levels; the arm that
// publishes the labels (nodeLabels | configMap | webhook) is kept by name only.
#pragma once

#include <string>
#include <vector>

#include "model/kueue/kueue_objects.h"
#include "model/api/object_meta.h"

namespace chaintwin::model {

struct LabelSelectorRequirement {
  std::string key;
  std::string operator_;  // In | NotIn | Exists | DoesNotExist
  std::vector<std::string> values;
  bool operator==(const LabelSelectorRequirement&) const = default;
};

struct LabelSelector {
  StringMap match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
  bool operator==(const LabelSelector&) const = default;
};

// Whether `labels` satisfy the selector (an empty selector selects everything).
bool selector_matches(const LabelSelector& selector, const StringMap& labels);

struct TopologySource {
  ObjectMeta metadata;
  LabelSelector node_selector;
  std::vector<std::string> levels;  // coarse to fine, 1..16, hostname excluded
  std::string arm;                  // "nodeLabels" | "configMap" | "webhook"
  std::vector<Condition> conditions;  // Ready, Valid, OwnershipConflict
  bool ready() const;
  bool operator==(const TopologySource&) const = default;
};

}  // namespace chaintwin::model
