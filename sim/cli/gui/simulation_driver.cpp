#include "sim/cli/gui/simulation_driver.h"

#include <chrono>

#include "sim/runner/chain_sync.h"
#include "viz/drain_spans.h"
#include "viz/snapshot_state.h"

namespace chaintwin::cli {
namespace {

constexpr size_t kEventWindow = 20000;  // event-log rows a snapshot carries
constexpr auto kPublishEvery = std::chrono::milliseconds(100);
constexpr size_t kExplainedNodes = 12;  // Nodes an explanation lists (the roomiest)

}  // namespace

SimulationDriver::SimulationDriver(sim::Scenario scenario, sim::RunOptions options)
    : scenario_(std::move(scenario)), options_(std::move(options)) {}

SimulationDriver::~SimulationDriver() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

model::Status SimulationDriver::start() {
  history_ = RunHistory{};
  sim::RunOptions options = options_;
  options.keep_events = false;  // the history keeps them, in the GUI's terms
  options.on_event = [this](const sim::EventRecord& e) { history_.add_event(e); };
  sim_ = std::make_unique<sim::Simulation>(scenario_, options);
  if (auto s = sim_->start(); !s.ok()) return s;
  shown_ = sim_->now();
  publish();
  return model::Ok{};
}

void SimulationDriver::step_until(sim::SimTime at) {
  while (true) {
    const std::optional<sim::SimTime> next = sim_->next_event_at();
    if (!next || *next > at) break;
    if (!sim_->step()) break;
  }
  shown_ = std::max(sim_->now(), std::min(at, sim_->end()));
}

void SimulationDriver::advance_to(sim::SimTime at) {
  if (at < shown_) {
    if (!start().ok()) return;
  }
  step_until(at);
  publish();
}

void SimulationDriver::publish() {
  auto snap = std::make_shared<viz::Snapshot>();
  snap->scenario = scenario_.name;
  snap->source = "simulation";
  snap->now_us = shown_.us();
  snap->end_us = sim_->end().us();
  snap->events = sim_->record().info.events;
  snap->finished = !sim_->next_event_at().has_value();
  snap->playing = playing_;
  snap->speed = speed_;
  history_.add_pool_samples(sim_->record().pool_series);
  snap->series = history_.series();
  snap->events_log = history_.last_events(kEventWindow);
  snap->expectations = history_.expectations();
  snap->workloads = history_.workload_rows(sim_->record().workloads);
  // The InstanceType statuses as the operator would have them now: the simulator refreshes them
  // only where something reads them, so settle a copy rather than the run itself (reading must
  // not change what the run logs).
  model::ClusterState settled = sim_->cluster();
  if (!sim::sync_chain(settled, {}, shown_, /*stage3=*/false).ok()) settled = sim_->cluster();
  viz::fill_cluster_state(*snap, settled, sim_->workloads());
  // Cards flipped by the admin and not re-detected: the hardware mode the Devices record will show.
  for (auto& node : snap->nodes)
    if (const auto flips = sim_->pending_flips().find(node.name); flips != sim_->pending_flips().end())
      for (const auto& flip : flips->second)
        for (const int32_t index : flip.cards)
          for (auto& card : node.cards)
            if (static_cast<int32_t>(card.index) == index) card.pending_mode = flip.mig ? "MIG" : "logical";
  if (!explained_.empty())
    snap->explanation = model::explain_workload(settled, sim_->workloads(), sim_->queues(), explained_, kExplainedNodes);
  snap->drains = viz::drain_spans(snap->series, history_.events(), snap->pools, snap->now_us);
  std::lock_guard<std::mutex> lock(mutex_);
  latest_ = std::move(snap);
  fatal_ = sim_->fatal();
}

std::shared_ptr<const viz::Snapshot> SimulationDriver::latest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return latest_;
}

std::string SimulationDriver::fatal() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return fatal_;
}

void SimulationDriver::send(const viz::Command& command) {
  if (!thread_.joinable() && command.kind == viz::Command::Kind::kExplain) {
    // No loop runs (a screenshot, a test stepping it): the explanation is published at once.
    explained_ = command.workload;
    publish();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    commands_.push_back(command);
  }
  wake_.notify_all();
}

void SimulationDriver::run_in_background(bool playing, double speed) {
  playing_ = playing;
  speed_ = speed;
  publish();
  thread_ = std::thread([this] { loop(); });
}

void SimulationDriver::loop() {
  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  auto last_publish = last;
  Clock::duration publish_gap = kPublishEvery;
  while (true) {
    std::deque<viz::Command> commands;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      const bool idle = !playing_ || !sim_->next_event_at();
      if (idle && commands_.empty() && !stop_) wake_.wait_for(lock, std::chrono::milliseconds(200));
      if (stop_) return;
      commands.swap(commands_);
    }
    bool changed = !commands.empty();
    for (const auto& c : commands) {
      switch (c.kind) {
        case viz::Command::Kind::kPlay: playing_ = true; break;
        case viz::Command::Kind::kPause: playing_ = false; break;
        case viz::Command::Kind::kSpeed: speed_ = c.speed > 0 ? c.speed : speed_; break;
        case viz::Command::Kind::kStep:
          playing_ = false;
          if (sim_->next_event_at()) {
            sim_->step();
            shown_ = sim_->now();
          }
          break;
        case viz::Command::Kind::kSeek:
          playing_ = false;
          if (sim::SimTime::micros(c.at_us) < shown_ && !start().ok()) break;
          step_until(sim::SimTime::micros(c.at_us));
          break;
        case viz::Command::Kind::kExplain: explained_ = c.workload; break;
      }
    }
    const auto now = Clock::now();
    if (playing_ && sim_->next_event_at()) {
      const double wall = std::chrono::duration<double>(now - last).count();
      const int64_t advance = static_cast<int64_t>(wall * speed_ * 1e6);
      step_until(sim::SimTime::micros(std::min(sim_->end().us(), shown_.us() + std::max<int64_t>(advance, 1))));
      changed = true;
    } else if (playing_) {
      playing_ = false;  // the run is over
      changed = true;
    }
    last = now;
    // Publish at most every 100 ms, and spend at most a third of the time building snapshots
    // (a large cluster's snapshot takes a while).
    if (changed && (now - last_publish >= publish_gap || !playing_)) {
      const auto t0 = Clock::now();
      publish();
      last_publish = Clock::now();
      publish_gap = std::max<Clock::duration>(kPublishEvery, 2 * (last_publish - t0));
    }
    if (playing_) std::this_thread::sleep_for(std::chrono::milliseconds(15));
  }
}

}  // namespace chaintwin::cli
