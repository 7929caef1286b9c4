#include "sim/fulldemand/chain_full_demand.h"

#include <filesystem>
#include <map>
#include <utility>

#include "model/credits.h"
#include "model/placement/fragmentation.h"
#include "model/stage4/instance_type_status.h"
#include "sim/fulldemand/model_chooser.h"
#include "sim/fulldemand/tuned_pods.h"
#include "sim/random_stream.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/trace/openb_trace.h"

namespace chaintwin::sim {
namespace {

using model::placement::ShareNode;

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// The scenario the chain runs: the trace's Nodes and pods (every row, as the paper reads them).
std::string scenario_text(const std::string& nodes_path, const std::string& pods_path, uint64_t seed) {
  namespace fs = std::filesystem;
  return "apiVersion: chaintwin/v1\nkind: Scenario\nmetadata:\n  name: full-demand-chain\nseed: " + std::to_string(seed) +
         "\nhorizon: 1d\nworkloads:\n  - trace:\n      format: openb\n      nodes: " +
         quoted(fs::absolute(nodes_path).string()) + "\n      pods: " + quoted(fs::absolute(pods_path).string()) +
         "\n      takeNodes: true\n      unscheduled: include\n";
}

// What the paper's measure reads of one Node, from the chain's state: each card's free share
// (remaining credits in milli-GPU) and the CPU its bound Pods leave.
void read_node(const Simulation& sim, const std::string& name, const ShareNode& initial, ShareNode& out) {
  out.cpu_left = initial.cpu_left;
  out.memory_left = initial.memory_left;
  out.model = initial.model;
  const model::NodeRequested& requested = sim.node_pods().requested(name);
  if (const auto cpu = requested.milli.find("cpu"); cpu != requested.milli.end()) out.cpu_left -= cpu->second;
  out.gpu_left.assign(initial.gpu_left.size(), 0);
  const model::Devices* devices = sim.cluster().devices_of(name);
  if (devices == nullptr) return;
  size_t card = 0;
  for (const auto& group : devices->status.groups)
    for (const auto& a : group.accelerators) {
      if (card >= out.gpu_left.size()) return;
      out.gpu_left[card++] =
          static_cast<int32_t>(static_cast<int64_t>(a.remaining) * model::placement::kMilliPerGpu / model::kUnitsPerAccelerator);
    }
}

// The n-th arrival (from 1): n gaps after the start.
SimTime arrival_at(SimTime gap, size_t n) { return SimTime::micros(gap.us() * static_cast<int64_t>(n)); }

// The pools of the acceleratable InstanceTypes, in name order (the operator's objects after the
// chain settled; an InstanceType's ClusterQueue has its name).
std::vector<ChooserPool> pools_of(const model::ClusterState& cluster, const ShareTrace& trace) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < trace.node_names.size(); ++i) index[trace.node_names[i]] = i;
  std::vector<ChooserPool> out;
  for (const auto& [name, it] : cluster.instance_types) {
    if (it.metadata.deletion_timestamp || !it.spec.acceleratable) continue;
    const auto cq = cluster.cluster_queues.find(name);
    if (cq == cluster.cluster_queues.end()) continue;
    ChooserPool pool;
    pool.instance_type = name;
    for (const std::string& node : model::pool_node_names(cluster, cq->second.metadata.labels)) {
      const auto found = index.find(node);
      if (found == index.end() || trace.nodes[found->second].gpu_left.empty()) continue;
      pool.nodes.push_back(found->second);
      pool.model = trace.nodes[found->second].model;
      pool.cards += static_cast<int64_t>(trace.nodes[found->second].gpu_left.size());
    }
    if (!pool.nodes.empty()) out.push_back(std::move(pool));
  }
  return out;
}

}  // namespace

