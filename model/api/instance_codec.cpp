#include "model/api/instance_codec.h"

#include <nlohmann/json.hpp>

#include "model/api/object_meta_codec.h"

namespace chaintwin::model {

nlohmann::json encode_instance(const Instance& instance) {
  nlohmann::json out{{"apiVersion", "worker.gpustack.ai/v1"},
                     {"kind", "Instance"},
                     {"metadata", encode_object_meta(instance.metadata)}};
  nlohmann::json spec{{"type", instance.spec.type}};
  if (instance.spec.stop) spec["stop"] = true;
  out["spec"] = std::move(spec);
  nlohmann::json status = nlohmann::json::object();
  if (!instance.status.phase.empty()) status["phase"] = instance.status.phase;
  if (!instance.status.phase_message.empty()) status["phaseMessage"] = instance.status.phase_message;
  if (!status.empty()) out["status"] = std::move(status);
  return out;
}

Result<Instance> decode_instance(const nlohmann::json& object) {
  if (!object.is_object()) return err("Instance: expected an object");
  Instance out;
  const auto meta = object.find("metadata");
  if (meta == object.end()) return err("Instance: metadata: missing");
  auto decoded = decode_object_meta(*meta);
  if (!decoded.ok()) return err("Instance: " + decoded.error());
  out.metadata = std::move(decoded).value();
  if (const auto spec = object.find("spec"); spec != object.end() && spec->is_object()) {
    if (const auto t = spec->find("type"); t != spec->end() && t->is_string()) out.spec.type = t->get<std::string>();
    if (const auto s = spec->find("stop"); s != spec->end() && s->is_boolean()) out.spec.stop = s->get<bool>();
  }
  if (const auto status = object.find("status"); status != object.end() && status->is_object()) {
    if (const auto p = status->find("phase"); p != status->end() && p->is_string()) out.status.phase = p->get<std::string>();
    if (const auto m = status->find("phaseMessage"); m != status->end() && m->is_string())
      out.status.phase_message = m->get<std::string>();
  }
  return out;
}

}  // namespace chaintwin::model
