#include "model/api/settings.h"

#include <array>

namespace chaintwin::model {
namespace {

constexpr std::array<const char*, 10> kNames{
    "node-management-manual",
    "instance-type-mixed-on-node",
    "instance-type-derived-from-node",
    "instance-type-drain-when-no-flavors",
    "instance-type-aware-cpu-manufacturer",
    "workload-fit-affinity",
    "instance-general-resources-overcommit",
    "instance-persistent-volume-placement",
    "model-artifact-delivery-mode",
    nullptr,
};

constexpr std::array<const char*, 3> kEnvironment{
    "GPUSTACK_DEVICE_PLUGIN_SLICED_ALLOCATE_GATE",
    "GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS",
    nullptr,
};

bool* field(Settings& s, std::string_view name) {
  if (name == "node-management-manual") return &s.node_management_manual;
  if (name == "instance-type-mixed-on-node") return &s.instance_type_mixed_on_node;
  if (name == "instance-type-derived-from-node") return &s.instance_type_derived_from_node;
  if (name == "instance-type-drain-when-no-flavors") return &s.instance_type_drain_when_no_flavors;
  if (name == "instance-type-aware-cpu-manufacturer") return &s.instance_type_aware_cpu_manufacturer;
  if (name == "workload-fit-affinity") return &s.workload_fit_affinity;
  if (name == "instance-general-resources-overcommit") return &s.instance_general_resources_overcommit;
  if (name == "instance-persistent-volume-placement") return &s.instance_persistent_volume_placement;
  return nullptr;
}

bool* environment_field(Settings& s, std::string_view name) {
  if (name == "GPUSTACK_DEVICE_PLUGIN_SLICED_ALLOCATE_GATE") return &s.device_plugin_sliced_allocate_gate;
  if (name == "GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS") return &s.ledger_release_terminated_pods;
  return nullptr;
}

std::string joined(const char* const* names) {
  std::string out;
  for (const char* const* n = names; *n != nullptr; ++n) out += std::string(out.empty() ? "" : ", ") + *n;
  return out;
}

Status set_bool(bool* f, std::string_view what, std::string_view name, std::string_view value) {
  if (value == "true") {
    *f = true;
  } else if (value == "false") {
    *f = false;
  } else {
    return err(std::string(what) + " '" + std::string(name) + "' must be \"true\" or \"false\", got '" +
               std::string(value) + "'");
  }
  return Ok{};
}

}  // namespace

const char* const* setting_names() { return kNames.data(); }
const char* const* environment_names() { return kEnvironment.data(); }

bool is_environment_name(std::string_view name) {
  Settings probe;
  return environment_field(probe, name) != nullptr;
}

std::optional<std::string> get_setting_text(const Settings& settings, std::string_view name) {
  if (name == "model-artifact-delivery-mode") return settings.model_artifact_delivery_mode;
  const bool* f = field(const_cast<Settings&>(settings), name);
  if (f == nullptr) return std::nullopt;
  return *f ? "true" : "false";
}

std::optional<bool> get_setting(const Settings& settings, std::string_view name) {
  const bool* f = field(const_cast<Settings&>(settings), name);
  if (f == nullptr) return std::nullopt;
  return *f;
}

Status set_setting(Settings& settings, std::string_view name, std::string_view value) {
  if (name == "model-artifact-delivery-mode") {
    if (value != kModelArtifactDeliveryEngine && value != kModelArtifactDeliveryNode)
      return err("setting 'model-artifact-delivery-mode' must be \"Engine\" or \"Node\", got '" + std::string(value) +
                 "'");
    settings.model_artifact_delivery_mode = std::string(value);
    return Ok{};
  }
  bool* f = field(settings, name);
  if (f == nullptr) {
    if (is_environment_name(name))
      return err("'" + std::string(name) + "' is a deploy-time environment variable, not a Setting: the operator "
                 "reads it once at startup (set it in the scenario's settings block)");
    return err("unknown setting '" + std::string(name) + "' (known: " + joined(setting_names()) + ")");
  }
  return set_bool(f, "setting", name, value);
}

Status set_environment(Settings& settings, std::string_view name, std::string_view value) {
  bool* f = environment_field(settings, name);
  if (f == nullptr)
    return err("unknown environment variable '" + std::string(name) + "' (known: " + joined(environment_names()) +
               ")");
  return set_bool(f, "environment variable", name, value);
}

}  // namespace chaintwin::model
