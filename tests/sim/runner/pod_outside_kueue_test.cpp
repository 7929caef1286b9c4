// scenarios/regression/pod-outside-kueue-holds-tas-room.yaml: a Pod outside Kueue holding t4-a's
// card leaves TAS no room there, so `first` goes to t4-b with no Gate 3 Retry and `second` stays
// Pending with Kueue's TAS message (kueue-semantics §1.10, non-TAS usage).
#include <string>

#include <catch2/catch.hpp>

#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace sim = chaintwin::sim;

TEST_CASE("a Pod outside Kueue turns Gate 3 churn into Kueue's TAS message", "[runner][tas]") {
  auto scenario =
      sim::load_scenario(std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/regression/pod-outside-kueue-holds-tas-room.yaml");
  REQUIRE(scenario.ok());
  sim::Simulation simulation(std::move(*scenario), {});
  auto record = simulation.run();
  REQUIRE(record.ok());
  std::string pending;
  std::string first_on;
  int retries = 0;
  for (const auto& e : record->events) {
    if (e.kind == "Pending" && e.object == "Workload default/second-0") pending = e.message;
    if (e.kind == "PodRunning" && e.object == "Pod default/first-0-main-0") first_on = e.message;
    if (e.kind == "check" && e.message.find(" Retry: ") != std::string::npos) ++retries;
  }
  CHECK(first_on == "on t4-b main→card 0");
  CHECK(retries == 0);
  CHECK(pending.rfind("couldn't assign flavors to pod set main: topology \"gpustack-fnv64-", 0) == 0);
  CHECK(pending.find("\" doesn't allow to fit any of 1 pod(s). Total nodes: 2; excluded: resource "
                     "\"nvidia.com/gpu\": 2") != std::string::npos);
}
