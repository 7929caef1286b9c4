#include "model/settings.h"

#include <array>

namespace chaintwin::model {
namespace {

constexpr std::array<const char*, 8> kNames{
    "node-management-manual",
    "instance-type-mixed-on-node",
    "instance-type-derived-from-node",
    "instance-type-drain-when-no-flavors",
    "instance-type-aware-cpu-manufacturer",
    "workload-fit-affinity",
    "instance-general-resources-overcommit",
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
  return nullptr;
}

}  // namespace

const char* const* setting_names() { return kNames.data(); }

std::optional<bool> get_setting(const Settings& settings, std::string_view name) {
  const bool* f = field(const_cast<Settings&>(settings), name);
  if (f == nullptr) return std::nullopt;
  return *f;
}

Status set_setting(Settings& settings, std::string_view name, std::string_view value) {
  bool* f = field(settings, name);
  if (f == nullptr) {
    std::string known;
    for (const char* const* n = setting_names(); *n != nullptr; ++n) known += std::string(known.empty() ? "" : ", ") + *n;
    return err("unknown setting '" + std::string(name) + "' (known: " + known + ")");
  }
  if (value == "true") {
    *f = true;
  } else if (value == "false") {
    *f = false;
  } else {
    return err("setting '" + std::string(name) + "' must be \"true\" or \"false\", got '" + std::string(value) + "'");
  }
  return Ok{};
}

}  // namespace chaintwin::model
