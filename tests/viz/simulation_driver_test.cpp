#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <map>
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

TEST_CASE("a MIG card shows its profiles' room by placement and who holds each instance", "[viz][driver][mig]") {
  auto d = default_driver();
  REQUIRE(d.start().ok());
  d.advance_to(*sim::SimTime::parse("6h"));
  const auto snap = d.latest();
  REQUIRE(snap != nullptr);
  std::map<std::string, viz::WorkloadPhase> phase;
  for (const auto& w : snap->workloads) phase[w.key] = w.phase;
  int mig_cards = 0, held = 0;
  for (const auto& node : snap->nodes)
    for (const auto& card : node.cards) {
      INFO(node.name << " card " << card.index);
      if (card.hardware_mode != "MIG") {
        CHECK(card.profiles.empty());
        CHECK(card.instances.empty());
        continue;
      }
      ++mig_cards;
      CHECK(card.mode == "Partitioned");
      REQUIRE_FALSE(card.profiles.empty());
      int built = 0;
      for (const auto& room : card.profiles) built += room.allocated;
      CHECK(built == static_cast<int>(card.instances.size()));  // every instance counted under its profile
      for (const auto& inst : card.instances)
        if (!inst.pod.empty()) {
          ++held;
          REQUIRE(phase.count(inst.workload) == 1);  // the holder is a Workload of the run, admitted
          CHECK(phase[inst.workload] == viz::WorkloadPhase::kAdmitted);
        }
    }
  CHECK(mig_cards > 0);
  CHECK(held > 0);
}

TEST_CASE("a card flipped by the admin shows its new mode until the Device Manager re-detects it", "[viz][driver][mig]") {
  auto s = sim::load_scenario(std::string(CHAINTWIN_SOURCE_DIR) + "/scenarios/walkthroughs/h100-mig.scenario.yaml");
  REQUIRE(s.ok());
  cli::SimulationDriver d(std::move(s).value(), {});
  REQUIRE(d.start().ok());
  // At 1 h all eight cards are flipped to MIG; the Device Manager re-detects 2 min later.
  struct Row {
    const char* at;
    const char* hardware, *pending;
  };
  for (const Row& r : std::vector<Row>{{"59m", "logical", ""}, {"61m", "logical", "MIG"}, {"63m", "MIG", ""}}) {
    INFO(r.at);
    d.advance_to(*sim::SimTime::parse(r.at));
    const auto snap = d.latest();
    REQUIRE(snap != nullptr);
    REQUIRE(snap->nodes.size() == 1);
    REQUIRE(snap->nodes[0].cards.size() == 8);
    for (const auto& card : snap->nodes[0].cards) {
      CHECK(card.hardware_mode == r.hardware);
      CHECK(card.pending_mode == r.pending);
    }
  }
}

TEST_CASE("waiting Workloads are numbered in Kueue's order within each ClusterQueue", "[viz][driver][pending]") {
  auto d = default_driver();
  REQUIRE(d.start().ok());
  d.advance_to(*sim::SimTime::parse("24h"));
  const auto snap = d.latest();
  REQUIRE(snap != nullptr);
  std::map<std::string, std::vector<const viz::WorkloadRow*>> by_queue;
  for (const auto& w : snap->workloads)
    if (w.queue_position > 0) by_queue[w.cluster_queue].push_back(&w);
    else CHECK((w.phase != viz::WorkloadPhase::kPending || w.cluster_queue.empty()));
  REQUIRE_FALSE(by_queue.empty());
  for (auto& [queue, rows] : by_queue) {
    INFO(queue);
    std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->queue_position < b->queue_position; });
    for (size_t i = 0; i < rows.size(); ++i) {
      CHECK(rows[i]->queue_position == static_cast<int32_t>(i + 1));  // 1..n, no gap, no repeat
      if (i > 0) CHECK(rows[i - 1]->priority >= rows[i]->priority);  // higher priority first
      CHECK(rows[i]->requested > 0);
    }
  }
}
