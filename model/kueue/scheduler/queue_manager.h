// Kueue's queue manager (pkg/cache/queue): the pending Workloads of every ClusterQueue, fed by
// LocalQueues. Per ClusterQueue a heap ordered by priority (higher first), then queue-order
// timestamp, then key; an inadmissible set (BestEffortFIFO heads that did not fit, released only
// by events); and the parked Workloads (Requeued=False after a HoldAndDrain eviction, released
// when the queue restarts). Workloads whose LocalQueue or ClusterQueue does not exist are kept
// aside and placed by refresh(). schedule_cycle pops heads; the lifecycle functions add, park and
// remove. A plain value: copyable and comparable, no references into ClusterState.
//
// Names live at the edge of it: a Workload is found by its key once, when it is added, removed or
// asked about by name; inside, each tracked Workload has a dense slot, and every entry of a heap or
// set carries its WorkloadRef, so popping, parking and releasing a head, and what the scheduler
// remembers of it (nomination_memo.h), are array reads. A ClusterQueue name is interned once into a
// dense QueueId; the pending queues are a vector by id, listed in name order. Each queue keeps its
// heap and inadmissible set as two sets whose roles can swap: releasing every inadmissible head into
// an empty heap, or parking every head, swaps the roles without touching an entry, and a join of
// two non-empty sets rewrites only the smaller side. What Kueue's workload.Info derives once
// (workload_info.h) is derived when a Workload is tracked: a Workload whose PodSets change reaches
// the queues again through add(), as Kueue's update event re-adds it (info_mismatch() checks it).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/cluster_state.h"
#include "model/flat_string_index.h"
#include "model/kueue/scheduler/admission_fair_sharing.h"
#include "model/kueue/scheduler/flavor_scan.h"
#include "model/kueue/scheduler/workload_info.h"
#include "model/kueue/scheduler/workload_ref.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

struct QueueEntry {
  int32_t priority = 0;
  TimeUs order_time = 0;
  std::string key;  // "<ns>/<name>"
  WorkloadRef ref;  // given by the QueueManager; neither part of the order nor of equality
  bool operator<(const QueueEntry& o) const {
    if (priority != o.priority) return priority > o.priority;
    if (order_time != o.order_time) return order_time < o.order_time;
    return key < o.key;
  }
  bool operator==(const QueueEntry& o) const {
    return priority == o.priority && order_time == o.order_time && key == o.key;
  }
};

// The queue-order entry of a Workload: its priority, max(creation, status.queue_order_time), key.
QueueEntry queue_entry(const Workload& wl);

// The dense id of a ClusterQueue name in one QueueManager (given when the name is first seen, never
// reused; not comparable across QueueManagers).
using QueueId = uint32_t;
inline constexpr QueueId kNoQueue = UINT32_MAX;

class QueueManager {
 public:
  enum class Place { kHeap, kInadmissible, kParked, kPopped, kUnplaced };

  void add(const ClusterState& cluster, const Workload& wl);
  // Adds with Requeued=False: counted as pending and inadmissible, never popped nor released by
  // release_inadmissible(); unpark() moves it to the heap.
  void park(const ClusterState& cluster, const Workload& wl);
  void unpark(const std::string& workload_key);
  void remove(const std::string& workload_key);
  // Lists every ClusterQueue, moves the Workloads of each LocalQueue whose target changed, and
  // forgets queues that are gone and empty. `queues_unchanged`: the caller knows no ClusterQueue or
  // LocalQueue changed since the last refresh, so only LocalQueues whose members are mixed (tracked
  // across a change) are resolved again; the answer is the same.
  void refresh(const ClusterState& cluster, bool queues_unchanged = false);
  // One ClusterQueue's inadmissible Workloads back into its heap, and those of every queue in the
  // same cohort tree; every queue's when `cluster_queue` is empty.
  void release_inadmissible(const std::string& cluster_queue = "");

  // The head of a ClusterQueue's heap, taken out (kPopped) until requeue() or remove().
  std::optional<QueueEntry> pop(const std::string& cluster_queue);
  std::optional<QueueEntry> pop(QueueId cluster_queue);
  // Under admission fair sharing (admission_fair_sharing.h): the heap's Workload whose LocalQueue
  // shows the lowest `usage`, the heap order breaking ties (queueOrderingFunc), taken out as pop().
  std::optional<QueueEntry> pop_by_usage(QueueId cluster_queue,
                                         const std::function<double(const std::string& local_queue)>& usage);
  // Admission fair sharing's consumed resources and entry penalties, per LocalQueue.
  AdmissionFairSharingState& admission_fair_sharing() { return afs_; }
  const AdmissionFairSharingState& admission_fair_sharing() const { return afs_; }
  // The head of a ClusterQueue's heap, left in place (null when the heap is empty).
  const QueueEntry* peek(const std::string& cluster_queue) const;
  // Back into the heap (immediate) or into the inadmissible set.
  void requeue(const std::string& workload_key, bool inadmissible);
  void requeue(const QueueEntry& popped, bool inadmissible);
  // The heap of a ClusterQueue, in pop order (empty for an unknown queue); valid until the next
  // change to this QueueManager.
  const std::set<QueueEntry>& heap(const std::string& cluster_queue) const;
  const std::set<QueueEntry>& heap(QueueId cluster_queue) const;
  // The first `count` entries of a ClusterQueue's heap into its inadmissible set, as `count`
  // cycles of pop() then requeue(key, true) would move them.
  void park_heads(const std::string& cluster_queue, std::size_t count);
  void park_heads(QueueId cluster_queue, std::size_t count);

