// run_with_change(): the scenario with the change spliced into its timeline, stepped with an event
// hook that follows the watched Workloads and their Pods.
#include "sim/explain/admit_check.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "sim/runner/simulation.h"

namespace chaintwin::sim {

namespace {

struct Watched {
  const AdmitWatch* watch = nullptr;
  bool admitted = false;
  std::set<std::string> running;
  int32_t running_before = 0;  // Pods already running at the instant (not logged again)
  std::optional<SimTime> passed;
};

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
  std::unordered_map<std::string, size_t> by_object;  // "Workload <key>" and each pod prefix
  for (size_t i = 0; i < watch.size(); ++i) {
    watched[i].watch = &watch[i];
    watched[i].admitted = watch[i].admitted_at_start;
    watched[i].running_before = watch[i].running_at_start;
    by_object["Workload " + watch[i].workload] = i;
    for (const auto& p : watch[i].pod_prefixes) by_object[p] = i;
  }
  size_t left = watch.size();
  const auto pass = [&](Watched& w, SimTime t) {
    if (w.passed) return;
    w.passed = t;
    --left;
  };
  RunOptions options;
  options.seed = seed;
  options.until = until;
  options.keep_events = false;
  options.keep_final_objects = false;
  options.on_event = [&](const EventRecord& e) {
    if (e.at < from) return;
    std::string object = e.object;
    bool pod = false;
    if (object.rfind("Pod ", 0) == 0) {
      // "Pod <ns>/<workload>-<podset>-<i>": the prefix up to the index.
      const size_t dash = object.rfind('-');
      if (dash == std::string::npos) return;
      object.resize(dash + 1);
      pod = true;
    }
    const auto it = by_object.find(object);
    if (it == by_object.end()) return;
    Watched& w = watched[it->second];
    if (pod) {
      if (e.kind != "PodRunning") return;
      w.running.insert(e.object);
      if (w.admitted && static_cast<int32_t>(w.running.size()) + w.running_before >= w.watch->pods_wanted) pass(w, e.at);
      return;
    }
    if (e.kind == "Admitted") {
      w.admitted = true;
      w.running.clear();
      w.running_before = 0;
      if (w.watch->pods_wanted == 0) pass(w, e.at);
    } else if (e.kind == "Evicted") {
      w.admitted = false;
    } else if (e.kind == "Finished" && w.admitted) {
      pass(w, e.at);
    }
  };
  Simulation sim(std::move(scenario), std::move(options));
  if (auto s = sim.start(); !s.ok()) {
    out.error = s.error();
    return out;
  }
  while (left > 0 && sim.step()) {
  }
  if (!sim.fatal().empty()) out.error = sim.fatal();
  for (const auto& w : watched) out.passed[w.watch->workload] = w.passed;
  return out;
}

}  // namespace chaintwin::sim
