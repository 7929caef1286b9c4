// The create-only authoring decision for node-derived InstanceTypes.
#include "model/stage4/derived_instance_type.h"

#include "model/catalog/label_keys.h"
#include "model/stage3/pool_identity.h"

namespace chaintwin::model {

InstanceType derived_instance_type(const NodeFlavor& flavor, bool cpu_aware, const PresetTable& table) {
  const auto id = derived_instance_type_identity(flavor, cpu_aware);
  const auto unit = derived_unit_spec(flavor, cpu_aware, table);
  InstanceType it;
  it.metadata.name = id.name;
  it.metadata.labels[std::string(keys::kScheduleDerivedFromNode)] = "true";
  it.spec.general_group = id.general_group;
  it.spec.accelerator_group = id.accelerator_group;
  it.spec.acceleratable = flavor.acceleratable;
  it.spec.os = flavor.os;
  it.spec.arch = flavor.arch;
  it.spec.display_name = unit.display_name;
  it.spec.unit_resources = unit.unit_resources;
  it.spec.local_storage = unit.local_storage;
  return it;
}

std::string_view to_string(AuthorAction action) {
  switch (action) {
    case AuthorAction::kCreate: return "Create";
    case AuthorAction::kKeepExisting: return "KeepExisting";
    case AuthorAction::kDisabled: break;
  }
  return "Disabled";
}

AuthorDecision decide_derived_instance_type(const NodeFlavor& flavor, const Settings& settings,
                                            const InstanceType* existing, const PresetTable& table) {
  AuthorDecision d;
  if (!settings.instance_type_derived_from_node) {
    d.action = AuthorAction::kDisabled;
    d.reason = "instance-type-derived-from-node is off";
    return d;
  }
  const bool aware = settings.instance_type_aware_cpu_manufacturer;
  if (existing != nullptr) {
    d.action = AuthorAction::kKeepExisting;
    d.instance_type = *existing;
    d.reason = "InstanceType " + existing->metadata.name +
               " already exists; authoring is create-only, so its spec and labels stay as they are";
    return d;
  }
  d.action = AuthorAction::kCreate;
  d.instance_type = derived_instance_type(flavor, aware, table);
  d.reason = "create " + d.instance_type.metadata.name + ": " + derived_unit_spec(flavor, aware, table).reason;
  return d;
}

}  // namespace chaintwin::model
