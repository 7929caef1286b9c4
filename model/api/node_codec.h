// Node <-> Kubernetes JSON (apiVersion v1, kind Node): metadata, spec.unschedulable and
// status.capacity / status.allocatable as quantity strings in canonical form. Decoding accepts a
// quantity as a string or a plain JSON number (as the API machinery does) and refuses a malformed
// one by path: `status.capacity["nvidia.com/gpu"]: quantity 'x' ...`.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/api/node.h"
#include "model/result.h"

namespace chaintwin::model {

nlohmann::json encode_node(const Node& node);
Result<Node> decode_node(const nlohmann::json& document);

// A ResourceList as a JSON object of quantity strings.
nlohmann::json encode_resource_list(const ResourceList& list);

namespace codec {
// For other codecs: decodes a ResourceList found at `path`, throwing DecodeError.
ResourceList decode_resource_list_at(const nlohmann::json& list, const std::string& path);
}  // namespace codec

}  // namespace chaintwin::model
