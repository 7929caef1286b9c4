#include "sim/cli/full_demand_command.h"

#include <algorithm>
#include <cmath>

#include "sim/fulldemand/chain_full_demand.h"
#include "sim/fulldemand/full_demand_report.h"
#include "sim/fulldemand/full_demand_run.h"
#include "sim/fulldemand/seed_summary.h"
#include "sim/fulldemand/share_trace.h"
#include "sim/scenario/scenario_loader.h"

namespace chaintwin::cli {

using sim::FullDemandPolicy;

namespace {

// What the run uses: the flags over the scenario's `fullDemand:` over the defaults.
struct Resolved {
  std::string nodes, pods;
  sim::FullDemandSpec spec;
};

model::Result<Resolved> resolve(const FullDemandCommandOptions& o) {
  Resolved r;
  const bool has_csv = !o.nodes.empty() || !o.pods.empty();
  if (o.scenario.empty()) {
    if (o.nodes.empty() || o.pods.empty()) return model::err("give a SCENARIO, or both --nodes and --pods");
    r.nodes = o.nodes;
    r.pods = o.pods;
    r.spec.placement = {"best-fit", "fgd"};
  } else {
    if (has_csv) return model::err("give a SCENARIO or --nodes and --pods, not both");
    auto scenario = sim::load_scenario(o.scenario);
    if (!scenario) return model::err(scenario.error());
    const sim::TraceSource* trace = nullptr;
    for (const auto& t : scenario->traces)
      if (trace == nullptr || (!trace->full_demand && t.full_demand)) trace = &t;
    if (trace == nullptr) return model::err(o.scenario + ": the scenario has no trace entry (workloads: - trace: {format: openb, ...})");
    r.nodes = trace->nodes;
    r.pods = trace->pods;
    if (trace->full_demand) r.spec = *trace->full_demand;
  }
  if (o.tune) r.spec.tune_permille = std::llround(*o.tune * 1000.0);
  if (!o.policies.empty()) r.spec.placement = o.policies;
  if (o.seeds) r.spec.seeds = *o.seeds;
  if (o.first_seed) r.spec.first_seed = *o.first_seed;
  if (o.chooser) r.spec.chooser = *o.chooser;
  return r;
}

}  // namespace

int full_demand_command(const FullDemandCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto resolved = resolve(o);
  if (!resolved) {
    err << "chaintwin full-demand: " << resolved.error() << "\n";
    return 2;
  }
  const Resolved& r = *resolved;
  auto trace = sim::read_share_trace(r.nodes, r.pods);
  if (!trace) {
    err << "chaintwin full-demand: " << trace.error() << "\n";
    return 2;
  }
  if (trace->capacity_milli() == 0) {
    err << "chaintwin full-demand: " << r.nodes << ": no node has a GPU (the experiment fills GPU capacity)\n";
    return 2;
  }
  // The names were checked where they were read (the flag, the scenario); a repeated flag runs once.
  std::vector<FullDemandPolicy> policies;
  for (const std::string& p : r.spec.placement)
    if (const auto policy = sim::policy_named(p); std::find(policies.begin(), policies.end(), *policy) == policies.end())
      policies.push_back(*policy);

  sim::FullDemandStudy study;
  study.nodes_file = r.nodes;
  study.pods_file = r.pods;
  study.tune_permille = r.spec.tune_permille;
  for (int64_t i = 0; i < r.spec.seeds; ++i) study.seeds.push_back(r.spec.first_seed + static_cast<uint64_t>(i));
  study.target = model::placement::typical_pods(trace->pods, sim::kTypicalPodCoverage);
  for (const FullDemandPolicy policy : policies) {
    std::vector<sim::FullDemandRun> runs;
    for (const uint64_t seed : study.seeds) {
      if (policy != FullDemandPolicy::kChain) {
        runs.push_back(sim::run_full_demand(*trace, study.target, {policy, study.tune_permille, seed}));
        continue;
      }
      sim::ChainFullDemandSettings chain;
      chain.tune_permille = study.tune_permille;
      chain.seed = seed;
      chain.chooser = *sim::model_chooser_named(r.spec.chooser);
      auto run = sim::run_full_demand_on_chain(r.nodes, r.pods, *trace, study.target, chain);
      if (!run) {
        err << "chaintwin full-demand: " << run.error() << "\n";
        return 2;
      }
      runs.push_back(std::move(run).value());
    }
    study.summaries.push_back(sim::summarise(runs));
    study.runs.push_back(std::move(runs));
  }
  if (!o.plot.empty()) {
    if (auto s = sim::plot::write_png(sim::full_demand_chart(study), o.plot); !s.ok()) {
      err << "chaintwin full-demand: " << s.error() << "\n";
      return 2;
    }
  }
  if (o.output == "json") out << sim::full_demand_json(*trace, study).dump(2) << "\n";
  else out << sim::full_demand_text(*trace, study);
  return 0;
}

}  // namespace chaintwin::cli
