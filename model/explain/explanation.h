// Why a Workload waits, as a value: where it stands in the five gates now and the reason in the
// operator's and Kueue's own words; its ClusterQueue's quota per flavor and resource beside what it
// needs; the admitted Workloads holding that quota; and, for node and card placement, the Nodes its
// flavors select with their cards and the Workloads occupying them. Computed from the state alone
// (the ClusterState, the Workloads and Pods, Kueue's queues) by explain_workload(), so the
// simulator, a run file's replay, the live mode and the GUI all explain through the same code.
// What happened before (the path through the gates) and what would admit it (checked by
// simulation) are the simulator's: sim/explain/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/cluster_state.h"
#include "model/kueue/scheduler/queue_manager.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// The five gates (operator-domain §0), and the queue step between Gate 1 and Gate 2: a Workload
// whose LocalQueue or ClusterQueue is missing or inactive never reaches Kueue's quota check.
enum class Gate { kGate1, kQueue, kGate2, kGate3, kGate4, kGate5 };
std::string_view gate_id(Gate gate);     // "gate1", "queue", "gate2" … "gate5"
std::string_view gate_title(Gate gate);  // "Gate 2 — Kueue quota and topology", …
std::optional<Gate> gate_named(std::string_view id);

enum class WorkloadStanding {
  kWaiting,   // held at `gate`
  kRunning,   // admitted, every Pod running
  kAdmitted,  // admitted; its Pods were not read (the live mode), so whether they run is not known
  kFinished,  // the Finished condition is True
  kAbsent,    // not in the state (refused at Gate 1, or finished and its Pods gone)
};
// "waiting", "running", "admitted", "finished", "absent"
std::string_view workload_standing_name(WorkloadStanding standing);

// Where the Workload stands and why, in the words the state carries them.
struct WaitingPlace {
  WorkloadStanding standing = WorkloadStanding::kAbsent;
  Gate gate = Gate::kGate2;  // meaningful while kWaiting
  std::string condition;     // the condition or check state that says so, "QuotaReserved=False (Pending)"
  std::string reason;        // Kueue's / the operator's message
  std::string node;          // Gates 4 and 5: the Node its first unstarted Pod is bound to
  bool operator==(const WaitingPlace&) const = default;
};

// One (flavor, resource) of the Workload's ClusterQueue, in Kueue's int64 units (cpu in milli,
// credits in units of M = 1,600,000 per card).
struct QuotaLine {
  std::string flavor;
  std::string resource;
  int64_t nominal = 0;
  int64_t reserved = 0;  // Σ status.admission usage of the Workloads holding quota in the queue
  int64_t need = 0;      // what the Workload asks of this resource (after the credit transform)
  int64_t free() const { return nominal - reserved; }
  bool short_of() const { return need > free(); }
  bool operator==(const QuotaLine&) const = default;
};

struct HeldAmount {
  std::string flavor;
  std::string resource;
  int64_t amount = 0;
  bool operator==(const HeldAmount&) const = default;
};

// An admitted (or quota-reserving) Workload of the same ClusterQueue and what it holds.
struct QuotaHolder {
  std::string workload;  // "<namespace>/<name>"
  int32_t priority = 0;
  bool admitted = false;  // every admission check Ready (else only QuotaReserved)
  TimeUs reserved_since = 0;
  std::vector<HeldAmount> held;
  bool operator==(const QuotaHolder&) const = default;
};

// One Pod's charge on one card.
struct CardCharge {
  std::string workload;
  std::string pod;
  DeviceAllocationMode mode = DeviceAllocationMode::kNone;
  int64_t units = 0;
  std::string profile;  // a partition's profile, "" otherwise
  bool operator==(const CardCharge&) const = default;
};

// One card of a Node as its ledger stands, with who charges it.
struct CardStanding {
  uint32_t index = 0;
  std::string accelerator_key;  // "<manufacturer>-<group id>"
  DeviceAllocationMode mode = DeviceAllocationMode::kNone;
  bool partitioned = false;  // the card is in MIG (physically partitioned) mode
  int32_t remaining = 0;     // credit units left
  int32_t free_slots = 0;    // logical slice slots left (0 when not sliceable)
  int32_t slots = 0;         // logical slice slots in all
  std::vector<CardCharge> charges;
  bool operator==(const CardStanding&) const = default;
};

// A Node one of the Workload's flavors selects, and who occupies it.
struct NodeStanding {
  std::string node;
  std::string flavor;          // the first flavor of the queue that selects it
  bool schedulable = true;     // not cordoned, not terminating
  int64_t cpu_allocatable = 0, cpu_requested = 0;        // milli
  int64_t memory_allocatable = 0, memory_requested = 0;  // bytes
  std::vector<CardStanding> cards;
  // Whether the Node's cards, as they stand, take every accelerator demand of the Workload (all its
  // Pods there), judged card by card as Gate 3 judges (node_devices_feasibility); the verdict's
  // message in the operator's words when they do not. True with no demand (a CPU Workload).
  bool cards_take_it = true;
  std::string cards_verdict;
  std::vector<std::string> workloads;  // every Workload with a Pod on the Node, sorted
  bool operator==(const NodeStanding&) const = default;
};

struct Explanation {
  std::string workload;       // "<namespace>/<name>"
  std::string local_queue;    // "<namespace>/<queue name>"
  std::string cluster_queue;  // "" when the LocalQueue is missing
  int32_t priority = 0;
  TimeUs created = 0;
  WaitingPlace place;
  // 1-based place among the Workloads waiting in its ClusterQueue in Kueue's order of heads (higher
  // priority, older queue-order time, key); 0 when it is not waiting there.
  int32_t queue_position = 0;
  int32_t queue_waiting = 0;   // Workloads waiting in the ClusterQueue (heap, inadmissible, parked)
  int32_t pods_wanted = 0, pods_running = 0;
  std::vector<QuotaLine> quota;        // the queue's flavors for the resources the Workload asks
  std::vector<QuotaHolder> holders;    // sorted by what they hold of the short lines, then key
  std::vector<NodeStanding> nodes;     // in flavor order, then by name
  bool pods_read = true;  // the state holds the Pods (else no card charges, no Gate 4–5 verdict)
  // Known behaviours of Kueue or the operator that the state shows at work here, in words.
  std::vector<std::string> notes;
  bool operator==(const Explanation&) const = default;
};

// Where the Workload stands (the first part of explain_workload, for callers that want only that).
// `pods_read`: the state holds the Pods (the simulator's does; the live mode reads none, and an
// admitted Workload then stands kAdmitted).
WaitingPlace where_waiting(const ClusterState& cluster, const WorkloadState& workloads, const QueueManager& queues,
                           const std::string& workload_key, bool pods_read = true);

// The whole explanation of one Workload. `node_limit` bounds how many Nodes are listed: the
// roomiest (most free credit units on its cards) of each flavor in the queue's order, then the
// roomiest of the rest; 0 lists every one.
Explanation explain_workload(const ClusterState& cluster, const WorkloadState& workloads, const QueueManager& queues,
                             const std::string& workload_key, size_t node_limit = 0, bool pods_read = true);

}  // namespace chaintwin::model
