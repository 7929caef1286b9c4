// Authoring a node-derived InstanceType (authorDerivedInstanceType in the operator's
// node_flavor.go): after a ResourceFlavor syncs, and when instance-type-derived-from-node is on,
// the operator creates the pool's InstanceType — identity, creation-time unit spec, display name
// and the derived-from-node marker — and never updates it: an existing type (admin- or
// operator-owned) is left untouched. Deleting a derived type lets the next reconcile re-author it
// at the current presets. Called by the stage-4 flavor reconcile.
#pragma once

#include <string>

#include "model/stage4/derived_unit_resources.h"
#include "model/api/instance_type.h"
#include "model/stage3/node_keys.h"
#include "model/api/settings.h"

namespace chaintwin::model {

// The InstanceType the operator would create for the pool: only the derived marker label (the
// schedule labels are stamped later by the webhook, the feature-key label never), the identity
// (derived_instance_type_identity in pool_identity.h), os/arch, display name, unit spec and
// local storage.
InstanceType derived_instance_type(const NodeFlavor& flavor, bool cpu_aware,
                                   const PresetTable& table = shipped_preset_table());

enum class AuthorAction {
  kCreate,        // no InstanceType under the derived name: create `instance_type`
  kKeepExisting,  // one exists (whoever owns it): leave it exactly as it is (create-only)
  kDisabled,      // instance-type-derived-from-node is off: author nothing
};
std::string_view to_string(AuthorAction action);

struct AuthorDecision {
  AuthorAction action = AuthorAction::kDisabled;
  InstanceType instance_type;  // to create (kCreate), the untouched existing one (kKeepExisting)
  std::string reason;
};

// `existing` is the InstanceType currently stored under the derived name, or nullptr.
AuthorDecision decide_derived_instance_type(const NodeFlavor& flavor, const Settings& settings,
                                            const InstanceType* existing,
                                            const PresetTable& table = shipped_preset_table());

}  // namespace chaintwin::model