model::Result<FullDemandRun> run_full_demand_on_chain(const std::string& nodes_path, const std::string& pods_path,
                                                     const ShareTrace& trace,
                                                     const model::placement::TargetWorkload& target,
                                                     const ChainFullDemandSettings& settings) {
  auto loaded = load_scenario_text(scenario_text(nodes_path, pods_path, settings.seed), "full-demand");
  if (!loaded) return model::err(loaded.error());
  Scenario scenario = std::move(loaded).value();

  FullDemandRun run;
  run.settings = {FullDemandPolicy::kChain, settings.tune_permille, settings.seed};
  run.capacity_milli = trace.capacity_milli();
  RandomStream pods_random(settings.seed, 0, "full-demand/pods");  // the same draws as the paper policies' runs
  const TunedPods tuned = tune_pods(trace.pods, run.capacity_milli, settings.tune_permille, pods_random);
  run.target_milli = tuned.target_milli;
  run.demand_milli = tuned.demand_milli;
  run.drawn = tuned.drawn;
  run.removed = tuned.removed;

  // The tuned pods as the trace's Workloads, one every `gap`, never finishing.
  std::map<std::string, const TraceWorkload*> by_name;
  for (const TraceWorkload& w : scenario.trace_workloads) by_name[w.name] = &w;
  std::vector<TraceWorkload> submitted;
  submitted.reserve(tuned.order.size());
  for (size_t i = 0; i < tuned.order.size(); ++i) {
    const auto index = static_cast<size_t>(tuned.order[i]);
    const auto found = by_name.find(trace.pod_names[index]);
    if (found == by_name.end()) return model::err(pods_path + ": pod '" + trace.pod_names[index] + "' was not imported");
    TraceWorkload w = *found->second;
    if (i >= trace.pods.size()) w.name += "-tuned-" + std::to_string(i);
    w.arrival = arrival_at(settings.gap, i + 1);
    w.duration = kOpenbUntimedDuration;
    submitted.push_back(std::move(w));
  }
  scenario.trace_workloads = std::move(submitted);
  scenario.horizon = arrival_at(settings.gap, tuned.order.size() + 2);

  RunOptions options;
  options.keep_events = false;
  options.keep_final_objects = false;
  RandomStream chooser_random(settings.seed, 0, "full-demand/chooser");
  std::vector<ShareNode> state(trace.nodes.size());
  std::optional<std::vector<ChooserPool>> pools;  // read once the chain has settled
  if (settings.chooser != ModelChooser::kDefaultModel)
    options.choose_trace_instance_type = [&](const Simulation& s, const TraceWorkload& w) {
      const auto index = static_cast<size_t>(&w - s.scenario().trace_workloads.data());
      const model::placement::SharePod& pod = trace.pods[static_cast<size_t>(tuned.order[index])];
      if (pod.gpus == 0) return w.instance_type;
      if (!pools) pools = pools_of(s.cluster(), trace);
      for (size_t n = 0; n < trace.nodes.size(); ++n) read_node(s, trace.node_names[n], trace.nodes[n], state[n]);
      const int32_t p = choose_pool(state, pod, *pools, settings.chooser, chooser_random);
      if (p < 0) return w.instance_type;
      InstanceTypeSelector chosen;
      chosen.name = (*pools)[static_cast<size_t>(p)].instance_type;
      return chosen;
    };
  Simulation sim(std::move(scenario), options);
  if (auto s = sim.start(); !s.ok()) return model::err(s.error());

  std::vector<ShareNode> now(trace.nodes.size());
  ShareNode scratch;
  std::vector<int64_t> fragment(trace.nodes.size(), 0);
  int64_t fragment_total = 0;
  DemandCurve curve(run.capacity_milli > 0 ? run.capacity_milli : 1);
  int64_t arrived = 0;
  for (size_t i = 0; i < tuned.order.size(); ++i) {
    arrived += trace.pods[static_cast<size_t>(tuned.order[i])].gpu_milli();
    const SimTime next_arrival = arrival_at(settings.gap, i + 2);
    while (const auto at = sim.next_event_at()) {
      if (*at >= next_arrival) break;
      sim.step();
    }
    if (!sim.fatal().empty()) return model::err("the simulation stopped: " + sim.fatal());
    // Only a Node whose CPU or cards moved since the last sample is measured again.
    int64_t idle = 0;
    for (size_t n = 0; n < trace.nodes.size(); ++n) {
      read_node(sim, trace.node_names[n], trace.nodes[n], scratch);
      idle += scratch.idle_milli();
      if (scratch.cpu_left != now[n].cpu_left || scratch.gpu_left != now[n].gpu_left || i == 0) {
        fragment_total -= fragment[n];
        fragment[n] = model::placement::node_fragment(scratch, target);
        fragment_total += fragment[n];
        std::swap(now[n], scratch);
      }
    }
    curve.add(arrived, run.capacity_milli - idle, idle, fragment_total, target.total > 0 ? target.total : 1);
    run.allocated_milli = run.capacity_milli - idle;
  }
  const WorkloadCountersSet counters = sim.counters();
  run.submitted = static_cast<int64_t>(tuned.order.size());
  run.placed = counters.total.admitted;
  run.failed = run.submitted - run.placed;
  if (run.capacity_milli > 0 && target.total > 0)
    run.fragment_percent = 100.0 * static_cast<double>(fragment_total) / static_cast<double>(target.total) /
                           static_cast<double>(run.capacity_milli);
  run.curve = curve.points();
  return run;
}

}  // namespace chaintwin::sim
