// The ResourceFlavor the NodeFlavor controller wants for one flavor name (node_flavor.go Reconcile,
// featureKeyLabel, syncNodeFlavorNotes, resourceFlavorMixingSelectorDrift): schedule labels with
// `.count` / `.capacity`, pinned nodeLabels (+ the cpu-only pin for a CPU flavor when mixing is
// off), the blanket Exists toleration, the generated Topology reference, and the
// `note.gpustack.ai/*` notes under resource type "nodes".
// Called by node_flavor_reconciler.cpp.
#pragma once

#include "model/catalog/label_keys.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "model/kueue/kueue_objects.h"
#include "model/stage3/node_keys.h"
#include "model/api/settings.h"

namespace chaintwin::model {

using keys::kResourceFlavorResType;
inline constexpr std::string_view kFlavorCapacitySuffix = ".capacity";

// "general.feature.gpustack.ai/<key>" for a CPU flavor, "acceleratable.feature.gpustack.ai/<key>"
// for a device flavor.
std::string feature_key_label(bool acceleratable, std::string_view key);

struct DesiredResourceFlavor {
  ResourceFlavor object;  // labels (incl. resource type), note annotations, spec
  StringMap notes;        // the note set, keys without the `note.gpustack.ai/` prefix
};

// The desired flavor `name` for `flavor`, read from the first contributor `first` (its profile
// label and CPU detail), with `contributors` Nodes pooled: capacity = contributors × count.
DesiredResourceFlavor desired_resource_flavor(const std::string& name, const NodeFlavor& flavor, const Node& first,
                                              int64_t contributors, const Settings& settings);

// The operator notes (`note.gpustack.ai/<k>`) of an object, prefix stripped.
StringMap resource_notes(const ObjectMeta& meta);

// systemmeta.NoteResource: stamps `resource.gpustack.ai/type` (when non-empty) and writes every note
// (never deletes one).
void note_resource(ObjectMeta& meta, std::string_view res_type, const StringMap& notes);

// syncNodeFlavorNotes: makes the flavor's note set exactly `want` (dropping notes no longer wanted,
// keeping every non-note annotation) and stamps the "nodes" type; false when the type is already
// "nodes" and the notes already equal `want` (nothing touched).
bool sync_node_flavor_notes(ResourceFlavor& rf, const StringMap& want);

// resourceFlavorMixingSelectorDrift: the two specs differ only in the mixing pin
// (`feature.gpustack.ai/cpu-only`, "" or "true") of a CPU flavor — the one immutable change the
// reconciler resolves by deleting the flavor so a fresh one is created.
bool resource_flavor_mixing_selector_drift(const ResourceFlavor& actual, const ResourceFlavor& wanted,
                                           bool acceleratable);

}  // namespace chaintwin::model