  int32_t pending(const std::string& cluster_queue) const;
  // Whether some ClusterQueue's heap holds a Workload to pop (the inadmissible and parked sets do
  // not count): while none does, Kueue's loop is blocked in Heads().
  bool has_heads() const;
  // pending() of every ClusterQueue that holds a waiting Workload, in one walk.
  std::map<std::string, int32_t> pending_by_queue() const;
  int32_t inadmissible(const std::string& cluster_queue) const;
  // The ClusterQueues this QueueManager holds a queue for, in name order, and their ids in the same
  // order; valid until the next change to this QueueManager.
  const std::vector<std::string>& cluster_queues() const { return listed_names_; }
  const std::vector<QueueId>& cluster_queue_ids() const { return listed_ids_; }
  const std::string& cluster_queue_name(QueueId id) const;
  bool contains(const std::string& workload_key) const { return slots_.find(workload_key) != nullptr; }
  // The slot and incarnation of a tracked Workload.
  std::optional<WorkloadRef> ref_of(const std::string& workload_key) const;
  std::optional<Place> place_of(const std::string& workload_key) const;
  // The ClusterQueue a tracked Workload belongs to ("" while unplaced, or for a stale ref).
  std::string cluster_queue_of(const std::string& workload_key) const;
  const std::string& cluster_queue_of(WorkloadRef workload) const;
  QueueId cluster_queue_id_of(WorkloadRef workload) const;
  // What was derived of a tracked Workload when it was last tracked (null for a stale ref).
  const WorkloadInfo* info(WorkloadRef workload) const;
  // Scheduling cycles, counted by schedule_cycle (and run_idle_cycles) for the scan records.
  int64_t cycles() const { return cycles_; }
  void count_cycles(int64_t n) { cycles_ += n; }
  // The flavor-scan record of a tracked Workload when it was made in cycle `since` or later (null
  // otherwise, or for a stale ref); and its recording (an empty scan clears it). A record survives
  // the Workload being tracked again with the same PodSets (Kueue copies it when the scheduling
  // shape matches).
  const FlavorScan* scan_since(WorkloadRef workload, int64_t since) const;
  void record_scan(WorkloadRef workload, FlavorScan scan, int64_t cycle);
  // The first tracked Workload whose kept WorkloadInfo is not what `workloads` now gives (its
  // PodSets changed without it being tracked again), as text; "" when every one agrees (a tracked
  // key missing from `workloads` is skipped: the cycle drops it unread). The simulator's --verify
  // asks before every cycle.
  std::string info_mismatch(const WorkloadState& workloads) const;
  // Heap order of one ClusterQueue, for tests and reports.
  std::vector<std::string> heap_order(const std::string& cluster_queue) const;
  // Workloads whose LocalQueue or ClusterQueue is missing: (workload key, LocalQueue key).
  std::vector<std::pair<std::string, std::string>> unplaced() const;
  // The keys of every parked Workload (Requeued=False), sorted.
  std::set<std::string> parked_keys() const;
  // Every tracked Workload of a ClusterQueue that waits (heap, inadmissible, parked), sorted by key.
  std::vector<std::string> waiting(const std::string& cluster_queue) const;

  // What sync_queue_states last saw of each ClusterQueue, to tell a change (a requeue event).
  struct Observed {
    ClusterQueueSpec spec;
    bool active = false;
    bool terminating = false;
    bool operator==(const Observed&) const = default;
  };
  // Records what is seen now; returns whether it differs from what was recorded before (the spec
  // is copied only then).
  bool observe(const std::string& cluster_queue, const ClusterQueueSpec& spec, bool active, bool terminating);

  // The same Workloads in the same places and order; which slot holds which is not compared.
  bool operator==(const QueueManager& o) const;

