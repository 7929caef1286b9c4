// scale_demand (sim/scenario/demand_scale.h): each arrival process made `factor` times as dense,
// rounded to whole microseconds; one class or all of them; every refusal names what was wrong and
// leaves the scenario as it was.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "sim/scenario/demand_scale.h"

namespace {

using chaintwin::sim::Arrival;
using chaintwin::sim::Scenario;
using chaintwin::sim::scale_demand;
using chaintwin::sim::SimTime;
using chaintwin::sim::TraceWorkload;
using chaintwin::sim::WorkloadSpec;

WorkloadSpec poisson(std::string name, double per_hour) {
  WorkloadSpec w;
  w.name = std::move(name);
  w.arrival.kind = Arrival::Kind::kPoisson;
  w.arrival.rate_per_second = per_hour / 3600;
  return w;
}

WorkloadSpec every(std::string name, SimTime interval) {
  WorkloadSpec w;
  w.name = std::move(name);
  w.arrival.kind = Arrival::Kind::kEvery;
  w.arrival.every = interval;
  return w;
}

WorkloadSpec at(std::string name, std::vector<SimTime> times) {
  WorkloadSpec w;
  w.name = std::move(name);
  w.arrival.kind = Arrival::Kind::kAt;
  w.arrival.at = std::move(times);
  return w;
}

TraceWorkload traced(std::string name, SimTime arrival) {
  TraceWorkload t;
  t.name = std::move(name);
  t.arrival = arrival;
  t.duration = SimTime::hours(1);
  return t;
}

// chat: 12/h; batch: every 10 min; once: at 0 s, 7 s, 1 h; the trace: pods at 3 s and 1 h.
Scenario mixed() {
  Scenario s;
  s.workloads = {poisson("chat", 12), every("batch", SimTime::minutes(10)),
                 at("once", {SimTime::seconds(0), SimTime::seconds(7), SimTime::hours(1)})};
  s.trace_workloads = {traced("p0", SimTime::seconds(3)), traced("p1", SimTime::hours(1))};
  return s;
}

// What a scaled scenario's arrivals read as: per class, its rate per hour, interval or times (µs).
struct Arrivals {
  double chat_per_hour;
  int64_t batch_every_us;
  std::vector<int64_t> once_us, trace_us;
};

Arrivals arrivals(const Scenario& s) {
  Arrivals a{s.workloads[0].arrival.rate_per_second * 3600, s.workloads[1].arrival.every.us(), {}, {}};
  for (const auto& t : s.workloads[2].arrival.at) a.once_us.push_back(t.us());
  for (const auto& t : s.trace_workloads) a.trace_us.push_back(t.arrival.us());
  return a;
}

}  // namespace

