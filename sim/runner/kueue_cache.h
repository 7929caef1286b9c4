// KueueCache: what the simulator keeps of Kueue between scheduling cycles instead of deriving it
// again for each one, as Kueue's own cache (pkg/cache) sits beside the cluster and a cycle takes
// its snapshot from it:
//   - the TAS node index (which Nodes each TAS flavor places on) and each Node's place in it;
//   - the ClusterQueues whose Active condition holds;
//   - the reserved usage snapshot the nominations read, and the queue totals Kueue's status reports
//     read, with who holds quota in which ClusterQueue and on which Node;
//   - the nomination memo and the per-Node TAS verdicts.
// The Simulation says what moved (the *_changed and note_* methods); each part is either kept
// exact or dropped and rebuilt before the next cycle (prepare). verify() is the invariant the
// simulator's --verify checks: every kept part equals a fresh derivation from the cluster and the
// Workloads.
//
// A Workload the Simulation tracks is named by its WorkloadId (workload_book.h) and by its key: the
// per-Workload records sit in the id's slot and live as long as the Simulation tracks the Workload
// (forget() when it stops); the index of Workloads by ClusterQueue, which the cycle reads, holds
// keys, and the one by Node holds slots and answers Gate 3 in keys (reserving_beside).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/cluster_state.h"
#include "model/flat_string_index.h"
#include "model/kueue/scheduler/admission_lifecycle.h"
#include "model/kueue/scheduler/nomination_memo.h"
#include "model/kueue/scheduler/scheduler.h"
#include "model/kueue/scheduler/tas_leaf_cache.h"
#include "model/kueue/scheduler/usage_snapshot.h"
#include "model/workload/workload.h"
#include "sim/runner/bucket_index.h"
#include "sim/runner/workload_book.h"

namespace chaintwin::sim {

class KueueCache {
 public:
  // The TAS verdicts are told of fit-label writes apart (NodeChange::kVolatileLabels).
  KueueCache();
  // `verify`: the memo and the TAS verdicts check every remembered answer against a fresh search.
  void set_verify(bool verify);

  // Rebuilds what was dropped, so a cycle can read every part. With `check`, each part is then
  // compared with a fresh derivation; returns what differs ("" when all agree).
  // The check includes the invariant the batched idle cycles rely on (remembered_heads_mismatch).
  std::string prepare(const model::ClusterState& cluster, const model::WorkloadState& workloads,
                      const model::QueueManager& queues, bool check);
  // Every part, for schedule_cycle (after prepare()).
  model::KeptCycleState for_cycle();
  // The parts batched idle cycles read, or nullopt while one of them is not built.
  std::optional<model::KeptCycleState> for_idle_cycles();
  // After a cycle with verify on: a remembered answer a fresh search contradicted ("" if none).
  std::string stale_answer() const;
  // The invariant --verify checks before Kueue's status reports: the kept queue totals give the
  // usage a walk over every Workload gives ("" when they agree).
  std::string check_queue_totals(const model::ClusterState& cluster, const model::WorkloadState& workloads,
                                 const model::QueueManager& queues) const;

  // What moved.
  // Kueue's own objects (ClusterQueues, ResourceFlavors, Topologies, AdmissionChecks, queue
  // membership), or anything an owner cannot name: every remembered answer and the active set go.
  void kueue_objects_changed();
  // The operator's full fixpoint ran: the TAS node index and the active set may have moved.
  void chain_resynced();
  // Moves with each of the two calls above: equal readings bracket a stretch in which no Kueue
  // object (nor the queues' activity) changed.
  uint64_t kueue_epoch() const { return kueue_epoch_; }
  // A Node's labels, allocatable or TAS usage moved (kRoom: not its labels).
  void node_changed(const std::string& node, model::NodeChange what = model::NodeChange::kAny);
  // A Pod that counts as Kueue's non-TAS usage started (+1) or stopped counting (−1).
  void note_non_tas_usage(const model::Pod& pod, int sign);
  // Usage outside the kept records moved (a Pod outside Kueue left with its Node): rebuilt at the
  // next prepare().
  void usage_dropped();
  // A Workload's reservation moved (`cluster_queue`: the one it held quota in before, "" if none):
  // its ClusterQueue's quota and the TAS usage of the Nodes its old and new assignments name.
  // `id`: set while the Simulation tracks it (nullopt: nothing is known of where it was).
  void reservation_moved(const model::WorkloadState& workloads, const std::string& key,
                         const std::string& cluster_queue, std::optional<WorkloadId> id);
  // Brings the kept usage and totals up to date with one Workload (untracked: all rebuilt).
  void sync_usage(const model::WorkloadState& workloads, const std::string& key, std::optional<WorkloadId> id);
  // After a transition of `key` (see reservation_moved for `cluster_queue`): sync_usage, then
  // reservation_moved, whose Node part (which Nodes the reservation names, and their TAS
  // verdicts) is skipped when the reservation did not move: a second transition of one change (a
  // finish's QuotaReleased) or one that moves no quota (Admitted, Evicted).
  void reservation_changed(const model::WorkloadState& workloads, const std::string& key,
                           const std::string& cluster_queue, std::optional<WorkloadId> id);
  // A cycle admitted `key` (tracked as `id`): schedule_cycle already added `usage` to the kept
  // snapshot, into `cells`.
  void admitted_by_cycle(const model::WorkloadState& workloads, WorkloadId id, const std::string& key,
                         model::WorkloadUsage usage, model::CellCharges cells);
  // The Simulation stopped tracking `id` (its QueueManager ref, if it still had one).
  void forget(WorkloadId id, std::optional<model::WorkloadRef> ref);

