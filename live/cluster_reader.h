// Reads a cluster through its API into the model's ClusterState: discovery first (which groups
// and versions it serves; what chaintwin needs and does not find is said plainly), then a list of
// every kind the chain reads, decoded with the same codecs as scenario files.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "live/api_client.h"
#include "model/stage4/cluster_state.h"

namespace chaintwin::live {

struct ObservedCluster {
  model::ClusterState state;
  std::vector<std::string> missing;  // e.g. "kueue.x-k8s.io/v1beta2 (the cluster serves v1beta1)"
  std::string resource_version;      // of the last list
  int64_t objects = 0;
  std::vector<nlohmann::json> raw;   // every object as listed (apiVersion and kind set)
};

model::Result<ObservedCluster> read_cluster(ApiClient& client);

}  // namespace chaintwin::live
