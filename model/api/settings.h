// Settings: the operator's settings that touch the chain, with the operator's defaults.
//
// Two kinds, as the operator has them:
//  - online settings (pkg/worker/settings, the `Setting` catalog; read per reconcile or per webhook
//    call, so every model function takes them as a value) — set by name with set_setting;
//  - deploy-time environment variables of the device manager and the worker (read once at startup;
//    a change needs a restart) — set by their variable name with set_environment.
// Some are accepted but change nothing the twin models (docs/fidelity.md, "Settings").
#pragma once

#include <optional>

#include <string>
#include <string_view>

#include "model/result.h"

namespace chaintwin::model {

inline constexpr std::string_view kModelArtifactDeliveryEngine = "Engine";
inline constexpr std::string_view kModelArtifactDeliveryNode = "Node";

struct Settings {
  // Online (Setting objects).
  bool node_management_manual = false;                // node-management-manual
  bool instance_type_mixed_on_node = true;            // instance-type-mixed-on-node
  bool instance_type_derived_from_node = true;        // instance-type-derived-from-node
  bool instance_type_drain_when_no_flavors = true;    // instance-type-drain-when-no-flavors
  bool instance_type_aware_cpu_manufacturer = false;  // instance-type-aware-cpu-manufacturer
  bool workload_fit_affinity = true;                  // workload-fit-affinity
  bool instance_general_resources_overcommit = true;  // instance-general-resources-overcommit
  bool instance_persistent_volume_placement = true;   // instance-persistent-volume-placement
  std::string model_artifact_delivery_mode = std::string(kModelArtifactDeliveryEngine);  // model-artifact-delivery-mode
  // Deploy-time environment.
  bool device_plugin_sliced_allocate_gate = true;     // GPUSTACK_DEVICE_PLUGIN_SLICED_ALLOCATE_GATE
  bool ledger_release_terminated_pods = true;         // GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS
  bool operator==(const Settings&) const = default;
};

// Sets one online setting by its operator name ("instance-type-mixed-on-node"): a boolean one
// from "true"/"false", model-artifact-delivery-mode from "Engine"/"Node". Refuses unknown names
// and values the setting does not allow, saying which.
Status set_setting(Settings& settings, std::string_view name, std::string_view value);

// A setting's value as the Setting object spells it ("true", "Engine"); nullopt for an unknown name.
std::optional<std::string> get_setting_text(const Settings& settings, std::string_view name);

// A boolean setting's value by its operator name; nullopt for an unknown or non-boolean name.
std::optional<bool> get_setting(const Settings& settings, std::string_view name);

// The operator names of the online settings above, in a stable order, ending in nullptr.
const char* const* setting_names();

// Sets one deploy-time environment variable ("GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS") from
// "true"/"false". Refuses unknown names and other values.
Status set_environment(Settings& settings, std::string_view name, std::string_view value);

// Whether `name` is one of the deploy-time environment variables above.
bool is_environment_name(std::string_view name);

// The deploy-time environment variable names, in a stable order, ending in nullptr.
const char* const* environment_names();

}  // namespace chaintwin::model