  const model::QueueTotalsMap& queue_totals() const { return queue_totals_; }
  // The ClusterQueues whose totals moved since the last call, then forgotten (null after the
  // totals were rebuilt: any may have moved).
  std::optional<std::set<std::string>> take_moved_totals();
  // The ClusterQueues whose Active condition holds (kept; derived first if it was dropped).
  const std::set<std::string>& active_queues(const model::ClusterState& cluster);
  const model::ReservingByQueue& reserving_by_queue() const { return reserving_by_queue_; }
  // The Workloads whose reservation names one of the Nodes `id`'s reservation names (itself
  // included), but for those known to hold every assigned Pod's cards: Gate 3's inflight
  // candidates (model::has_pods_to_allocate says why the others can be left out).
  std::set<std::string> reserving_beside(WorkloadId id) const;
  // The Pods of the Workload tracked as `id` all hold their cards (model::has_pods_to_allocate was
  // false): it is no inflight candidate until its reservation moves or pods_released().
  void pods_allocated(WorkloadId id);
  // The Pods of the Workload tracked as `id` were stopped or deleted: an inflight candidate again
  // while it holds a reservation.
  void pods_released(WorkloadId id);

 private:
  // What one Workload added to the kept parts.
  struct Held {
    std::string key;                       // the Workload's (set with its first reservation)
    std::set<std::string> reserved_nodes;  // the Nodes its current reservation's topology names
    bool pods_allocated = false;           // every assigned Pod holds its cards (pods_allocated())
    // While it holds quota: the one admission the kept parts count it with (a tracked Workload's
    // PodSets never change, so its admission decides its usage), what it added to the usage
    // snapshot (set while counted there), and whether the queue totals count it (as admitted).
    std::optional<model::Admission> admission;
    std::optional<model::WorkloadUsage> usage;
    bool in_totals = false;
    bool totals_admitted = false;
    // Where `usage` and the totals' count went, so that taking them out reads no names: valid while
    // the generation they were made in is the kept part's (else the names above are walked).
    model::CellCharges usage_cells;
    uint64_t usage_generation = 0;
    model::QueueTotalsCharges totals;
    uint64_t totals_generation = 0;
    // reserved_nodes were read from `admission` as it is (cleared whenever `admission` is set).
    bool nodes_read = false;
  };
  // The Workload `key` while it holds quota (a reservation, not finished); null otherwise.
  static const model::Workload* holding(const model::WorkloadState& workloads, const std::string& key);
  // The record in `id`'s slot (made on first use).
  Held& held(WorkloadId id);
  // Takes `key`'s reservation out of the queue totals, if they count it; out of its ClusterQueue's
  // reserving keys too unless `stays_reserving` (it is counted again there next).
  void uncount_totals(Held& held, const std::string& key, bool stays_reserving = false);
  // reservation_moved; with `skip_unmoved`, the Node part is skipped while the record's
  // admission is the one its Nodes were last read from (Held::nodes_read).
  void move_reservation(const model::WorkloadState& workloads, const std::string& key, const std::string& cluster_queue,
                        std::optional<WorkloadId> id, bool skip_unmoved);
  // Counts `admission` into the queue totals for `held` (as admitted or not), listing `key` among
  // its ClusterQueue's reserving keys unless `listed_reserving` (it still is).
  void count_totals(Held& held, const std::string& key, const model::Admission& admission, bool admitted,
                    bool listed_reserving = false);
  // Takes held.usage out of the kept snapshot (which exists).
  void take_usage_out(Held& held);
  // Drops the kept snapshot: the cells any Held has of it go with it.
  void drop_reserved();

  std::optional<model::TasNodeIndex> tas_nodes_;
  bool tas_nodes_stale_ = true;  // a full resync ran since tas_nodes_ was built
  // tas_nodes_ by Node: its TAS flavors, as the memo's indexes of the names (the TAS cache keeps
  // the Node's positions in their lists itself: TasLeafCache::index_nodes).
  model::FlatStringMap<std::vector<uint32_t>> node_flavors_;  // never walked
  std::optional<std::set<std::string>> active_queues_;
  std::optional<model::QuotaTree> quota_tree_;  // dropped with active_queues_
  uint64_t kueue_epoch_ = 0;
  std::optional<model::UsageSnapshot> reserved_;
  uint64_t reserved_generation_ = 1;  // moves whenever reserved_ is dropped or built (Held::usage_generation)
  model::QueueTotalsMap queue_totals_;
  uint64_t totals_generation_ = 1;  // moves whenever queue_totals_ is rebuilt (Held::totals_generation)
  std::set<std::string> totals_moved_;  // ClusterQueues whose totals moved since take_moved_totals()
  bool totals_rebuilt_ = true;          // ... or every one of them
  model::ReservingByQueue reserving_by_queue_;  // ClusterQueue → Workloads holding quota
  // Node → slots of the Workloads whose reservation names it, but for those whose Pods all hold
  // their cards (Held::key names each); a Node none names has no entry. Never walked.
  SlotBuckets<uint32_t> allocating_on_node_;
  model::NominationMemo memo_;
  model::TasLeafCache tas_leaves_;
  std::vector<Held> held_;  // by WorkloadId slot; a slot's record is reset when forgotten
};

}  // namespace chaintwin::sim
