// Node JSON encoding and path-aware decoding.
#include "model/api/node_codec.h"

#include "model/api/codec_support.h"
#include "model/api/object_meta_codec.h"

namespace chaintwin::model {
nlohmann::json encode_resource_list(const ResourceList& list) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, quantity] : list) j[name] = quantity.to_string();
  return j;
}

nlohmann::json encode_node(const Node& node) {
  nlohmann::json spec = nlohmann::json::object();
  if (node.unschedulable) spec["unschedulable"] = true;
  nlohmann::json status = nlohmann::json::object();
  if (!node.status.capacity.empty()) status["capacity"] = encode_resource_list(node.status.capacity);
  if (!node.status.allocatable.empty()) status["allocatable"] = encode_resource_list(node.status.allocatable);
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", encode_object_meta(node.metadata)},
          {"spec", std::move(spec)},
          {"status", std::move(status)}};
}

namespace codec {

ResourceList decode_resource_list_at(const json& list, const std::string& path) {
  expect_object(list, path);
  ResourceList out;
  for (const auto& [name, value] : list.items()) {
    const std::string at = key_path(path, name);
    out.emplace(name, as_quantity(value, at));
  }
  return out;
}

}  // namespace codec

Result<Node> decode_node(const nlohmann::json& doc) {
  using namespace codec;
  try {
    expect_object(doc, "");
    expect_type_meta(doc, {"v1"}, "Node");
    Node node;
    if (const json* m = find_member(doc, "metadata")) node.metadata = decode_object_meta_at(*m, "metadata");
    if (const json* spec = find_member(doc, "spec")) {
      expect_object(*spec, "spec");
      node.unschedulable = read_bool(*spec, "unschedulable", "spec");
    }
    if (const json* status = find_member(doc, "status")) {
      expect_object(*status, "status");
      if (const json* c = find_member(*status, "capacity"))
        node.status.capacity = decode_resource_list_at(*c, "status.capacity");
      if (const json* a = find_member(*status, "allocatable"))
        node.status.allocatable = decode_resource_list_at(*a, "status.allocatable");
    }
    return node;
  } catch (const DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
