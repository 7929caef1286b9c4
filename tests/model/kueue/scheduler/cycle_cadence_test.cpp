// Kueue's scheduling loop timing (cycle_cadence.h): back to back while cycles admit, then the
// backoff of pkg/util/wait/backoff.go (v0.14.8) — 1 ms doubling to 100 ms — after cycles that do not.
#include <catch2/catch.hpp>

#include <vector>

#include "model/kueue/scheduler/cycle_cadence.h"

using chaintwin::model::CycleCadence;

namespace {

// Runs cycles that each pop a head, as soon as the loop allows from `start`; `progressed[i]` says
// whether cycle i admitted something. Returns the times the cycles ran at.
std::vector<int64_t> cycle_times(CycleCadence c, int64_t start, const std::vector<bool>& progressed) {
  std::vector<int64_t> at;
  int64_t now = start;
  for (bool p : progressed) {
    now = c.next_cycle_at(now);
    at.push_back(now);
    c.cycle_ran(now, p);
  }
  return at;
}

}  // namespace

TEST_CASE("cycles that admit run back to back in the same instant", "[cadence]") {
  CHECK(cycle_times(CycleCadence(), 5'000'000, {true, true, true, true}) ==
        std::vector<int64_t>{5'000'000, 5'000'000, 5'000'000, 5'000'000});
}

TEST_CASE("each cycle that admits takes the cycle's cost", "[cadence]") {
  CHECK(cycle_times(CycleCadence(2'000), 0, {true, true, true}) == std::vector<int64_t>{0, 2'000, 4'000});
}

TEST_CASE("cycles that admit nothing back off 1 ms doubling to 100 ms, the timer starting before the cycle",
          "[cadence]") {
  // Iteration timers: 0 (the failing cycle), then 1, 2, 4, 8, 16, 32, 64, 100, 100 ms; each timer
  // starts when its iteration does, before its cycle, so the cycle after the first failure runs at once.
  const std::vector<int64_t> want{0, 0, 1'000, 3'000, 7'000, 15'000, 31'000, 63'000, 127'000, 227'000, 327'000};
  CHECK(cycle_times(CycleCadence(), 0, std::vector<bool>(want.size(), false)) == want);
}

TEST_CASE("a cycle that admits clears the backoff once its own iteration's timer has run out", "[cadence]") {
  // The fourth cycle (at 3 ms) admits, but its iteration's 4 ms timer started at 3 ms: the loop goes
  // on at 7 ms, with no timer, and the next failure starts the backoff at 1 ms again.
  CHECK(cycle_times(CycleCadence(), 0, {false, false, false, true, false, false, false}) ==
        std::vector<int64_t>{0, 0, 1'000, 3'000, 7'000, 7'000, 8'000});
}

TEST_CASE("a loop blocked on empty queues runs its cycle as soon as an event wakes it", "[cadence]") {
  CycleCadence c;
  c.cycle_ran(0, false);
  c.cycle_ran(0, false);  // the next iteration's timer is 2 ms, started at 1 ms
  CHECK(c.next_cycle_at(1'500) == 1'500);  // woken inside the timer: the cycle runs at once...
  c.cycle_ran(1'500, false);
  CHECK(c.next_cycle_at(1'500) == 3'000);  // ...and the one after waits for that timer
  CHECK(c.next_cycle_at(60'000'000) == 60'000'000);
}

TEST_CASE("idle cycles are counted and run as the loop would run them one by one", "[cadence]") {
  struct Row {
    int64_t cost, now, last, max;
  };
  const std::vector<Row> rows{{0, 0, 0, 100},           {0, 0, 126'999, 100},        {0, 0, 127'000, 100},
                              {0, 0, 86'400'000'000, 1'000'000'000}, {0, 10, 5'000'000, 7},
                              {150'000, 0, 10'000'000, 1'000},      {2'000, 40, 3'600'000'000, 1'000'000'000}};
  for (const auto& r : rows) {
    CycleCadence one(r.cost);
    int64_t n = 0, now = r.now, at = r.now;
    while (n < r.max && one.next_cycle_at(now) <= r.last) {
      at = now = one.next_cycle_at(now);
      one.cycle_ran(at, false);
      ++n;
    }
    CycleCadence batch(r.cost);
    CHECK(batch.idle_cycles_until(r.now, r.last, r.max) == n);
    CHECK(batch.run_idle(r.now, n) == (n == 0 ? r.now : at));
    CHECK(batch == one);
  }
}
