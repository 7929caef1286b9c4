// The clusters of every file under scenarios/ (each one loads as Kubernetes objects into a
// ClusterState): what the fixpoint tests run the operator's controllers over.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "model/cluster_state.h"
#include "sim/cluster_objects.h"
#include "sim/kube_documents.h"

namespace chaintwin::test_support {

inline std::vector<std::string> scenario_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios"))
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".yml"))
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The file's cluster, with the default Settings; a file that does not load fails the test.
inline model::ClusterState load_cluster(const std::string& path) {
  INFO(path);
  const auto objects = sim::load_kubernetes_objects(path);
  REQUIRE(objects.ok());
  const auto cluster = sim::read_cluster_objects(*objects, model::Settings{});
  INFO((cluster.ok() ? std::string() : cluster.error()));
  REQUIRE(cluster.ok());
  return static_cast<const model::ClusterState&>(*cluster);
}

}  // namespace chaintwin::test_support
