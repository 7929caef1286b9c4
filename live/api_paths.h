// API paths of the kinds the live mode lists and watches, as a real API server serves them.
// The live mode (a later issue) builds every request from this table; it is kept here so the
// group/version/resource of each kind is written down once.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace chaintwin::live {

struct ApiResource {
  std::string_view kind;      // e.g. "ResourceFlavor"
  std::string_view group;     // "" for the core group
  std::string_view version;   // e.g. "v1beta2"
  std::string_view resource;  // plural, e.g. "resourceflavors"
  bool namespaced;
};

std::span<const ApiResource> watched_resources();
std::optional<ApiResource> find_resource(std::string_view kind);

// The collection path: /api/v1/nodes, /apis/kueue.x-k8s.io/v1beta2/clusterqueues,
// /apis/kueue.x-k8s.io/v1beta2/namespaces/<ns>/localqueues.
std::string collection_path(const ApiResource& r, std::string_view ns = "");
// The object path: the collection path plus "/<name>".
std::string object_path(const ApiResource& r, std::string_view name, std::string_view ns = "");

}  // namespace chaintwin::live
