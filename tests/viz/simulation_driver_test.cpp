#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

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

TEST_CASE("the stepping thread plays, pauses, steps and seeks on the window's commands", "[viz][driver]") {
  auto d = default_driver();
  REQUIRE(d.start().ok());
  d.run_in_background(/*playing=*/false, /*speed=*/86400);
  // Waits (up to 20 s of wall time) until the newest snapshot satisfies `ready`.
  auto wait_for = [&](auto ready) {
    for (int i = 0; i < 2000; ++i) {
      const auto s = d.latest();
      if (s != nullptr && ready(*s)) return s;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::shared_ptr<const viz::Snapshot>();
  };
  REQUIRE(d.latest() != nullptr);
  CHECK_FALSE(d.latest()->playing);
  CHECK(d.latest()->now_us == 0);

  d.send({viz::Command::Kind::kPlay, 0, 0});
  const auto moving = wait_for([](const viz::Snapshot& s) { return s.playing && s.now_us > 0; });
  REQUIRE(moving != nullptr);

  d.send({viz::Command::Kind::kPause, 0, 0});
  const auto paused = wait_for([](const viz::Snapshot& s) { return !s.playing; });
  REQUIRE(paused != nullptr);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(d.latest()->now_us == paused->now_us);  // paused means paused

  d.send({viz::Command::Kind::kSeek, sim::SimTime::parse("2h")->us(), 0});
  const auto at2h = wait_for([](const viz::Snapshot& s) { return s.now_us == sim::SimTime::parse("2h")->us(); });
  REQUIRE(at2h != nullptr);

  const int64_t events = at2h->events;
  d.send({viz::Command::Kind::kStep, 0, 0});
  // One step handles the next event: it may fall in the same instant (Kueue's cycles run back to
  // back) and may count batched idle cycles as events of their own.
  const auto stepped = wait_for([&](const viz::Snapshot& s) { return s.events > events; });
  REQUIRE(stepped != nullptr);
  CHECK(stepped->now_us >= at2h->now_us);
  CHECK(d.fatal().empty());
}