TEST_CASE("a demand scale multiplies rates and divides intervals and arrival times, to whole microseconds",
          "[demand_scale]") {
  struct Row {
    double factor;
    std::string generator;
    Arrivals want;
  };
  const Row rows[] = {
      {1, "", {12, 600'000'000, {0, 7'000'000, 3'600'000'000}, {3'000'000, 3'600'000'000}}},
      {2, "", {24, 300'000'000, {0, 3'500'000, 1'800'000'000}, {1'500'000, 1'800'000'000}}},
      {0.5, "", {6, 1'200'000'000, {0, 14'000'000, 7'200'000'000}, {6'000'000, 7'200'000'000}}},
      // 7 s ÷ 3 = 2333333.33 µs → 2333333; 10 min ÷ 3 = 200 s exactly; 3 s ÷ 3 = 1 s.
      {3, "", {36, 200'000'000, {0, 2'333'333, 1'200'000'000}, {1'000'000, 1'200'000'000}}},
      // 7 s ÷ 1.5 = 4666666.67 µs → 4666667 (nearest).
      {1.5, "once", {12, 600'000'000, {0, 4'666'667, 2'400'000'000}, {3'000'000, 3'600'000'000}}},
      {4, "chat", {48, 600'000'000, {0, 7'000'000, 3'600'000'000}, {3'000'000, 3'600'000'000}}},
      {4, "batch", {12, 150'000'000, {0, 7'000'000, 3'600'000'000}, {3'000'000, 3'600'000'000}}},
      {4, "trace", {12, 600'000'000, {0, 7'000'000, 3'600'000'000}, {750'000, 900'000'000}}},
  };
  for (const auto& r : rows) {
    INFO("factor " << r.factor << " on '" << r.generator << "'");
    Scenario s = mixed();
    const auto status = scale_demand(s, r.factor, r.generator);
    INFO((status.ok() ? std::string() : status.error()));
    REQUIRE(status.ok());
    const Arrivals got = arrivals(s);
    CHECK(got.chat_per_hour == Approx(r.want.chat_per_hour));
    CHECK(got.batch_every_us == r.want.batch_every_us);
    CHECK(got.once_us == r.want.once_us);
    CHECK(got.trace_us == r.want.trace_us);
  }
}

TEST_CASE("a demand scale is refused for a bad factor, an unknown class or a result the runner cannot run",
          "[demand_scale]") {
  struct Row {
    Scenario scenario;
    double factor;
    std::string generator;
    std::string error;
  };
  Scenario no_trace = mixed();
  no_trace.trace_workloads.clear();
  Scenario tiny;
  tiny.workloads = {every("tick", SimTime::micros(3))};
  const Row rows[] = {
      {mixed(), 0, "", "demand scale 0: the factor must be a finite number greater than 0"},
      {mixed(), -2, "", "demand scale -2: the factor must be a finite number greater than 0"},
      {mixed(), std::numeric_limits<double>::infinity(), "",
       "demand scale inf: the factor must be a finite number greater than 0"},
      {mixed(), std::nan(""), "", "demand scale nan: the factor must be a finite number greater than 0"},
      {mixed(), 2, "chatt", "demand scale 2: no workload class 'chatt' (known: batch, chat, once, trace)"},
      {no_trace, 2, "trace", "demand scale 2: no workload class 'trace' (known: batch, chat, once)"},
      {Scenario{}, 2, "chat", "demand scale 2: no workload class 'chat' (known: none)"},
      {tiny, 8, "", "demand scale 8: workloads tick: the interval 3us becomes less than 1us or too long (expected "
                    "at least 1us)"},
      {mixed(), 1e12, "chat", "demand scale 1e+12: workloads chat: the Poisson rate becomes 1.2e+13/h, "
                              "out of range (expected a mean interval between 1us and 10000d)"},
      {mixed(), 1e-15, "once", "demand scale 1e-15: workloads once: the arrival at 7s leaves the "
                               "time range"},
  };
  for (const auto& r : rows) {
    INFO("factor " << r.factor << " on '" << r.generator << "'");
    Scenario s = r.scenario;
    const auto status = scale_demand(s, r.factor, r.generator);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error() == r.error);
    // Left as it was.
    REQUIRE(s.workloads.size() == r.scenario.workloads.size());
    for (size_t i = 0; i < s.workloads.size(); ++i) {
      CHECK(s.workloads[i].arrival.rate_per_second == r.scenario.workloads[i].arrival.rate_per_second);
      CHECK(s.workloads[i].arrival.every == r.scenario.workloads[i].arrival.every);
      CHECK(s.workloads[i].arrival.at == r.scenario.workloads[i].arrival.at);
    }
  }
}

TEST_CASE("scaling by a factor and back by its inverse gives the arrivals back", "[demand_scale]") {
  Scenario s = mixed();
  REQUIRE(scale_demand(s, 4, "").ok());
  REQUIRE(scale_demand(s, 0.25, "").ok());
  const Arrivals got = arrivals(s);
  CHECK(got.chat_per_hour == Approx(12));
  CHECK(got.batch_every_us == 600'000'000);
  CHECK(got.once_us == std::vector<int64_t>{0, 7'000'000, 3'600'000'000});
  CHECK(got.trace_us == std::vector<int64_t>{3'000'000, 3'600'000'000});
}
