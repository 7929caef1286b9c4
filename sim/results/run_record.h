// RunRecord: everything one simulated run leaves behind — what ran (RunInfo), the event log, one
// outcome per workload, the pool step functions and the objects at the end. The runner fills it
// while it simulates; the event log writer (event_log.h), the SQLite store (sqlite_store.h) and the
// report (report.h) turn it into outputs. Plain values only: no I/O here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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
  std::string key;          // "<ns>/<name>"
  std::string generator;    // the workload class (generator name, or "trace")
  std::string cluster_queue, instance_type, family;  // family: exclusive/shared/sliced/partitioned/cpu
  SimTime created;
  std::optional<SimTime> first_reserved, first_admitted, finished, deleted;
  int32_t evictions = 0, retries = 0;
  bool rejected = false;
  std::string reject_message;       // Gate 1, the operator's webhook message
  std::string last_pending_message; // the last reason it waited, in the operator's/Kueue's words
  std::string last_pending_gate;    // "gate1".."gate5", "queue-stopped", ""
  bool admitted_at_end = false;     // holds quota (admitted) when the run stopped
};

// Sampled at every change of the pool (and at the horizon): step functions over time. A sample
// holds from its `at` until the next sample of the same (cluster_queue, resource).
struct PoolSample {
  SimTime at;
  std::string cluster_queue;
  std::string resource;  // "credits.gpustack.ai/nvidia", "cpu", ...
  int64_t nominal = 0, reserved = 0, admitted = 0;  // int64 Kueue units (cpu in milli)
  int32_t pending_workloads = 0, reserving_workloads = 0, admitted_workloads = 0;
  std::string stop_policy;  // None | Hold | HoldAndDrain
  bool draining = false;    // HoldAndDrain or the operator's migration in progress
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
  std::vector<WorkloadOutcome> workloads;
  std::vector<PoolSample> pool_series;
  // Either an array of {"kind", "metadata": {"name", "namespace"?}, …} Kubernetes objects, or
  // empty; the store splits it into one row per object (see docs/results.md).
  nlohmann::json final_objects;
};

}  // namespace chaintwin::sim
