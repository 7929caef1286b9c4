// Snapshot: one immutable picture of the chain at one simulated instant, the only thing the GUI's
// panels read. A source (a simulation stepping on its own thread, or a finished run read from its
// SQLite file) builds it and hands it over whole; the window never reaches into live state, so a
// panel is a function of a Snapshot and the window's own UI state.
//
// Plain values only. Credits are int64 Kueue units (1,600,000 = one card); CPU is in millicores.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/explain/explanation.h"
#include "viz/compare_view.h"
#include "viz/family_palette.h"
#include "viz/plan_view.h"

namespace chaintwin::viz {

// One InstanceType/ClusterQueue pool at `now`.
struct PoolRow {
  std::string cluster_queue;  // = the InstanceType's name
  std::string display_name;   // the InstanceType's displayName, "" when none
  Family family = Family::kCpu;  // the pool's leading family (EX when it offers whole cards)
  std::vector<Family> families;  // every family with capacity, in the order EX, SH, SL, PT (CPU alone for a CPU pool)
  std::string resource;          // the resource its quota is in: "credits.gpustack.ai/nvidia", "cpu"
  int64_t nominal = 0, reserved = 0, admitted = 0;  // in `resource`'s Kueue units
  int64_t pending_demand = 0;  // what the pending Workloads of the queue ask of `resource`
  int32_t pending_workloads = 0, reserving_workloads = 0, admitted_workloads = 0;
  // The InstanceType's four accelerator views as "onceMaxRequest/remaining", and CPU.
  std::string view_ex, view_sh, view_sl, view_pt, view_cpu;
  std::string phase;  // the InstanceType's phase: Active, Draining, ...
  StopPolicy stop_policy = StopPolicy::kNone;
  bool empty_plan_hold = false;   // topology.gpustack.ai/empty-plan-hold
  std::string migration_phase;    // topology.gpustack.ai/migration-phase ("" when none)
  std::string topology_ready;     // the TopologyReady condition's status ("" when absent)
  std::string topology_reason;    // and its reason
  bool operator==(const PoolRow&) const = default;
};

// A pool's history: step samples, each holding until the next.
struct SeriesPoint {
  int64_t at_us = 0;
  int64_t nominal = 0, used = 0, admitted = 0;  // used = reserved quota
  int32_t pending_workloads = 0;
  StopPolicy stop_policy = StopPolicy::kNone;
  bool draining = false;
  bool operator==(const SeriesPoint&) const = default;
};

struct PoolSeries {
  std::string cluster_queue;
  std::string resource;
  std::vector<SeriesPoint> points;  // in time order
  bool operator==(const PoolSeries&) const = default;
};

// One partition instance drawn on a card's memory-slice map.
struct PlacedInstance {
  std::string profile;  // vendor spelling, "1g.10gb"
  int32_t start = 0, length = 0;
  std::string pod;       // the Pod holding it ("<ns>/<pod>"), "" when the ledger does not say
  std::string workload;  // that Pod's Workload ("<ns>/<name>"), "" when unknown
  bool operator==(const PlacedInstance&) const = default;
};

// A MIG profile of a partitioned card: its published name and how many more instances of it the
// card can still build by placement (the operator's remainingProfiles for this card).
struct ProfileRoom {
  std::string profile;    // vendor spelling, "1g.10gb"
  std::string published;  // published spelling, the label's
  int32_t allocated = 0, remaining = 0;
  bool operator==(const ProfileRoom&) const = default;
};

struct CardView {
  std::string id;
  uint32_t index = 0;
  std::string product;         // the status group's product name
  std::string accelerator_key; // "nvidia-h100-80gb-hbm3"
  std::string mode;            // None | Exclusive | Shared | Sliced | Partitioned
  bool unhealthy = false;
  int64_t remaining = 0;       // credits left of 1,600,000
  int32_t slices_used = 0, slice_count = 0;  // logical slices
  int32_t memory_slices = 0;   // partitioned cards: the memory slices of the card (0 when not partitionable)
  // "MIG" (physically partitioned), "logical" (logical slices), "whole" (neither), as detected.
  std::string hardware_mode;
  std::string pending_mode;    // "MIG"/"logical" when flipped by the admin and not re-detected yet
  bool ledger_ready = true;    // a MIG card's ledger row lists its profiles (else the static ceiling)
  std::vector<ProfileRoom> profiles;  // MIG cards: every offered profile with its room
  std::vector<PlacedInstance> instances;
  std::string ledger_row;      // the Devices status row as the operator writes it (JSON text)
  bool operator==(const CardView&) const = default;
};

struct NodeView {
  std::string name;
  bool ready = true;
  bool terminating = false;
  bool managed = true;   // gpustack.ai/managed is "true": the operator keeps its ledger and labels
  std::vector<std::string> flavors;  // ResourceFlavors whose nodeLabels the Node satisfies
  std::vector<std::pair<std::string, std::string>> capacity_keys;  // status.capacity, the operator's keys
  std::vector<std::pair<std::string, std::string>> fit_labels;     // per-model fit labels
  std::vector<CardView> cards;
  bool operator==(const NodeView&) const = default;
};

// A ResourceFlavor as Kueue holds it: what a Node must carry to feed it, its taints and
// tolerations written as kubectl prints them ("key=value:Effect"), its Topology.
struct FlavorView {
  std::string name;
  std::vector<std::pair<std::string, std::string>> node_labels;
  std::vector<std::string> node_taints, tolerations;
  std::string topology;
  bool operator==(const FlavorView&) const = default;
};

// Where a Workload's Pod runs: its Node and the cards its containers were granted.
struct PodPlacement {
  std::string pod;   // "<ns>/<pod>"
  std::string node;  // spec.nodeName
  std::vector<std::string> cards;  // "#<index> <mode>[ <profile>]" per container allocation
  std::vector<std::string> card_ids;  // the same cards' ids (CardView::id), in the same order
  bool operator==(const PodPlacement&) const = default;
};

// One step of a Workload's way through the gates (from the event log).
struct WorkloadStep {
  int64_t at_us = 0;
  std::string kind;     // arrival, QuotaReserved, Pending, check, Admitted, Evicted, Finished, ...
  std::string message;  // in the operator's / Kueue's words
  bool operator==(const WorkloadStep&) const = default;
};

enum class WorkloadPhase { kPending, kAdmitted, kEvicted, kFinished, kRejected };

struct WorkloadRow {
  std::string key;  // "<namespace>/<name>"
  std::string cluster_queue;
  WorkloadPhase phase = WorkloadPhase::kPending;
  std::string gate;    // the gate that stopped a pending one ("queue", "gate2", ...), "" otherwise
  std::string reason;  // the last Pending message, in the operator's words
  int32_t evictions = 0, retries = 0;
  int64_t created_us = 0;
  // What it asks of its ClusterQueue's pool resource (PoolRow::resource, in its Kueue units), its
  // priority, and for a waiting one its 1-based place in Kueue's order of its ClusterQueue's waiting
  // Workloads (priority, then queue-order time). Known from a simulation or a live cluster; a run
  // file does not record them (resource "" and position 0).
  std::string resource;
  int64_t requested = 0;
  int32_t priority = 0;
  int32_t queue_position = 0;
  std::vector<PodPlacement> placements;  // its Pods bound to Nodes (a simulation or a live cluster)
  std::vector<WorkloadStep> history;
  bool operator==(const WorkloadRow&) const = default;
};

// A stretch of time a queue was held or drained, with what caused it.
struct DrainSpan {
  std::string cluster_queue;
  int64_t from_us = 0;
  std::optional<int64_t> to_us;  // open while it lasts
  StopPolicy stop_policy = StopPolicy::kHold;
  std::string cause;  // "flavor lost", "admin Hold", "queue deleted", "profile migration", ...
  std::string detail;  // the write or action that set it, in its own words
  bool operator==(const DrainSpan&) const = default;
};

struct EventRow {
  int64_t at_us = 0;
  std::string kind, object, message;
  bool operator==(const EventRow&) const = default;
};

struct ChainEdgeView {
  std::string from, kind, to;  // "Node/gpu-0", "contributes", "ResourceFlavor/..."
  bool operator==(const ChainEdgeView&) const = default;
};

// One write the operator would make to a live cluster and has not (chaintwin live's drift).
struct DriftMark {
  std::string kind, name, verb, controller, reason;
  bool operator==(const DriftMark&) const = default;
};

struct Snapshot {
  std::string scenario;  // the scenario's name
  std::string source;    // "simulation" or the run file's path
  int64_t now_us = 0, end_us = 0;
  int64_t events = 0;    // events processed up to now; for a run file, event-log lines up to now
  bool from_file = false;  // read from a finished run's results file, not simulated
  bool live = false;       // a real cluster read by chaintwin live (no time controls)
  bool finished = false; // the run reached its end
  bool playing = false;
  double speed = 0;      // simulated seconds per wall second
  std::string state_note;  // e.g. "Nodes and cards as they stood at the end of the run"
  std::vector<PoolRow> pools;
  std::vector<PoolSeries> series;
  std::vector<NodeView> nodes;
  std::vector<WorkloadRow> workloads;
  std::vector<DrainSpan> drains;
  std::vector<EventRow> events_log;  // the newest last; at most the source's window
  std::vector<EventRow> expectations;  // every `expect` line up to now (however old), in time order
  std::vector<ChainEdgeView> chain;
  std::vector<FlavorView> flavors;  // every ResourceFlavor, in name order
  std::vector<DriftMark> drift;  // live only
  // The Workload the window asked to explain (Command::kExplain), explained from the state shown
  // (model/explain/explanation.h); unset when none was asked or the source holds no such state
  // (then `explanation_note` says why).
  std::optional<model::Explanation> explanation;
  std::string explanation_note;
  // A capacity plan's results (the Plan panel), when one is shown; shared, never changed.
  std::shared_ptr<const PlanView> plan;
  bool plan_only = false;  // a plan's window: no run behind it, the Plan panel alone
  // Two runs compared (gui --db A --db B): the Compare panel alone, no clock.
  std::shared_ptr<const CompareView> compare;
  bool operator==(const Snapshot&) const = default;
};

}  // namespace chaintwin::viz
