// Label matching as Kueue and the kube-scheduler apply it: nodeSelector, required node affinity
// (In, NotIn, Exists, DoesNotExist, Gt, Lt), taints against tolerations, and Kueue's flavor
// selector that keeps only a resource group's flavor label keys. Pure helpers used by the flavor
// assigner (against a ResourceFlavor's nodeLabels) and by TAS (against Nodes).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/admission/fit_pin.h"
#include "model/kueue/kueue_objects.h"
#include "model/api/object_meta.h"

namespace chaintwin::model {

// Every key=value of `selector` is in `labels`.
bool matches_node_selector(const StringMap& selector, const StringMap& labels);
// One requirement; Gt/Lt need the label and the value to parse as int64.
bool matches_requirement(const NodeSelectorRequirement& r, const StringMap& labels);
// Required node affinity: no terms matches everything; otherwise any term whose expressions all
// match (a term with no expressions matches nothing, as in Kubernetes). match_fields are checked
// against metadata.name only.
bool matches_required_affinity(const std::vector<NodeSelectorTerm>& terms, const StringMap& labels,
                               const std::string& node_name = "");

// Kueue's flavorSelector: the nodeSelector and required affinity reduced to `label_keys`; a term
// that loses all its expressions makes the whole affinity match any flavor.
bool matches_flavor_labels(const StringMap& node_selector, const std::vector<NodeSelectorTerm>& terms,
                           const std::set<std::string>& label_keys, const StringMap& flavor_labels);

bool tolerates(const Toleration& t, const Taint& taint);
// The first NoSchedule/NoExecute taint none of the tolerations tolerates.
std::optional<Taint> first_untolerated_taint(const std::vector<Taint>& taints, const std::vector<Toleration>& tolerations);
// Go's Taint.ToString(): key=value:effect (key:effect with no value).
std::string taint_string(const Taint& t);

}  // namespace chaintwin::model
