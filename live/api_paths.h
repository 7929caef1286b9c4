// API paths of the kinds the live mode lists and watches, as a real API server serves them, and
// which version of each a given cluster serves. The live mode and `serve` build every request and
// route from this table, so the group/version/resource of each kind is written down once.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

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

// Which group versions a cluster serves: group ("" for core) → versions, from GET /apis's
// APIGroupList (`groups[].versions[].version`).
using ServedVersions = std::map<std::string, std::set<std::string>>;
ServedVersions served_versions(const nlohmann::json& api_group_list);

// The kinds the live mode reads (every watched resource but InstanceTypeFlavor), each at the
// version the cluster serves: as listed, or Kueue's at v1beta1 when the cluster serves Kueue only
// as v1beta1 (kueue_conversion.h converts them); and what it does not find, one line each, e.g.
// "gpustack.ai/v1 (settings): the cluster does not serve the group".
struct ResolvedResources {
  std::vector<ApiResource> resources;
  std::vector<std::string> missing;
};
ResolvedResources resolve_resources(const ServedVersions& served);

// The resource of `kind` among `resources`, else the table's.
std::optional<ApiResource> find_resource(std::span<const ApiResource> resources, std::string_view kind);

// "group/version" ("v1" for the core group).
std::string api_version_of(const ApiResource& r);

// The collection path: /api/v1/nodes, /apis/kueue.x-k8s.io/v1beta2/clusterqueues,
// /apis/kueue.x-k8s.io/v1beta2/namespaces/<ns>/localqueues.
std::string collection_path(const ApiResource& r, std::string_view ns = "");
// The object path: the collection path plus "/<name>".
std::string object_path(const ApiResource& r, std::string_view name, std::string_view ns = "");

}  // namespace chaintwin::live
