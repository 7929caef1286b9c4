// CycleCadence: when Kueue's scheduler runs its cycles (pkg/scheduler/scheduler.go Start:
// wait.UntilWithBackoff over Scheduler.schedule; pkg/util/wait/backoff.go, v0.14.8).
//
// The loop runs cycles back to back. Each loop iteration starts a timer of the current backoff
// before its cycle runs (BackoffUntil, not sliding) and waits for it after the cycle; the cycle
// itself blocks in Heads() while no active ClusterQueue has a head. A cycle that admitted or
// evicted something signals KeepGoing (backoff 0); one that did neither signals SlowDown (backoff
// starts at 1 ms, then doubles each iteration up to 100 ms). So a burst of arrivals on an idle
// queue is admitted one head per ClusterQueue per cycle within the same instant (plus `cost` per
// cycle), and a queue whose heads keep failing is retried at 0, 1, 3, 7, … ms and then every 100 ms.
//
// A plain value: the simulator keeps one and asks it when the next cycle may run. Times in µs.
#pragma once

#include <cstdint>

namespace chaintwin::model {

class CycleCadence {
 public:
  static constexpr int64_t kInitialBackoffUs = 1'000;  // initialBackoff, 1 ms
  static constexpr int64_t kMaxBackoffUs = 100'000;    // maxBackoff, 100 ms

  // `cost_us`: how long one cycle's work takes (0: instantaneous).
  explicit CycleCadence(int64_t cost_us = 0) : cost_us_(cost_us < 0 ? 0 : cost_us) {}

  // The earliest time a cycle can do its work, given that something to pop exists from `now`: the
  // loop's current iteration has started (its Heads() call returns at once or when woken at `now`).
  int64_t next_cycle_at(int64_t now) const { return now > iteration_start_ ? now : iteration_start_; }

  // A cycle did its work at `at` (>= next_cycle_at) and popped at least one head; `progressed`:
  // it admitted or evicted a Workload (Kueue's KeepGoing), else SlowDown. Starts the next iteration.
  void cycle_ran(int64_t at, bool progressed);

  // How many SlowDown cycles, each run as soon as the loop allows, would fall at or before `last`,
  // counting at most `max_cycles` (>= 0); the first at next_cycle_at(now). Does not change state.
  int64_t idle_cycles_until(int64_t now, int64_t last, int64_t max_cycles) const;

  // Runs `n` SlowDown cycles, each as soon as the loop allows from `now`; returns the time of the
  // last one (`now` when n is 0).
  int64_t run_idle(int64_t now, int64_t n);

  int64_t cost_us() const { return cost_us_; }
  int64_t backoff_us() const { return backoff_; }
  bool operator==(const CycleCadence&) const = default;

 private:
  int64_t cost_us_ = 0;
  int64_t iteration_start_ = 0;  // when the current loop iteration began (its timer started)
  int64_t timer_ = 0;            // that iteration's backoff timer
  int64_t backoff_ = 0;          // the backoff the next iteration's timer gets (0: noBackoff)
};

}  // namespace chaintwin::model
