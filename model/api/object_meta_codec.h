// ObjectMeta <-> Kubernetes JSON (`metadata`): name, namespace, uid, resourceVersion, generation,
// creationTimestamp, deletionTimestamp, labels, annotations, finalizers, ownerReferences.
// Used by every object codec (node_codec, devices_codec). Unknown fields are ignored on decode,
// as the API machinery does; empty fields are omitted on encode.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/api/object_meta.h"
#include "model/result.h"

namespace chaintwin::model {

nlohmann::json encode_object_meta(const ObjectMeta& meta);
// Errors name the field, e.g. `metadata.labels["a"]: expected a string, got 3` (the path is
// relative to the object passed, so a bare metadata object yields `labels["a"]: ...`).
Result<ObjectMeta> decode_object_meta(const nlohmann::json& metadata);

namespace codec {
// For other codecs: decodes `metadata` found at `path`, throwing DecodeError.
ObjectMeta decode_object_meta_at(const nlohmann::json& metadata, const std::string& path);
}  // namespace codec

}  // namespace chaintwin::model
