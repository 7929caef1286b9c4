// explain_scenario(): the run to the instant, then per Workload the explanation, the path, the
// livelock and the search.
#include "sim/explain/explain_run.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "sim/explain/admit_check.h"
#include "sim/results/duration_text.h"
#include "sim/runner/simulation.h"

namespace chaintwin::sim {

namespace {

constexpr int64_t kLivelockRetries = 3;  // Retry verdicts on one Node that make a loop worth naming

AdmitWatch watch_of(const model::Explanation& ex, const model::WorkloadState& workloads) {
  AdmitWatch w;
  w.workload = ex.workload;
  if (const auto it = workloads.workloads.find(ex.workload); it != workloads.workloads.end())
    for (const auto& ps : it->second.pod_sets)
      for (int32_t i = 0; i < ps.count; ++i) w.pod_keys.push_back(ex.workload + "-" + ps.name + "-" + std::to_string(i));
  return w;
}

// A change of the Workload's Namespace, from the start: its class submits there instead.
ChangeVerdict moved_verdict(const Scenario& scenario, std::optional<uint64_t> seed, SimTime until, const Change& change,
                            const WorkloadStory& s, const model::WorkloadState& workloads) {
  ChangeVerdict v{change, std::nullopt, ""};
  Scenario moved = scenario;
  bool found = false;
  for (auto& w : moved.workloads)
    if (w.name == s.generator) {
      w.namespace_ = change.move_to_namespace;
      found = true;
    }
  if (!found) {
    v.error = "its workload class '" + s.generator + "' is not a generator of the scenario";
    return v;
  }
  AdmitWatch watch = watch_of(s.explanation, workloads);
  const std::string old_ns = s.explanation.workload.substr(0, s.explanation.workload.find('/') + 1);
  const std::string new_key = change.move_to_namespace + "/" + s.explanation.workload.substr(old_ns.size());
  for (auto& p : watch.pod_keys) p = new_key + p.substr(s.explanation.workload.size());
  watch.workload = new_key;
  const CheckRun r = run_with_change(std::move(moved), seed, SimTime(), until, {}, {watch});
  v.error = r.error;
  if (r.error.empty()) v.admitted_at = r.passed.at(new_key);
  return v;
}

// The Workload a name given on the command line means, among `keys`: a key as it is, a bare name
// when exactly one namespace has it. Fails naming how many there are and the first few.
model::Result<std::string> resolve_key(const std::string& name, const std::vector<std::string>& keys,
                                       const std::string& not_found) {
  std::vector<std::string> matches;
  for (const auto& key : keys) {
    if (key == name) return name;
    if (name.find('/') == std::string::npos && key.size() > name.size() &&
        key.compare(key.size() - name.size() - 1, name.size() + 1, "/" + name) == 0)
      matches.push_back(key);
  }
  if (matches.size() == 1) return matches.front();
  if (matches.size() > 1)
    return model::err("'" + name + "' is in more than one namespace (" + matches[0] + ", " + matches[1] + "): give <namespace>/<name>");
  std::string known;
  for (size_t i = 0; i < keys.size() && i <= 5; ++i) known += i == 5 ? ", …" : (i == 0 ? "" : ", ") + keys[i];
  return model::err("no Workload '" + name + "' " + not_found + " (" + std::to_string(keys.size()) + " " +
                    (not_found == "arrived by then" ? "did" : "read") + (known.empty() ? "" : ": " + known) + ")");
}

}  // namespace

model::Result<ExplainResult> explain_scenario(const Scenario& scenario, const ExplainOptions& options) {
  ExplainResult out;
  out.scenario_name = scenario.name;
  out.at = options.at.value_or(scenario.horizon);
  out.within = options.within;
  if (scenario.horizon < out.at)
    return model::err("--at " + out.at.to_string() + " is past the scenario's horizon " + scenario.horizon.to_string());
  if (options.workloads.empty() && !options.all_pending) return model::err("name a Workload, or give --all-pending");
  if (options.within.us() > std::numeric_limits<int64_t>::max() - out.at.us())
    return model::err("--within " + options.within.to_string() + " from " + out.at.to_string() + " ends past the simulator's clock");

  RunOptions run;
  run.seed = options.seed;
  run.until = out.at;
  run.keep_final_objects = false;
  Simulation sim(scenario, run);
  if (auto s = sim.start(); !s.ok()) return model::err(s.error());
  while (sim.step()) {
  }
  if (!sim.fatal().empty()) return model::err(sim.fatal());
  sim.settle_status();
  out.seed = sim.record().info.seed;
  const RunRecord& record = sim.record();

  std::vector<std::string> keys;
  std::vector<std::string> arrived;
  for (const auto& o : record.workloads) arrived.push_back(o.key);
  for (const auto& name : options.workloads) {
    auto key = resolve_key(name, arrived, "arrived by then");
    if (!key) return model::err(key.error());
    keys.push_back(*key);
  }
  if (options.all_pending)
    for (const auto* kv : sim.workloads().workloads.in_key_order())
      if (model::where_waiting(sim.cluster(), sim.workloads(), sim.queues(), kv->first).standing == model::WorkloadStanding::kWaiting &&
          std::find(keys.begin(), keys.end(), kv->first) == keys.end())
        keys.push_back(kv->first);

  std::map<std::string, const WorkloadOutcome*> outcomes;
  for (const auto& o : record.workloads) outcomes[o.key] = &o;
  for (const auto& key : keys) {
    WorkloadStory story;
    story.explanation = model::explain_workload(sim.cluster(), sim.workloads(), sim.queues(), key, options.node_limit);
    story.path = gate_path(record.events, key, out.at, story.explanation.pods_wanted);
    if (const auto o = outcomes.find(key); o != outcomes.end()) {
      story.generator = std::string(o->second->generator);
      story.rejected = o->second->rejected;
      if (story.rejected) story.reject_message = std::string(o->second->reject_message);
    }
    settle_open_visit(story.path, story.explanation.place, out.at);
    if (story.path.retries >= kLivelockRetries && story.explanation.place.standing == model::WorkloadStanding::kWaiting) {
      RetryLoop loop;
      loop.retries = story.path.retries;
      for (const auto& [node, n] : story.path.retries_by_node)
        if (n > loop.on_node) {
          loop.node = node;
          loop.on_node = n;
        }
      loop.fit_pin_off = !sim.cluster().settings.workload_fit_affinity;
      story.loop = loop;
    }
    out.stories.push_back(std::move(story));
  }

  if (!options.search) return out;
  const SimTime until = out.at + options.within;
  // A livelock with the pin off: the run again with the pin on from just before the Workload came.
  for (auto& s : out.stories) {
    if (!s.loop || !s.loop->fit_pin_off || !s.path.arrived) continue;
    TimelineAction pin;
    pin.kind = TimelineAction::Kind::kSetSetting;
    pin.setting_name = "workload-fit-affinity";
    pin.setting_value = "true";
    const SimTime from = SimTime() < *s.path.arrived ? *s.path.arrived - SimTime::micros(1) : SimTime();
    const CheckRun r = run_with_change(scenario, options.seed, from, until, {pin}, {watch_of(s.explanation, sim.workloads())});
    s.loop->cure_checked = r.error.empty();
    s.loop->cure_from = from;
    if (r.error.empty()) s.loop->cure_admitted_at = r.passed.at(s.explanation.workload);
  }
  std::vector<WorkloadStory*> waiting;
  for (auto& s : out.stories)
    if (s.explanation.place.standing == model::WorkloadStanding::kWaiting) waiting.push_back(&s);
  if (waiting.empty()) return out;
  if (waiting.size() > options.most_searched) {
    out.note = std::to_string(waiting.size()) + " Workloads wait; what would admit them is checked for at most " +
               std::to_string(options.most_searched) + " at a time (name one, or --most-searched N)";
    return out;
  }
  // Without a change first: a Workload the queue admits on its own needs none.
  {
    std::vector<AdmitWatch> watch;
    for (auto* s : waiting) watch.push_back(watch_of(s->explanation, sim.workloads()));
    const CheckRun base = run_with_change(scenario, options.seed, out.at, until, {}, watch);
    if (!base.error.empty()) return model::err("the check run without a change failed: " + base.error);
    for (auto* s : waiting) {
      s->searched = true;
      s->admitted_unchanged = base.passed.at(s->explanation.workload);
    }
  }
  // The candidates, each run once for every Workload that lists it, cheapest first; a Workload
  // stops asking once a change admits it, but every one-more-node candidate is run (the planner's
  // answer beside the smallest change).
  std::map<WorkloadStory*, std::vector<Change>> candidates;
  std::vector<std::pair<Change, std::vector<WorkloadStory*>>> unique;
  for (auto* s : waiting) {
    if (s->admitted_unchanged) continue;
    for (auto& c : candidate_changes(scenario, sim.cluster(), s->explanation)) {
      auto u = std::find_if(unique.begin(), unique.end(), [&](const auto& e) { return e.first.summary == c.summary; });
      if (u == unique.end()) unique.push_back({c, {s}});
      else u->second.push_back(s);
    }
  }
  std::stable_sort(unique.begin(), unique.end(), [](const auto& a, const auto& b) { return a.first.cost < b.first.cost; });
  for (const auto& [change, stories] : unique) {
    std::vector<WorkloadStory*> asking;
    for (auto* s : stories)
      if (!s->smallest || change.kind == "add-node") asking.push_back(s);
    if (asking.empty()) continue;
    if (!change.move_to_namespace.empty()) {
      for (auto* s : asking) s->tried.push_back(moved_verdict(scenario, options.seed, until, change, *s, sim.workloads()));
      for (auto* s : asking)
        if (s->tried.back().admitted_at && !s->smallest) s->smallest = s->tried.size() - 1;
      continue;
    }
    std::vector<AdmitWatch> watch;
    for (auto* s : asking) watch.push_back(watch_of(s->explanation, sim.workloads()));
    const CheckRun run_result = run_with_change(scenario, options.seed, out.at, until, change.actions, watch);
    for (auto* s : asking) {
      ChangeVerdict v{change, std::nullopt, run_result.error};
      if (run_result.error.empty()) v.admitted_at = run_result.passed.at(s->explanation.workload);
      s->tried.push_back(std::move(v));
      if (s->tried.back().admitted_at && !s->smallest) s->smallest = s->tried.size() - 1;
    }
  }
  // None admits it: all of them together, to tell "nothing short of all of these" from "nothing
  // short of more than these".
  for (auto* s : waiting) {
    if (s->admitted_unchanged || s->smallest) continue;
    if (s->tried.empty()) {
      s->nothing_short_of = "a change to the Workload or its queue itself: no change of the cluster applies";
      continue;
    }
    Change all;
    all.kind = "all of these";
    std::set<std::string> seen;
    all.summary = "all " + std::to_string(s->tried.size()) + " changes above together";
    for (const auto& v : s->tried) {
      for (const auto& a : v.change.actions) {
        Change one;
        one.actions = {a};
        const std::string id = change_as_timeline(one, SimTime());
        if (seen.insert(id).second) all.actions.push_back(a);
      }
    }
    const CheckRun r = run_with_change(scenario, options.seed, out.at, until, all.actions, {watch_of(s->explanation, sim.workloads())});
    const auto passed = r.error.empty() ? r.passed.at(s->explanation.workload) : std::nullopt;
    if (passed) {
      s->nothing_short_of = "all of the changes above together (admitted " +
                            duration_text((*passed - out.at).us(), DurationPrecision::kSeconds) + " later)";
      s->tried.push_back({all, passed, ""});
      s->smallest = s->tried.size() - 1;
    } else {
      s->nothing_short_of = "more than the changes tried: none of them, nor all of them together, admits it within " +
                            duration_text(options.within.us(), DurationPrecision::kSeconds);
    }
  }
  return out;
}

model::Result<ExplainResult> explain_state(const model::ClusterState& cluster, const model::WorkloadState& workloads,
                                           const std::vector<std::string>& names, bool all_pending, size_t node_limit,
                                           const std::string& server) {
  ExplainResult out;
  out.live_server = server;
  // Kueue's queues as the state implies them: every Workload not holding quota and not finished.
  model::QueueManager queues;
  for (const auto* kv : workloads.workloads.in_key_order())
    if (!kv->second.quota_reserved() && !kv->second.finished() && kv->second.active) queues.add(cluster, kv->second);
  std::vector<std::string> keys;
  std::vector<std::string> present;
  for (const auto* kv : workloads.workloads.in_key_order()) present.push_back(kv->first);
  for (const auto& name : names) {
    auto key = resolve_key(name, present, "in the cluster");
    if (!key) return model::err(key.error());
    keys.push_back(*key);
  }
  if (all_pending)
    for (const auto* kv : workloads.workloads.in_key_order())
      if (model::where_waiting(cluster, workloads, queues, kv->first, false).standing == model::WorkloadStanding::kWaiting &&
          std::find(keys.begin(), keys.end(), kv->first) == keys.end())
        keys.push_back(kv->first);
  for (const auto& key : keys) {
    WorkloadStory story;
    story.explanation = model::explain_workload(cluster, workloads, queues, key, node_limit, false);
    out.stories.push_back(std::move(story));
  }
  out.note = "Read from the live cluster (read-only). Kueue's Workloads carry no history and the live mode reads no Pods,\n"
             "so the path through the gates and the Pods on the cards are not shown, nor is what would admit it checked:\n"
             "for that, `chaintwin snapshot --kubeconfig … -o now.yaml`, then `chaintwin explain WORKLOAD now.yaml`.";
  return out;
}

}  // namespace chaintwin::sim
