// ObjectMeta JSON encoding and path-aware decoding.
#include "model/api/object_meta_codec.h"

#include <limits>

#include "model/api/codec_support.h"

namespace chaintwin::model {

nlohmann::json encode_object_meta(const ObjectMeta& meta) {
  nlohmann::json j = nlohmann::json::object();
  if (!meta.name.empty()) j["name"] = meta.name;
  if (!meta.namespace_.empty()) j["namespace"] = meta.namespace_;
  if (!meta.uid.empty()) j["uid"] = meta.uid;
  if (!meta.resource_version.empty()) j["resourceVersion"] = meta.resource_version;
  if (meta.generation != 0) j["generation"] = meta.generation;
  if (!meta.creation_timestamp.empty()) j["creationTimestamp"] = meta.creation_timestamp;
  if (meta.deletion_timestamp) j["deletionTimestamp"] = *meta.deletion_timestamp;
  if (!meta.labels.empty()) j["labels"] = meta.labels;
  if (!meta.annotations.empty()) j["annotations"] = meta.annotations;
  if (!meta.finalizers.empty()) j["finalizers"] = meta.finalizers;
  if (!meta.owner_references.empty()) {
    auto& refs = j["ownerReferences"] = nlohmann::json::array();
    for (const auto& r : meta.owner_references) {
      nlohmann::json ref{{"apiVersion", r.api_version}, {"kind", r.kind}, {"name", r.name}, {"uid", r.uid}};
      if (r.controller) ref["controller"] = true;
      refs.push_back(std::move(ref));
    }
  }
  return j;
}

namespace codec {

ObjectMeta decode_object_meta_at(const json& m, const std::string& path) {
  expect_object(m, path);
  ObjectMeta meta;
  meta.name = read_string(m, "name", path);
  meta.namespace_ = read_string(m, "namespace", path);
  meta.uid = read_string(m, "uid", path);
  meta.resource_version = read_string(m, "resourceVersion", path);
  meta.generation = read_int(m, "generation", path, 0, std::numeric_limits<int64_t>::max());
  meta.creation_timestamp = read_string(m, "creationTimestamp", path);
  if (const json* d = find_member(m, "deletionTimestamp"))
    meta.deletion_timestamp = as_string(*d, member_path(path, "deletionTimestamp"));
  meta.labels = read_string_map(m, "labels", path);
  meta.annotations = read_string_map(m, "annotations", path);
  meta.finalizers = read_string_list(m, "finalizers", path);
  meta.owner_references = read_list(m, "ownerReferences", path, [](const json& ref, const std::string& at) {
    expect_object(ref, at);
    OwnerReference r;
    r.api_version = read_string(ref, "apiVersion", at);
    r.kind = read_string(ref, "kind", at);
    r.name = read_string(ref, "name", at);
    r.uid = read_string(ref, "uid", at);
    r.controller = read_bool(ref, "controller", at);
    return r;
  });
  return meta;
}

}  // namespace codec

Result<ObjectMeta> decode_object_meta(const nlohmann::json& metadata) {
  try {
    return codec::decode_object_meta_at(metadata, "");
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
