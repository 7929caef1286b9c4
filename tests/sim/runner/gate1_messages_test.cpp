// The event log of scenarios/regression/gate1-rejections.yaml carries the operator's Gate 1
// message for each of the seven request rules (operator-domain.md §3.2), the Pod webhook's
// `Pod "" is invalid: …` aggregate, and the refused workloads are never queued.
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace sim = chaintwin::sim;

TEST_CASE("each broken request rule is refused with the operator's message", "[runner][gate1]") {
  auto scenario = sim::load_scenario(std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/regression/gate1-rejections.yaml");
  REQUIRE(scenario.ok());
  sim::Simulation simulation(std::move(*scenario), {});
  auto record = simulation.run();
  REQUIRE(record.ok());

  std::map<std::string, std::string> rejected;  // Workload object → message
  std::map<std::string, int> arrivals;
  for (const auto& e : record->events) {
    if (e.kind == "rejected") rejected[e.object] = e.message;
    if (e.kind == "arrival") ++arrivals[e.object];
  }
  const std::string invalid = "Pod \"\" is invalid: ";
  const std::map<std::string, std::string> want = {
      {"Workload default/rule1-two-families-0",
       invalid + "spec: Forbidden: a Pod may request only one accelerator family, found [exclusive sliced]"},
      {"Workload default/rule2-two-slices-0",
       invalid + "spec.containers[0].resources.limits[nvidia.com/gpu.sliced]: Invalid value: \"2\": a logical slice "
                 "request is always a single accelerator; multi-accelerator logical slicing is not supported yet"},
      {"Workload default/rule3-no-profile-0",
       invalid + "spec.containers[0].resources.limits[nvidia.com/gpu.partitioned]: Required value: a "
                 "nvidia.com/gpu.partitioned request must name a profile, e.g. "
                 "nvidia.com/gpu.partitioned.<kind>-<profile>"},
      {"Workload default/rule4-two-profiles-0",
       invalid + "[spec: Forbidden: a Pod may request only one partition profile, found [1g.10gb 3g.40gb], "
                 "spec.containers[0].resources.limits[nvidia.com/gpu.partitioned]: Forbidden: a container may "
                 "request only one partition profile, found [1g.10gb 3g.40gb]]"},
      {"Workload default/rule5-two-instances-0",
       invalid + "spec.containers[0].resources.limits[nvidia.com/gpu.partitioned.mig-1g.10gb]: Invalid value: "
                 "\"2\": a partition profile request must be exactly 1 instance"},
      {"Workload default/rule6-two-slicers-0",
       invalid + "spec: Forbidden: at most one container may request a slicing family, found 2"},
      {"Workload default/rule7-sidecar-0",
       invalid + "spec.initContainers[0].resources.limits: Forbidden: a restartable init container (a native "
                 "sidecar) may not request an accelerator; move the request to an app container"},
  };
  CHECK(rejected == want);
  // Refused workloads never reach a queue; the well-formed one does.
  for (const auto& [object, message] : want) CHECK(arrivals.count(object) == 0);
  CHECK(arrivals == std::map<std::string, int>{{"Workload default/well-formed-0", 1}});
  const auto counters = simulation.counters();
  CHECK(counters.total.rejected == 7);
  CHECK(counters.total.admitted == 1);
}
