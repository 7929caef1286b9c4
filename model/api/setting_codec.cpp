#include "model/api/setting_codec.h"

namespace chaintwin::model {

Status apply_setting_object(Settings& settings, const nlohmann::json& object) {
  if (!object.contains("metadata") || !object["metadata"].is_object() || !object["metadata"].contains("name") ||
      !object["metadata"]["name"].is_string())
    return err("metadata.name: a Setting needs its name (the setting's key, e.g. instance-type-mixed-on-node)");
  const std::string name = object["metadata"]["name"].get<std::string>();
  const nlohmann::json* value = nullptr;
  std::string field;
  if (object.contains("spec") && object["spec"].is_object() && object["spec"].contains("value")) {
    value = &object["spec"]["value"];
    field = "spec.value";
  } else if (object.contains("status") && object["status"].is_object() && object["status"].contains("value")) {
    value = &object["status"]["value"];
    field = "status.value";
  } else {
    return err("spec.value: Setting '" + name + "' has no value (expected spec.value or status.value)");
  }
  std::string text;
  if (value->is_string()) {
    text = value->get<std::string>();
  } else if (value->is_boolean()) {
    text = value->get<bool>() ? "true" : "false";
  } else {
    return err(field + ": expected \"true\" or \"false\", got " + value->dump());
  }
  const Status s = set_setting(settings, name, text);
  if (!s.ok()) return err((s.error().rfind("unknown setting", 0) == 0 ? "metadata.name: " : field + ": ") + s.error());
  return Ok{};
}

}  // namespace chaintwin::model
