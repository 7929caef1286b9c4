#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "live/kueue_conversion.h"

using namespace chaintwin;
using json = nlohmann::json;

TEST_CASE("Kueue objects convert between v1beta1 and v1beta2 the way Kueue converts them", "[live][kueue-conversion]") {
  struct Row {
    const char* what;
    json v1beta1, v1beta2;
  };
  const std::vector<Row> rows = {
      {"a ClusterQueue's cohort and its fungibility policies",
       {{"apiVersion", "kueue.x-k8s.io/v1beta1"}, {"kind", "ClusterQueue"},
        {"spec", {{"cohort", "team"}, {"flavorFungibility", {{"whenCanBorrow", "Borrow"}, {"whenCanPreempt", "Preempt"}}}}}},
       {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "ClusterQueue"},
        {"spec", {{"cohortName", "team"}, {"flavorFungibility", {{"whenCanBorrow", "MayStopSearch"}, {"whenCanPreempt", "MayStopSearch"}}}}}}},
      {"fungibility values both versions spell alike",
       {{"apiVersion", "kueue.x-k8s.io/v1beta1"}, {"kind", "ClusterQueue"},
        {"spec", {{"flavorFungibility", {{"whenCanBorrow", "TryNextFlavor"}}}}}},
       {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "ClusterQueue"},
        {"spec", {{"flavorFungibility", {{"whenCanBorrow", "TryNextFlavor"}}}}}}},
      {"a LocalQueue's flavor usage",
       {{"apiVersion", "kueue.x-k8s.io/v1beta1"}, {"kind", "LocalQueue"}, {"status", {{"flavorUsage", json::array({{{"name", "f"}}})}}}},
       {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "LocalQueue"}, {"status", {{"flavorsUsage", json::array({{{"name", "f"}}})}}}}},
      {"a Workload's priority class and past execution time",
       {{"apiVersion", "kueue.x-k8s.io/v1beta1"}, {"kind", "Workload"},
        {"spec", {{"priorityClassSource", "kueue.x-k8s.io/workloadpriorityclass"}, {"priorityClassName", "high"}}},
        {"status", {{"accumulatedPastExexcutionTimeSeconds", 30}}}},
       {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "Workload"},
        {"spec", {{"priorityClassRef", {{"group", "kueue.x-k8s.io"}, {"kind", "WorkloadPriorityClass"}, {"name", "high"}}}}},
        {"status", {{"accumulatedPastExecutionTimeSeconds", 30}}}}},
      {"a Pod priority class",
       {{"apiVersion", "kueue.x-k8s.io/v1beta1"}, {"kind", "Workload"},
        {"spec", {{"priorityClassSource", "scheduling.k8s.io/priorityclass"}, {"priorityClassName", "system"}}}},
       {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "Workload"},
        {"spec", {{"priorityClassRef", {{"group", "scheduling.k8s.io"}, {"kind", "PriorityClass"}, {"name", "system"}}}}}}},
      {"a ResourceFlavor (spelled alike)",
       {{"apiVersion", "kueue.x-k8s.io/v1beta1"}, {"kind", "ResourceFlavor"}, {"spec", {{"nodeLabels", {{"a", "b"}}}}}},
       {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "ResourceFlavor"}, {"spec", {{"nodeLabels", {{"a", "b"}}}}}}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(live::kueue_to_v1beta2(r.v1beta1) == r.v1beta2);
    CHECK(live::kueue_to_v1beta1(r.v1beta2) == r.v1beta1);
  }
}

TEST_CASE("objects of other groups and versions pass unchanged", "[live][kueue-conversion]") {
  const json node = {{"apiVersion", "v1"}, {"kind", "Node"}, {"spec", {{"cohort", "not Kueue's"}}}};
  CHECK(live::kueue_to_v1beta2(node) == node);
  CHECK(live::kueue_to_v1beta1(node) == node);
  const json already = {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "ClusterQueue"}, {"spec", {{"cohortName", "x"}}}};
  CHECK(live::kueue_to_v1beta2(already) == already);
  const json old = {{"apiVersion", "kueue.x-k8s.io/v1beta1"}, {"kind", "ClusterQueue"}, {"spec", {{"cohort", "x"}}}};
  CHECK(live::kueue_to_v1beta1(old) == old);
}
