// The GUI's live source: a Simulation stepped on its own thread, publishing an immutable
// viz::Snapshot after each batch of events and taking the window's commands (play, pause, speed,
// step, seek) through a queue. Seeking back restarts the run from its start (the same scenario
// and seed give the same run) and replays it to the instant asked for.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "sim/cli/gui/run_history.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario.h"
#include "viz/commands.h"

namespace chaintwin::cli {

class SimulationDriver : public viz::SnapshotSource, public viz::CommandSink {
 public:
  SimulationDriver(sim::Scenario scenario, sim::RunOptions options);
  ~SimulationDriver() override;

  // Starts the run (the initial fixpoint) on the calling thread; the reason when it cannot.
  model::Status start();
  // Steps on the calling thread until the next event lies after `at` and publishes the state
  // at `at` (for screenshots and tests; not while the thread runs).
  void advance_to(sim::SimTime at);
  // Starts the stepping thread (paused unless play() is sent).
  void run_in_background(bool playing, double speed);

  std::shared_ptr<const viz::Snapshot> latest() const override;
  void send(const viz::Command& command) override;
  // Why the run stopped early ("" when it did not).
  std::string fatal() const;

 private:
  void restart();
  void step_until(sim::SimTime at);
  void publish();
  void loop();

  sim::Scenario scenario_;
  sim::RunOptions options_;
  std::unique_ptr<sim::Simulation> sim_;
  RunHistory history_;
  sim::SimTime shown_;  // the instant the user is at (>= the last event's time)
  bool playing_ = false;
  double speed_ = 600;  // simulated seconds per wall second
  std::string explained_;  // the Workload each snapshot explains (Command::kExplain), "" for none

  mutable std::mutex mutex_;  // guards latest_, commands_, stop_, fatal_
  std::condition_variable wake_;
  std::shared_ptr<const viz::Snapshot> latest_;
  std::deque<viz::Command> commands_;
  bool stop_ = false;
  std::string fatal_;
  std::thread thread_;
};

}  // namespace chaintwin::cli
