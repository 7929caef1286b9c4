#include "live/api_paths.h"

#include <array>

namespace chaintwin::live {
namespace {

constexpr std::array<ApiResource, 13> kResources{{
    {"Namespace", "", "v1", "namespaces", false},
    {"Node", "", "v1", "nodes", false},
    {"Devices", "worker.gpustack.ai", "v1", "devices", false},
    {"InstanceType", "worker.gpustack.ai", "v1", "instancetypes", false},
    {"InstanceTypeFlavor", "worker.gpustack.ai", "v1", "instancetypeflavors", false},
    {"Setting", "gpustack.ai", "v1", "settings", true},
    {"ResourceFlavor", "kueue.x-k8s.io", "v1beta2", "resourceflavors", false},
    {"ClusterQueue", "kueue.x-k8s.io", "v1beta2", "clusterqueues", false},
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