 private:
  // Where a tracked Workload is: in one of its queue's two queued sets (which one is the heap is the
  // queue's heap_at), parked, popped or unplaced.
  enum class Where : uint8_t { kQueued, kParked, kPopped, kUnplaced };
  struct Tracked {
    std::string local_queue;            // "<ns>/<queue_name>"
    QueueId cluster_queue = kNoQueue;   // kNoQueue while unplaced
    QueueEntry entry;                   // entry.key is the Workload's key; entry.ref its slot
    Where where = Where::kUnplaced;
    uint8_t bucket = 0;                 // kQueued: which of the queue's two sets holds it
    bool live = false;                  // false: the slot is free
    uint32_t member_at = 0;             // its place in its LocalQueue's LocalQueueMembers::slots
    std::shared_ptr<const WorkloadInfo> info;  // derived when tracked (not compared: a function of the Workload)
    // Where its last flavor search stopped, and in which cycle (-1: none recorded); read only under
    // FlavorFungibilityPreserveScanProgress. Not compared: the queues' places are what is compared.
    FlavorScan scan;
    int64_t scan_cycle = -1;
  };
  struct PendingQueue {
    std::set<QueueEntry> queued[2];  // the heap is queued[heap_at], the inadmissible set the other
    uint8_t heap_at = 0;
    std::set<QueueEntry> parked;
    bool listed = false;  // cluster_queues() names it
    std::set<QueueEntry>& heap() { return queued[heap_at]; }
    const std::set<QueueEntry>& heap() const { return queued[heap_at]; }
    std::set<QueueEntry>& inadmissible() { return queued[heap_at ^ 1]; }
    const std::set<QueueEntry>& inadmissible() const { return queued[heap_at ^ 1]; }
    bool empty() const { return queued[0].empty() && queued[1].empty() && parked.empty(); }
    bool same_as(const PendingQueue& o) const {
      return heap() == o.heap() && inadmissible() == o.inadmissible() && parked == o.parked;
    }
  };

  // The tracked Workloads of one LocalQueue, and the ClusterQueue they all resolved to (`mixed`
  // when some were tracked after the LocalQueue's target changed and before refresh() saw it).
  struct LocalQueueMembers {
    std::vector<WorkloadSlot> slots;  // in no order (each Tracked knows its place: member_at)
    std::string cluster_queue;
    bool mixed = false;
  };
  // The members' keys, sorted: what two queue managers compare (their slots may differ).
  std::vector<std::string> member_keys(const LocalQueueMembers& members) const;

  Place place(const Tracked& t) const;
  bool same_tracked(const Tracked& a, const QueueManager& other, const Tracked& b) const;
  QueueId intern(const ClusterState& cluster, const std::string& cluster_queue);
  static std::string cohort_root_of(const ClusterState& cluster, const std::string& cluster_queue);
  QueueId id_of(const std::string& cluster_queue) const;  // kNoQueue when never seen
  PendingQueue* listed_queue(QueueId id);
  const PendingQueue* listed_queue(QueueId id) const;
  PendingQueue& list(QueueId id);  // the queue of `id`, listed if it was not
  void unlist(QueueId id);
  // Every entry of the inadmissible set into the heap (`into_heap`), or of the heap into the
  // inadmissible set: a swap of roles when the receiving set is empty.
  void join_queued(PendingQueue& q, bool into_heap);
  void track(const ClusterState& cluster, const Workload& wl, Place place);
  void detach(Tracked& t);
  void attach(Tracked& t, Place place);
  void set_where(Tracked& t, Where where);
  void release(WorkloadSlot slot);
  Tracked* find(const std::string& workload_key);
  const Tracked* find(const std::string& workload_key) const;
  static std::string resolve(const ClusterState& cluster, const std::string& local_queue);
  // The live tracked slots, in their Workloads' key order (for the walks whose order shows).
  std::vector<WorkloadSlot> slots_in_key_order() const;

  std::unordered_map<std::string, QueueId> queue_ids_;  // every ClusterQueue name seen: the one lookup by name (never walked)
  std::vector<std::string> queue_names_;           // by QueueId
  std::vector<PendingQueue> queues_;               // by QueueId
  std::vector<std::string> listed_names_;          // the listed queues, in name order
  std::vector<QueueId> listed_ids_;                // the same, as ids
  FlatStringMap<WorkloadSlot> slots_;              // by workload key: the one lookup by name (never walked)
  std::vector<Tracked> tracked_;                   // by slot
  SharedWorkloadInfos infos_;                      // the infos of the last PodSets tracked
  std::vector<WorkloadSlot> free_slots_;           // reused last-freed first
  std::unordered_map<std::string, Observed> observed_;  // looked up and compared whole, never walked
  // Indexes over the tracked Workloads, so refresh(), pending_by_queue() and unplaced() need not walk it.
  std::map<std::string, LocalQueueMembers> by_local_queue_;
  std::set<std::string> popped_, unplaced_;  // workload keys in kPopped / kUnplaced
  // By QueueId: whether the cluster held the ClusterQueue at the last full refresh (what a refresh
  // with the queues unchanged reads instead of looking each name up; not part of operator==).
  std::vector<bool> in_cluster_;
  int64_t cycles_ = 0;
  // By QueueId: the root of the queue's cohort tree ("" without a cohort), as seen when the queue was
  // first named and at every refresh() that looked at the ClusterQueues.
  // Releasing one queue's inadmissible Workloads releases those of every queue under the same root,
  // as Kueue requeues a whole cohort when quota in it comes free.
  std::vector<std::string> cohort_root_;
  AdmissionFairSharingState afs_;
};

}  // namespace chaintwin::model
