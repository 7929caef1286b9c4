// run_with_change(): the scenario with the change spliced into its timeline, stepped event by
// event; after each one from the instant on, the watched Workloads are looked up.
#include "sim/explain/admit_check.h"

#include <algorithm>

#include "sim/runner/simulation.h"

namespace chaintwin::sim {

namespace {

struct Watched {
  const AdmitWatch* watch = nullptr;
  bool ran = false;  // seen admitted with every Pod running, or finished after being admitted
  bool admitted = false;
  std::optional<SimTime> passed;
};

// Whether every Pod of the watch runs (or ran: Succeeded) in `pods`.
bool all_pods_run(const model::WorkloadState& state, const AdmitWatch& watch) {
  for (const auto& key : watch.pod_keys) {
    const auto it = state.pods.find(key);
    if (it == state.pods.end()) return false;
    if (it->second.phase != model::PodPhase::kRunning && it->second.phase != model::PodPhase::kSucceeded) return false;
  }
  return true;
}

}  // namespace

CheckRun run_with_change(Scenario scenario, std::optional<uint64_t> seed, SimTime from, SimTime until,
                         std::vector<TimelineAction> actions, const std::vector<AdmitWatch>& watch) {
  CheckRun out;
  if (scenario.horizon < until) scenario.horizon = until;
  // After every action of the scenario at or before `from`: they were applied first in the run
  // being explained too.
  auto at = std::upper_bound(scenario.timeline.begin(), scenario.timeline.end(), from,
                             [](SimTime t, const TimelineAction& a) { return t < a.at; });
  for (auto& a : actions) {
    a.at = from;
    if (a.where.file.empty()) a.where = {"explain", 0};
  }
  scenario.timeline.insert(at, actions.begin(), actions.end());

  std::vector<Watched> watched(watch.size());
  for (size_t i = 0; i < watch.size(); ++i) watched[i].watch = &watch[i];
  RunOptions options;
  options.seed = seed;
  options.until = until;
  options.keep_events = false;
  options.keep_final_objects = false;
  Simulation sim(std::move(scenario), std::move(options));
  if (auto s = sim.start(); !s.ok()) {
    out.error = s.error();
    return out;
  }
  size_t left = watched.size();
  const auto look = [&] {
    const model::WorkloadState& state = sim.workloads();
    for (auto& w : watched) {
      if (w.passed) continue;
      const auto it = state.workloads.find(w.watch->workload);
      // Gone (finished, its Pods deleted) or finished: it passed if it was admitted before.
      const bool over = it == state.workloads.end() || it->second.finished();
      if (over ? w.admitted : (it->second.admitted() && all_pods_run(state, *w.watch))) {
        w.passed = sim.now();
        --left;
        continue;
      }
      w.admitted = !over && it->second.admitted();
    }
  };
  bool looked_at_from = false;
  while (left > 0 && sim.step()) {
    if (sim.now() < from) continue;
    looked_at_from = true;
    look();
  }
  if (!looked_at_from && left > 0) look();  // no event at or after the instant: the state as it is
  if (!sim.fatal().empty()) out.error = sim.fatal();
  for (const auto& w : watched) out.passed[w.watch->workload] = w.passed;
  return out;
}

}  // namespace chaintwin::sim
