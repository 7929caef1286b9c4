#include "live/api_paths.h"
#include "live/json_members.h"

#include <array>

namespace chaintwin::live {
namespace {

constexpr std::array<ApiResource, 14> kResources{{
    {"Namespace", "", "v1", "namespaces", false},
    {"Node", "", "v1", "nodes", false},
    {"Devices", "worker.gpustack.ai", "v1", "devices", false},
    {"InstanceType", "worker.gpustack.ai", "v1", "instancetypes", false},
    {"InstanceTypeFlavor", "worker.gpustack.ai", "v1", "instancetypeflavors", false},
    {"Setting", "gpustack.ai", "v1", "settings", true},
    {"ResourceFlavor", "kueue.x-k8s.io", "v1beta2", "resourceflavors", false},
    {"ClusterQueue", "kueue.x-k8s.io", "v1beta2", "clusterqueues", false},
    {"Cohort", "kueue.x-k8s.io", "v1beta2", "cohorts", false},
    {"LocalQueue", "kueue.x-k8s.io", "v1beta2", "localqueues", true},
    {"Workload", "kueue.x-k8s.io", "v1beta2", "workloads", true},
    {"AdmissionCheck", "kueue.x-k8s.io", "v1beta2", "admissionchecks", false},
    {"Topology", "kueue.x-k8s.io", "v1beta2", "topologies", false},
    {"TopologySource", "worker.gpustack.ai", "v1", "topologysources", false},
}};

}  // namespace

std::span<const ApiResource> watched_resources() { return kResources; }

std::optional<ApiResource> find_resource(std::string_view kind) {
  for (const auto& r : kResources)
    if (r.kind == kind) return r;
  return std::nullopt;
}

ServedVersions served_versions(const nlohmann::json& api_group_list) {
  ServedVersions served;
  for (const auto& g : array_member(api_group_list, "groups"))
    for (const auto& v : array_member(g, "versions"))
      if (v.is_object()) served[string_member(g, "name")].insert(string_member(v, "version"));
  return served;
}

ResolvedResources resolve_resources(const ServedVersions& served) {
  ResolvedResources out;
  for (ApiResource r : kResources) {
    if (r.kind == "InstanceTypeFlavor") continue;  // not read by the operator's controllers
    if (r.group.empty()) {
      out.resources.push_back(r);
      continue;
    }
    const auto it = served.find(std::string(r.group));
    const std::set<std::string> none;
    const std::set<std::string>& have = it == served.end() ? none : it->second;
    if (have.count(std::string(r.version)) == 0 && r.group == "kueue.x-k8s.io" && have.count("v1beta1") > 0)
      r.version = "v1beta1";
    if (have.count(std::string(r.version)) > 0) {
      out.resources.push_back(r);
      continue;
    }
    std::string note = api_version_of(r) + " (" + std::string(r.resource) + "): ";
    if (have.empty()) {
      note += "the cluster does not serve the group";
    } else {
      note += "the cluster serves only";
      for (const auto& v : have) note += " " + v;
    }
    out.missing.push_back(note);
  }
  return out;
}

std::optional<ApiResource> find_resource(std::span<const ApiResource> resources, std::string_view kind) {
  for (const auto& r : resources)
    if (r.kind == kind) return r;
  return find_resource(kind);
}

std::string api_version_of(const ApiResource& r) {
  return r.group.empty() ? std::string(r.version) : std::string(r.group) + "/" + std::string(r.version);
}

std::string collection_path(const ApiResource& r, std::string_view ns) {
  std::string path = r.group.empty() ? "/api/" + std::string(r.version)
                                     : "/apis/" + std::string(r.group) + "/" + std::string(r.version);
  if (r.namespaced && !ns.empty()) path += "/namespaces/" + std::string(ns);
  return path + "/" + std::string(r.resource);
}

std::string object_path(const ApiResource& r, std::string_view name, std::string_view ns) {
  return collection_path(r, ns) + "/" + std::string(name);
}

}  // namespace chaintwin::live
