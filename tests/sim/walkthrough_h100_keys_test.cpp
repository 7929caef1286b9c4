// The eight-H100 MIG walkthrough (operator-domain.md §9.3): for every configuration, the counting
// keys the worker derives must be the operator's recorded node allocatable numbers.
#include <catch2/catch.hpp>

#include "model/stage3/stage3.h"
#include "sim/cluster_objects.h"
#include "sim/kube_documents.h"

namespace {

using namespace chaintwin;
using Keys = std::map<std::string, std::string>;

Keys derived_keys(const std::string& config) {
  const auto objects = sim::load_kubernetes_objects(std::string(CHAINTWIN_SOURCE_DIR) +
                                                    "/scenarios/walkthroughs/h100-mig-config-" + config + ".yaml");
  REQUIRE(objects.ok());
  const auto cluster = sim::read_cluster_objects(*objects, model::Settings{});
  REQUIRE(cluster.ok());
  const auto s = model::derive_node_stage3(cluster->nodes.at("node-h100"), &cluster->devices.at("node-h100"),
                                           cluster->settings);
  Keys out;
  for (const auto& [k, q] : s.capacity) out[k.substr(std::string("nvidia.com/gpu.").size())] = q.to_string();
  return out;
}

const Keys kAllLogical{{"sliced.units", "12800k"},
                       {"sliced.cores-percentage", "102400"},
                       {"sliced.memory-mib", "655360"},
                       {"sliced.memory-percentage", "800"}};

Keys partitioned(const char* units, std::array<const char*, 6> p) {
  return {{"partitioned.units", units},        {"partitioned.mig-1g.10gb", p[0]}, {"partitioned.mig-1g.20gb", p[1]},
          {"partitioned.mig-2g.20gb", p[2]}, {"partitioned.mig-3g.40gb", p[3]}, {"partitioned.mig-4g.40gb", p[4]},
          {"partitioned.mig-7g.80gb", p[5]}};
}

Keys merged(Keys a, const Keys& b) {
  a.insert(b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("every configuration of the eight-H100 walkthrough derives the recorded counting keys", "[walkthrough]") {
  const Keys mixed_logical{{"sliced.units", "8M"},
                           {"sliced.cores-percentage", "64k"},
                           {"sliced.memory-mib", "409600"},
                           {"sliced.memory-percentage", "500"}};
  const std::vector<std::pair<std::string, Keys>> table{
      {"1-all-logical", kAllLogical},
      {"2-all-mig", partitioned("12800k", {"56", "32", "24", "16", "8", "8"})},
      {"2-all-mig-carved", partitioned("12800k", {"52", "30", "22", "16", "7", "7"})},
      {"3-mixed", merged(mixed_logical, partitioned("4800k", {"21", "12", "9", "6", "3", "3"}))},
      // The partition does not touch the sliced keys; the 50 % slice does not change capacity.
      {"3-mixed-carved-sliced", merged(mixed_logical, partitioned("4800k", {"17", "10", "7", "6", "2", "2"}))},
      {"4-back-to-logical", kAllLogical},
  };
  for (const auto& [config, want] : table) {
    INFO("configuration " << config);
    CHECK(derived_keys(config) == want);
  }
}
