#include <catch2/catch.hpp>

#include "sim/cli/gui/simulation_driver.h"
#include "sim/scenario/default_scenario.h"
#include "sim/scenario/scenario_loader.h"

using namespace chaintwin;

namespace {
cli::SimulationDriver default_driver() {
  auto s = sim::load_scenario_text(std::string(sim::data::kDefaultScenarioYaml), "default");
  REQUIRE(s.ok());
  return cli::SimulationDriver(std::move(s).value(), {});
}
}  // namespace

TEST_CASE("seeking back replays the run: the snapshot at a time is the same whichever way it was reached", "[viz][driver]") {
  auto forward = default_driver();
  REQUIRE(forward.start().ok());
  forward.advance_to(*sim::SimTime::parse("3h"));
  const auto direct = forward.latest();
  forward.advance_to(*sim::SimTime::parse("8h"));
  forward.advance_to(*sim::SimTime::parse("3h"));  // back: restarts and replays
  const auto replayed = forward.latest();
  REQUIRE(direct != nullptr);
  REQUIRE(replayed != nullptr);
  CHECK(replayed->now_us == sim::SimTime::parse("3h")->us());
  CHECK(*replayed == *direct);
  CHECK_FALSE(direct->workloads.empty());
  CHECK_FALSE(direct->events_log.empty());
}

TEST_CASE("the snapshot's pools agree with the pool series the run records", "[viz][driver]") {
  auto d = default_driver();
  REQUIRE(d.start().ok());
  d.advance_to(*sim::SimTime::parse("6h"));
  const auto snap = d.latest();
  REQUIRE(snap != nullptr);
  for (const auto& pool : snap->pools) {
    INFO(pool.cluster_queue);
    const viz::PoolSeries* series = nullptr;
    for (const auto& s : snap->series)
      if (s.cluster_queue == pool.cluster_queue && s.resource == pool.resource) series = &s;
    REQUIRE(series != nullptr);
    REQUIRE_FALSE(series->points.empty());
    CHECK(series->points.back().nominal == pool.nominal);
    CHECK(series->points.back().used == pool.reserved);
  }
}
