// RunRecord: everything one simulated run leaves behind — what ran (RunInfo), the event log, one
// outcome per workload, the pool step functions and the objects at the end. The runner fills it
// while it simulates; the event log writer (event_log.h), the SQLite store (sqlite_store.h) and the
// report (report.h) turn it into outputs. Plain values only: no I/O here.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/kueue/kueue_objects.h"
#include "sim/results/interned_name.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

// What ran: the scenario, the seed and the build that produced the results.
struct RunInfo {
  std::string scenario_name;
  std::string scenario_file;
  std::string scenario_hash;  // hash of the scenario text as loaded (hex)
  std::string version;        // chaintwin version that ran it
  uint64_t seed = 0;
  SimTime horizon;            // the scenario's horizon
  SimTime ended_at;           // simulated time the run stopped (== horizon unless cut short)
  int64_t events = 0;         // events processed by the loop
};

// One line of the event log: simulated time first. kind: "arrival", "rejected", "QuotaReserved",
// "Admitted", "Pending", "Evicted", "Requeued", "Finished", "PodsDeleted", "check", "write" (a
// reconciler write: object + reason), "action" (timeline), "expect".
// seq is the event queue's insertion sequence (ties at one time keep their order).
struct EventRecord {
  SimTime at;
  int64_t seq = 0;
  std::string kind;
  std::string object;   // "Workload team-a/chat-0001", "ClusterQueue gpustack--…", "Node h100-0"
  std::string message;  // in the operator's / Kueue's words where they have them
};

// How one workload fared from arrival to the end of the run.
struct WorkloadOutcome {
  // The key is the Workload's own; every other text takes few distinct values over a run and is
  // interned (interned_name.h): a million outcomes share them.
  std::string key;            // "<ns>/<name>"
  InternedName generator;     // the workload class (generator name, or "trace")
  InternedName cluster_queue, instance_type, family;  // family: exclusive/shared/sliced/partitioned/cpu
  InternedName gpu_model;  // the InstanceType's accelerator key ("nvidia-tesla-t4"); "" for CPU types
  SimTime created;
  std::optional<SimTime> first_reserved, first_admitted, finished, deleted;
  int32_t evictions = 0, retries = 0;
  int32_t preemptions = 0;  // evictions by Kueue's preemption (counted in evictions too)
  bool rejected = false;
  InternedName reject_message;       // Gate 1, the operator's webhook message
  InternedName last_pending_message; // the last reason it waited, in the operator's/Kueue's words
  InternedName last_pending_gate;    // "gate1", "queue", "gate2".."gate5", ""
  bool admitted_at_end = false;     // holds quota (admitted) when the run stopped
};

// Sampled at every change of the pool (and at the horizon): step functions over time. A sample
// holds from its `at` until the next sample of the same (cluster_queue, resource).
struct PoolSample {
  SimTime at;
  InternedName cluster_queue;
  InternedName resource;  // "credits.gpustack.ai/nvidia", "cpu", ...
  int64_t nominal = 0, reserved = 0, admitted = 0;  // int64 Kueue units (cpu in milli)
  int32_t pending_workloads = 0, reserving_workloads = 0, admitted_workloads = 0;
  model::StopPolicy stop_policy = model::StopPolicy::kNone;  // stored as None | Hold | HoldAndDrain
  bool draining = false;    // HoldAndDrain or the operator's migration in progress
};

// One GPU model's totals over the cluster, sampled whenever they change (GpuModelUsage,
// gpu_model_usage.h). A sample holds from its `at` until the next sample of the same gpu_model.
struct GpuModelSample {
  SimTime at;
  InternedName gpu_model;  // accelerator key, "<manufacturer>-<group id>"
  int64_t cards = 0;       // cards of the model in the ledgers (healthy or not)
  int64_t allocated = 0;   // Σ over cards of M − remaining (credits)
  int64_t fragmented = 0;  // free credits on cards that cannot take the model's typical request
};

// What a GPU model amounted to over a run (GpuModelUsage::summaries). Means are time-weighted over
// the model's span (first sample → end of run); ratios divide two time integrals; "final" is the
// last sample at or before the end. Ratios are empty when their denominator is zero;
// fragmentation is empty without a typical request (typical_cards == 0).
struct GpuModelSummary {
  std::string gpu_model;  // accelerator key
  std::string product;    // the Devices group's product name ("Tesla T4")
  std::string manufacturer;
  int64_t typical_credits_per_card = 0;  // the typical request fragmentation is measured against
  int32_t typical_cards = 0;             // 0: none set
  int64_t span_us = 0;
  int64_t cards = 0, peak_cards = 0;  // at the end; largest
  double mean_allocated = 0;          // credits
  int64_t peak_allocated = 0, final_allocated = 0;
  std::optional<double> mean_utilization;  // ∫allocated / ∫(cards × M)
  std::optional<double> peak_utilization;  // largest allocated / (cards × M) of any sample
  std::optional<double> final_allocation;  // allocated / (cards × M) at the end
  int64_t final_free = 0, final_fragmented = 0;  // credits at the end
  std::optional<double> mean_fragmentation;      // ∫fragmented / ∫free
  std::optional<double> final_fragmentation;     // final_fragmented / final_free
};

// One object as it stood at the end of the run (ClusterQueue, InstanceType, Node, Devices, …).
struct FinalObject {
  std::string kind;
  std::string name;  // "<ns>/<name>" for namespaced objects
  nlohmann::json object;
};

struct RunRecord {
  RunInfo info;
  std::vector<EventRecord> events;
  // Deques: they grow by blocks, without the copy and the slack of a vector's reallocation, which
  // for a million Workloads doubled the peak memory.
  std::deque<WorkloadOutcome> workloads;
  std::deque<PoolSample> pool_series;
  std::deque<GpuModelSample> gpu_model_series;  // in time order
  std::vector<GpuModelSummary> gpu_models;       // by gpu_model
  // Either an array of {"kind", "metadata": {"name", "namespace"?}, …} Kubernetes objects, or
  // empty; the store splits it into one row per object (see docs/results.md).
  nlohmann::json final_objects;
};

}  // namespace chaintwin::sim
