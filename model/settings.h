// Settings: the operator's online-adjustable settings that touch the chain, with the
// operator's defaults. Read per reconcile, so every model function takes them as a value.
#pragma once

#include <optional>

#include <string>
#include <string_view>

#include "model/result.h"

namespace chaintwin::model {

struct Settings {
  bool node_management_manual = false;               // node-management-manual
  bool instance_type_mixed_on_node = true;           // instance-type-mixed-on-node
  bool instance_type_derived_from_node = true;       // instance-type-derived-from-node
  bool instance_type_drain_when_no_flavors = true;   // instance-type-drain-when-no-flavors
  bool instance_type_aware_cpu_manufacturer = false; // instance-type-aware-cpu-manufacturer
  bool workload_fit_affinity = true;                 // workload-fit-affinity
  // instance-general-resources-overcommit: an Instance Pod requests a scaled-down share of its
  // CPU/RAM limits (model/instance_general_resources.h) instead of the limits themselves.
  bool instance_general_resources_overcommit = true;
  bool operator==(const Settings&) const = default;
};

// Sets one setting by its operator name ("instance-type-mixed-on-node") from "true"/"false".
// Refuses unknown names and non-boolean values, saying which.
Status set_setting(Settings& settings, std::string_view name, std::string_view value);

// A setting's value by its operator name; nullopt for an unknown name.
std::optional<bool> get_setting(const Settings& settings, std::string_view name);

// The operator names of the settings above, in a stable order.
const char* const* setting_names();

}  // namespace chaintwin::model
