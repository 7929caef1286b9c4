// `explain` as a computation: run the scenario up to the instant asked about, explain each Workload
// from the state there (model/explain/explanation.h), tell its path from the event log
// (gate_path.h), recognise a retry livelock, and check by simulation which of the candidate changes
// (candidate_changes.h) admits it within a window (admit_check.h). Output: explain_report.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/explain/explanation.h"
#include "model/result.h"
#include "sim/explain/candidate_changes.h"
#include "sim/explain/gate_path.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

struct ExplainOptions {
  std::vector<std::string> workloads;  // "<namespace>/<name>" (or a bare name, unique over namespaces)
  bool all_pending = false;            // every Workload waiting at the instant
  std::optional<SimTime> at;           // default: the end of the run (the horizon)
  std::optional<uint64_t> seed;
  SimTime within = SimTime::hours(1);  // how soon after the instant a change must admit it
  bool search = true;                  // check what would admit it
  size_t most_searched = 20;           // --all-pending: search only when this few wait
  size_t node_limit = 12;              // Nodes listed per Workload (roomiest first)
};

// A retry livelock: repeated admission-check Retry verdicts, most of them on one Node.
struct RetryLoop {
  int64_t retries = 0;
  std::string node;       // the Node most Retry messages name
  int64_t on_node = 0;
  bool fit_pin_off = false;  // workload-fit-affinity is false at the instant
  // The setting that ends it, checked by simulation: workload-fit-affinity set to true just before
  // the Workload was created (the Workload webhook pins a Workload when it is created, so setting it
  // later leaves this one unpinned). When it then passed all five gates; nullopt: it did not (or
  // not checked).
  bool cure_checked = false;
  SimTime cure_from;
  std::optional<SimTime> cure_admitted_at;
};

struct ChangeVerdict {
  Change change;
  std::optional<SimTime> admitted_at;  // all five gates passed at; nullopt: not within the window
  std::string error;                   // the run refused the change
};

struct WorkloadStory {
  model::Explanation explanation;
  GatePath path;
  std::string generator;        // its workload class ("trace" for a trace's)
  bool rejected = false;        // refused at Gate 1 (never a Workload in the state)
  std::string reject_message;
  std::optional<RetryLoop> loop;
  bool searched = false;
  std::optional<SimTime> admitted_unchanged;  // the queue moves on its own: admitted without a change
  std::vector<ChangeVerdict> tried;           // in the order tried
  std::optional<size_t> smallest;             // the first of `tried` that admits it
  std::string nothing_short_of;               // when none does
};

struct ExplainResult {
  std::string scenario_name;
  uint64_t seed = 0;
  SimTime at;
  SimTime within;
  std::vector<WorkloadStory> stories;
  std::string note;  // e.g. why the search was skipped
  std::string live_server;  // set when read from a live cluster: no run, no history, no search
};

// The same explanation of a cluster's state read from its API (the live mode, read-only): no run
// is made, so there is no path through the gates and no check of what would admit it. `names` as
// in ExplainOptions::workloads.
model::Result<ExplainResult> explain_state(const model::ClusterState& cluster, const model::WorkloadState& workloads,
                                           const std::vector<std::string>& names, bool all_pending, size_t node_limit,
                                           const std::string& server);

// Fails (with a message naming it) for a Workload that did not arrive by the instant, or an
// instant past the horizon.
model::Result<ExplainResult> explain_scenario(const Scenario& scenario, const ExplainOptions& options);

}  // namespace chaintwin::sim
