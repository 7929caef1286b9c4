// Reads a cluster through its API into the model's ClusterState: discovery first (which groups
// and versions it serves; what chaintwin needs and does not find is said plainly), then a list of
// every kind the chain reads, decoded with the same codecs as scenario files, and of Kueue's
// Workloads, decoded beside it into a WorkloadState (the operator's controllers do not read them;
// the GUI and `chaintwin snapshot` do).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "live/api_client.h"
#include "live/api_paths.h"
#include "model/cluster_state.h"
#include "model/workload/workload.h"

namespace chaintwin::live {

struct ObservedCluster {
  model::ClusterState state;
  model::WorkloadState workloads;    // Kueue's Workloads (no Pods: the live mode does not read them)
  // What was read but left out, "Kind namespace/name: why": Workloads that do not decode (no
  // controller of the operator reads them), and Kueue objects someone else made that the model
  // cannot hold. They are in neither `state`, `workloads` nor `raw`.
  std::vector<std::string> left_out;
  std::vector<std::string> missing;  // e.g. "gpustack.ai/v1 (settings): the cluster does not serve the group"
  std::vector<ApiResource> resources;  // the kinds read, each at the version the cluster serves
  std::string resource_version;      // of the last list
  int64_t objects = 0;
  std::vector<nlohmann::json> raw;   // every object as listed (apiVersion and kind set; Kueue's in v1beta2)
};

model::Result<ObservedCluster> read_cluster(ApiClient& client);

// Decodes `out.raw` (objects as listed or watched, apiVersion and kind set) into `out.state` and
// `out.workloads`; a refusal names the object and the field (what may be set aside is listed in
// `out.left_out` instead). Shared by read_cluster and the watcher.
model::Status decode_observed(ObservedCluster& out);

// Adds a list reply's items (as_read) to `out.raw` and keeps its resourceVersion. A reply that is
// not an object, items that are not a list, or an item that is not an object is refused by
// position, and nothing is added.
model::Status add_listed(ObservedCluster& out, nlohmann::json list, const ApiResource& r);

// An object as listed or watched at `r`: its kind and apiVersion set (a List's items carry none on
// a real API server) and, from a v1beta1-only Kueue, converted to v1beta2.
nlohmann::json as_read(nlohmann::json object, const ApiResource& r);

}  // namespace chaintwin::live
