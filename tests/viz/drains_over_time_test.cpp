#include <catch2/catch.hpp>

#include "sim/cli/gui/simulation_driver.h"
#include "sim/scenario/scenario_loader.h"
#include "viz/series_steps.h"

using namespace chaintwin;

namespace {

constexpr int64_t kMinute = 60'000'000;
const std::string kT4 = "gpustack--nvidia-tesla-t4-linux-amd64";
const std::string kCpu = "gpustack--generic-linux-amd64";

cli::SimulationDriver drained_queue_driver() {
  auto s = sim::load_scenario(std::string(CHAINTWIN_SOURCE_DIR) +
                              "/scenarios/regression/drained-queue-recovers-admin-policy.yaml");
  REQUIRE(s.ok());
  return cli::SimulationDriver(std::move(s).value(), {});
}

struct Want {
  std::string queue;
  viz::StopPolicy policy;
  int64_t from_min;
  std::optional<int64_t> to_min;
  std::string cause;
};

void check_spans(const std::vector<viz::DrainSpan>& got, const std::vector<Want>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("span " << i << ": " << got[i].cluster_queue << " " << got[i].cause);
    CHECK(got[i].cluster_queue == want[i].queue);
    CHECK(got[i].stop_policy == want[i].policy);
    CHECK(got[i].from_us == want[i].from_min * kMinute);
    CHECK(got[i].to_us == (want[i].to_min ? std::optional<int64_t>(*want[i].to_min * kMinute) : std::nullopt));
    CHECK(got[i].cause == want[i].cause);
  }
}

}  // namespace

TEST_CASE("ended holds and drains stay in the drains history with their end time as the run goes on",
          "[viz][drains]") {
  using viz::StopPolicy;
  auto d = drained_queue_driver();
  REQUIRE(d.start().ok());
  // At 15m: the admin's Hold has turned into a drain on both queues (the node lost its mark).
  d.advance_to(*sim::SimTime::parse("15m"));
  check_spans(d.latest()->drains, {{kT4, StopPolicy::kHold, 5, 10, "admin Hold"},
                                   {kCpu, StopPolicy::kHoldAndDrain, 10, std::nullopt, "flavor lost (migration)"},
                                   {kT4, StopPolicy::kHoldAndDrain, 10, std::nullopt, "flavor lost (migration)"}});
  // At 30m and at the end the ended drains are still there, closed when the flavor came back.
  for (const char* at : {"30m", "1h"}) {
    INFO("at " << at);
    d.advance_to(*sim::SimTime::parse(at));
    const bool released = std::string(at) == "1h";
    check_spans(d.latest()->drains,
                {{kT4, StopPolicy::kHold, 5, 10, "admin Hold"},
                 {kCpu, StopPolicy::kHoldAndDrain, 10, 20, "flavor lost (migration)"},
                 {kT4, StopPolicy::kHoldAndDrain, 10, 20, "flavor lost (migration)"},
                 {kT4, StopPolicy::kHold, 20, released ? std::optional<int64_t>(40) : std::nullopt,
                  "saved policy restored"}});
  }
}

TEST_CASE("a queue drained to an empty plan keeps its pool series at zero quota, shaded HoldAndDrain",
          "[viz][drains]") {
  auto d = drained_queue_driver();
  REQUIRE(d.start().ok());
  d.advance_to(*sim::SimTime::parse("30m"));
  const auto snap = d.latest();
  const viz::PoolSeries* t4 = nullptr;
  for (const auto& s : snap->series)
    if (s.cluster_queue == kT4) t4 = &s;
  REQUIRE(t4 != nullptr);
  bool drained_at_zero = false;
  for (const auto& p : t4->points)
    drained_at_zero = drained_at_zero || (p.stop_policy == viz::StopPolicy::kHoldAndDrain && p.nominal == 0);
  CHECK(drained_at_zero);
  const auto shades = viz::held_shades(t4->points, 0, snap->end_us, snap->now_us);
  REQUIRE(shades.size() == 3);
  CHECK(shades[1].stop_policy == viz::StopPolicy::kHoldAndDrain);
  CHECK(shades[1].x0 == Approx(10.0 / 60.0).margin(0.001));
  CHECK(shades[1].x1 == Approx(20.0 / 60.0).margin(0.001));
}
