// The full-demand experiment through the operator's chain instead of a paper policy: the same
// tuned pods (tuned_pods.h, same seed: the same pods in the same order) replayed by the simulator
// over the trace's Nodes — each pod a Workload arriving `gap` after the one before and never
// finishing, queued in Kueue, admitted by its gates and allocated by the device plugin. At its
// arrival a GPU pod's InstanceType is picked among the models it allows (every model when it names
// none) by the model chooser (ModelChooser), from the Devices ledgers; with kDefaultModel the trace's
// own selector holds (the default model, as a replay). After every pod — just before the next one arrives — the demand curve
// records the GPU allocated in the Devices ledgers and the paper's fragmentation of the free
// share of each card (credits to milli-GPU) with the CPU left by the Pods bound to the Node.
// A pod still pending is not dropped: it waits in its queue, as under Kueue.
#pragma once

#include <optional>
#include <string>

#include "model/placement/typical_pods.h"
#include "model/result.h"
#include "sim/fulldemand/full_demand_run.h"
#include "sim/fulldemand/model_chooser.h"
#include "sim/fulldemand/share_trace.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

struct ChainFullDemandSettings {
  int64_t tune_permille = 1300;
  uint64_t seed = 42;
  SimTime gap = SimTime::minutes(1);  // between two arrivals: time for the chain to settle
  ModelChooser chooser = ModelChooser::kMostFree;
};



// `nodes_path` / `pods_path` are the CSVs `trace` was read from; the simulator imports them
// itself (sim/trace/openb_trace.h), so its refusals name the CSVs.
model::Result<FullDemandRun> run_full_demand_on_chain(const std::string& nodes_path, const std::string& pods_path,
                                                     const ShareTrace& trace,
                                                     const model::placement::TargetWorkload& target,
                                                     const ChainFullDemandSettings& settings);

}  // namespace chaintwin::sim
