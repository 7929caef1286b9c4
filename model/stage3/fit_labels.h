// Per-card fit labels (pkg/nodefeature/fit.go, node_fit_label.go). Node capacity keys are node
// totals; these two labels per accelerator model say what ONE card can still give, so a scheduler
// reading only summed capacity (Kueue TAS) can skip a node whose free room is spread thin:
//   sliced-max-free-units.fit.gpustack.ai/<aKey>  largest free units on a card that can take a slice
//   shared-free-cards.fit.gpustack.ai/<aKey>      cards that can still grant an ownership share
// Values come from card_ledger.h's predicates — the same ones Gate 3 fits with. They filter only.
// This unit holds the keys, the values, the Node merge patch and the watch triggers of
// NodeFitLabelReconciler, and the reconcile itself as a pure function.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "model/api/devices.h"
#include "model/api/node.h"
#include "model/api/object_meta.h"

namespace chaintwin::model {

// sliced-max-free-units.fit.gpustack.ai/<aKey>
std::string fit_sliced_max_free_units_label_key(std::string_view a_key);
// shared-free-cards.fit.gpustack.ai/<aKey>
std::string fit_shared_free_cards_label_key(std::string_view a_key);
// One of the two prefixes, a non-empty model, and a valid qualified name as a whole.
bool is_fit_label_key(std::string_view key);
// Whether both fit label keys of an accelerator key are fit label keys (is_fit_label_key of either
// prefix + `a_key`): both prefixes are valid DNS subdomains ending in their only '/', so it comes
// down to the model part (not empty, no '/', a valid name part), asked without building the keys.
bool is_fit_label_model_part(std::string_view a_key);
// The fit labels of a label map.
StringMap filter_fit_labels(const StringMap& labels);
// Equal once every fit label is left out of both maps.
bool equal_ignoring_fit_labels(const StringMap& a, const StringMap& b);

// The label-key functions of pkg/nodefeature/fit.go under their Go names, each its own entry, so
// a caller that holds a name (a golden case, a scenario) runs exactly that function and never
// another one of the same signature. Builders take the accelerator key "<manufacturer>-<id>".
struct FitLabelKeyFunction {
  std::string_view operator_name;                  // "FitSharedFreeCardsLabelKey", ...
  std::string_view prefix;                         // the domain the key is built under
  std::string (*key)(std::string_view a_key);      // the builder itself
};
// FitSlicedMaxFreeUnitsLabelKey, FitSharedFreeCardsLabelKey, in fit.go's order.
std::span<const FitLabelKeyFunction> fit_label_key_functions();
// nullptr when the operator has no label-key function of that name (names are case-sensitive).
const FitLabelKeyFunction* find_fit_label_key_function(std::string_view operator_name);

// The label-key predicates and label-map functions of fit.go, by their Go names.
struct FitLabelPredicate {
  std::string_view operator_name;     // "IsFitLabelKey"
  bool (*test)(std::string_view key);
};
std::span<const FitLabelPredicate> fit_label_predicates();
const FitLabelPredicate* find_fit_label_predicate(std::string_view operator_name);

// The labels a Devices ledger yields, one pair per status group ("<manufacturer>-<id>"): the sliced
// label iff some card serves the sliced family (value max(0, max free_slice_units)), the shared
// label iff some card serves shared (value = cards with a free share). Keys that are not valid
// label keys (a group id like "Bad Group") are skipped.
StringMap fit_labels_of(const Devices& devices);
// None for an unmanaged node (gpustack.ai/managed != "true") or one without a ledger.
StringMap desired_fit_labels(const Node& node, const Devices* devices);

// Whether the Node carries exactly the fit labels its Devices call for: the verdict of
// !fit_label_patch_due(desired_fit_labels(node, devices), node.metadata.labels), without building
// either map (stage 3 asks it on every ledger change).
bool fit_labels_current(const Node& node, const Devices* devices);
// Brings the Node's fit labels to what its Devices call for, in place: the labels
// apply_label_merge_patch_in_place(labels, build_fit_label_patch(desired_fit_labels(...))) gives,
// without building the desired map or the patch. Returns whether a label moved.
bool sync_fit_labels(Node& node, const Devices* devices);

// A metadata.labels JSON merge patch: a value sets the label, nullopt writes null (removes it).
using LabelMergePatch = std::map<std::string, std::optional<std::string>>;
// Sets every desired label whose value differs or is missing, nulls every fit label absent from
// desired, names no other label; nullopt when nothing differs.
std::optional<LabelMergePatch> build_fit_label_patch(const StringMap& desired, const StringMap& current);
// Whether build_fit_label_patch would return a patch, without building it.
bool fit_label_patch_due(const StringMap& desired, const StringMap& current);
// The labels after applying a merge patch.
StringMap apply_label_merge_patch(StringMap labels, const LabelMergePatch& patch);
// The same, in place.
void apply_label_merge_patch_in_place(StringMap& labels, const LabelMergePatch& patch);

// gpustack.ai/managed == "true" on an object.
bool is_managed(const ObjectMeta& meta);
// A Devices change moved some fit label value (computed from the ledger alone).
bool fit_signature_changed(const Devices& old_devices, const Devices& new_devices);
// Node watch (update): the managed mark changed, or a fit label was edited; never for a Node
// being deleted. Creates always reconcile; deletes never do.
bool node_fit_label_node_updated(const Node& old_node, const Node& new_node);
// Devices watch (update): the fit values moved, or the Devices' own managed mark flipped.
// Creates and deletes always reconcile (handled by the caller). Events coalesce over 3 s.
bool fit_devices_updated(const Devices& old_devices, const Devices& new_devices);
inline constexpr int kFitLabelDedupWindowSeconds = 3;

// One NodeFitLabelReconciler pass: the patch to send (nullopt = write nothing) and the labels the
// Node carries afterwards. Applying the result and reconciling again yields no patch.
struct FitLabelDecision {
  std::optional<LabelMergePatch> patch;
  StringMap labels_after;
  std::string reason;
  StringMap desired;  // desired_fit_labels(node, devices), which the patch was built from
};
FitLabelDecision reconcile_fit_labels(const Node& node, const Devices* devices);

}  // namespace chaintwin::model
