// The words of a failed expectation (sim/scenario/expectation_check.h) where they carry credits:
// the ClusterQueue's own unit, with cards beside it.
#include <catch2/catch.hpp>

#include "model/api/quantity.h"
#include "sim/scenario/expectation_check.h"

using namespace chaintwin;

TEST_CASE("a nominalCredits failure names the credits and the cards they make", "[scenario][expect]") {
  model::ClusterState state;
  model::ClusterQueue cq;
  cq.metadata.name = "q";
  model::ResourceGroup group;
  group.covered_resources = {"credits.gpustack.ai/nvidia"};
  group.flavors.push_back({"rf-a", {{"credits.gpustack.ai/nvidia", model::Quantity::from_int(12'800'000), {}, {}}}});
  group.flavors.push_back({"rf-b", {{"credits.gpustack.ai/nvidia", model::Quantity::from_int(400'000), {}, {}}}});
  cq.spec.resource_groups.push_back(group);
  state.cluster_queues["q"] = cq;

  struct Row {
    int64_t want;
    std::vector<std::string> failures;
  };
  const Row rows[] = {
      {13'200'000, {}},
      {25'600'000,
       {"expect.yaml:9: at 1h: ClusterQueue/q: nominalCredits[nvidia]: want 25600000 (16.000 cards), got 13200000 "
        "(8.250 cards)"}},
  };
  for (const auto& r : rows) {
    INFO(r.want);
    sim::Expectation e;
    e.at = sim::SimTime::hours(1);
    e.where = {"expect.yaml", 9};
    e.cluster_queue = "q";
    e.nominal_credits["nvidia"] = r.want;
    std::vector<std::string> got;
    for (const auto& f : sim::check_expectation(e, state, {}, {})) got.push_back(f.str());
    CHECK(got == r.failures);
  }
}
