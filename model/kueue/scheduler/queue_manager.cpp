#include "model/kueue/scheduler/queue_manager.h"

#include <algorithm>

namespace chaintwin::model {

QueueEntry queue_entry(const Workload& wl) {
  return QueueEntry{wl.priority, std::max(wl.creation_time, wl.status.queue_order_time), object_key(wl.metadata), {}};
}

std::string QueueManager::resolve(const ClusterState& cluster, const std::string& local_queue) {
  const auto lq = cluster.local_queues.find(local_queue);
  if (lq == cluster.local_queues.end()) return "";
  if (cluster.cluster_queues.count(lq->second.cluster_queue) == 0) return "";
  return lq->second.cluster_queue;
}

// ---------------------------------------------------------------------------------------------
// ClusterQueue ids and the listed queues

QueueId QueueManager::intern(const ClusterState& cluster, const std::string& cluster_queue) {
  const auto [it, added] = queue_ids_.try_emplace(cluster_queue, static_cast<QueueId>(queue_names_.size()));
  if (added) {
    queue_names_.push_back(cluster_queue);
    queues_.emplace_back();
    cohort_root_.push_back(cohort_root_of(cluster, cluster_queue));
  }
  return it->second;
}

std::string QueueManager::cohort_root_of(const ClusterState& cluster, const std::string& cluster_queue) {
  const auto cq = cluster.cluster_queues.find(cluster_queue);
  if (cq == cluster.cluster_queues.end()) return "";
  // Up the Cohort objects' parents (a cycle, which a scenario cannot load, stops after as many
  // steps as there are Cohorts).
  std::string root = cq->second.spec.cohort_name;
  for (std::size_t step = 0; !root.empty() && step < cluster.cohorts.size(); ++step) {
    const auto c = cluster.cohorts.find(root);
    if (c == cluster.cohorts.end() || c->second.spec.parent_name.empty()) break;
    root = c->second.spec.parent_name;
  }
  return root;
}

QueueId QueueManager::id_of(const std::string& cluster_queue) const {
  const auto it = queue_ids_.find(cluster_queue);
  return it == queue_ids_.end() ? kNoQueue : it->second;
}

const std::string& QueueManager::cluster_queue_name(QueueId id) const {
  static const std::string kNone;
  return id < queue_names_.size() ? queue_names_[id] : kNone;
}

QueueManager::PendingQueue* QueueManager::listed_queue(QueueId id) {
  return id < queues_.size() && queues_[id].listed ? &queues_[id] : nullptr;
}

const QueueManager::PendingQueue* QueueManager::listed_queue(QueueId id) const {
  return id < queues_.size() && queues_[id].listed ? &queues_[id] : nullptr;
}

QueueManager::PendingQueue& QueueManager::list(QueueId id) {
  PendingQueue& q = queues_[id];
  if (q.listed) return q;
  q.listed = true;
  const auto at = std::lower_bound(listed_names_.begin(), listed_names_.end(), queue_names_[id]);
  listed_ids_.insert(listed_ids_.begin() + (at - listed_names_.begin()), id);
  listed_names_.insert(at, queue_names_[id]);
  return q;
}

void QueueManager::unlist(QueueId id) {
  PendingQueue& q = queues_[id];
  if (!q.listed) return;
  q.listed = false;
  const auto at = std::lower_bound(listed_names_.begin(), listed_names_.end(), queue_names_[id]);
  listed_ids_.erase(listed_ids_.begin() + (at - listed_names_.begin()));
  listed_names_.erase(at);
}

void QueueManager::join_queued(PendingQueue& q, bool into_heap) {
  const uint8_t to = into_heap ? q.heap_at : q.heap_at ^ 1;
  const uint8_t from = to ^ 1;
  if (q.queued[from].empty()) return;
  if (q.queued[to].empty()) {  // the roles swap; no entry moves
    q.heap_at ^= 1;
    return;
  }
  // The smaller set's entries change sets (relinked, not copied); when that is the receiving one,
  // the roles swap after the join.
  const uint8_t small = q.queued[from].size() <= q.queued[to].size() ? from : to;
  const uint8_t large = small ^ 1;
  for (const auto& e : q.queued[small]) tracked_[e.ref.slot].bucket = large;
  q.queued[large].merge(q.queued[small]);
  q.queued[small].clear();  // merge leaves nothing behind: entries are distinct keys in one queue
  if (large != to) q.heap_at ^= 1;
}

// ---------------------------------------------------------------------------------------------
// Tracked Workloads

QueueManager::Tracked* QueueManager::find(const std::string& workload_key) {
  const WorkloadSlot* slot = slots_.find(workload_key);
  return slot == nullptr ? nullptr : &tracked_[*slot];
}

const QueueManager::Tracked* QueueManager::find(const std::string& workload_key) const {
  const WorkloadSlot* slot = slots_.find(workload_key);
  return slot == nullptr ? nullptr : &tracked_[*slot];
}

QueueManager::Place QueueManager::place(const Tracked& t) const {
  switch (t.where) {
    case Where::kQueued: return t.bucket == queues_[t.cluster_queue].heap_at ? Place::kHeap : Place::kInadmissible;
    case Where::kParked: return Place::kParked;
    case Where::kPopped: return Place::kPopped;
    case Where::kUnplaced: break;
  }
  return Place::kUnplaced;
}

std::optional<WorkloadRef> QueueManager::ref_of(const std::string& workload_key) const {
  const Tracked* t = find(workload_key);
  if (t == nullptr) return std::nullopt;
  return t->entry.ref;
}

void QueueManager::detach(Tracked& t) {
  if (t.cluster_queue == kNoQueue) return;
  PendingQueue& q = list(t.cluster_queue);
  if (t.where == Where::kQueued) q.queued[t.bucket].erase(t.entry);
  else if (t.where == Where::kParked) q.parked.erase(t.entry);
}

void QueueManager::set_where(Tracked& t, Where where) {
  if (t.where == Where::kPopped) popped_.erase(t.entry.key);
  if (t.where == Where::kUnplaced) unplaced_.erase(t.entry.key);
  t.where = where;
  if (where == Where::kPopped) popped_.insert(t.entry.key);
  if (where == Where::kUnplaced) unplaced_.insert(t.entry.key);
}

void QueueManager::attach(Tracked& t, Place place) {
  if (t.cluster_queue == kNoQueue) {
    set_where(t, Where::kUnplaced);
    return;
  }
  PendingQueue& q = list(t.cluster_queue);
  switch (place) {
    case Place::kHeap:
    case Place::kInadmissible:
      set_where(t, Where::kQueued);
      t.bucket = place == Place::kHeap ? q.heap_at : q.heap_at ^ 1;
      q.queued[t.bucket].insert(t.entry);
      break;
    case Place::kParked:
      set_where(t, Where::kParked);
      q.parked.insert(t.entry);
      break;
    case Place::kPopped: set_where(t, Where::kPopped); break;
    case Place::kUnplaced: set_where(t, Where::kUnplaced); break;
  }
}

void QueueManager::track(const ClusterState& cluster, const Workload& wl, Place place) {
  const std::string key = object_key(wl.metadata);
  const std::optional<WorkloadRef> before = ref_of(key);
  // Kueue copies the flavor-scan record into the rebuilt info when the scheduling shape matches.
  FlavorScan kept_scan;
  int64_t kept_scan_cycle = -1;
  std::shared_ptr<const WorkloadInfo> kept_info;
  if (before) {
    Tracked& old = tracked_[before->slot];
    kept_scan = std::move(old.scan);
    kept_scan_cycle = old.scan_cycle;
    kept_info = old.info;
    old.scan_cycle = -1;
  }
  remove(key);
  if (!wl.active || wl.finished() || wl.quota_reserved()) return;
  WorkloadSlot slot = kNoWorkloadSlot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();  // the slot `before` held, when there was one (last freed)
    free_slots_.pop_back();
  } else {
    slot = static_cast<WorkloadSlot>(tracked_.size());
    tracked_.emplace_back();
  }
  slots_.emplace(key, slot);
  Tracked& t = tracked_[slot];
  // Tracked again in place (a new spec, place or queue): the same Workload to whoever holds its
  // ref. A slot taken over from another Workload gets a new incarnation.
  const uint32_t incarnation = before ? before->incarnation : t.entry.ref.incarnation + 1;
  t.local_queue = local_queue_key(wl.metadata.namespace_, wl.queue_name);
  const std::string cluster_queue = resolve(cluster, t.local_queue);
  t.cluster_queue = cluster_queue.empty() ? kNoQueue : intern(cluster, cluster_queue);
  t.entry = queue_entry(wl);
  t.entry.ref = WorkloadRef{slot, incarnation};
  t.info = infos_.of(wl);
  const bool same_shape = kept_info != nullptr && kept_info == t.info;
  t.scan = same_shape ? std::move(kept_scan) : FlavorScan{};
  t.scan_cycle = same_shape ? kept_scan_cycle : -1;
  t.where = Where::kQueued;  // a fresh entry: in no index yet
  t.live = true;
  attach(t, place);
  LocalQueueMembers& members = by_local_queue_[t.local_queue];
  if (members.slots.empty()) {
    members.cluster_queue = cluster_queue;
    members.mixed = false;
  } else if (members.cluster_queue != cluster_queue) {
    members.mixed = true;
  }
  t.member_at = static_cast<uint32_t>(members.slots.size());
  members.slots.push_back(slot);
}

void QueueManager::add(const ClusterState& cluster, const Workload& wl) { track(cluster, wl, Place::kHeap); }

void QueueManager::park(const ClusterState& cluster, const Workload& wl) { track(cluster, wl, Place::kParked); }

void QueueManager::unpark(const std::string& workload_key) {
  Tracked* t = find(workload_key);
  if (t == nullptr || t->where != Where::kParked) return;
  detach(*t);
  attach(*t, Place::kHeap);
}

void QueueManager::release(WorkloadSlot slot) {
  Tracked& t = tracked_[slot];
  t.live = false;
  t.local_queue.clear();
  t.cluster_queue = kNoQueue;
  t.entry.key.clear();
  t.info.reset();
  t.scan = {};
  t.scan_cycle = -1;
  t.where = Where::kUnplaced;  // in no index: remove() took it out
  free_slots_.push_back(slot);
}

void QueueManager::remove(const std::string& workload_key) {
  const WorkloadSlot* found = slots_.find(workload_key);
  if (found == nullptr) return;
  const WorkloadSlot slot = *found;
  Tracked& t = tracked_[slot];
  detach(t);
  set_where(t, Where::kQueued);  // out of the popped and unplaced indexes
  const auto members = by_local_queue_.find(t.local_queue);
  if (members != by_local_queue_.end()) {
    std::vector<WorkloadSlot>& slots = members->second.slots;
    if (t.member_at < slots.size() && slots[t.member_at] == slot) {
      slots[t.member_at] = slots.back();  // the last member takes its place
      tracked_[slots.back()].member_at = t.member_at;
      slots.pop_back();
    }
    if (slots.empty()) by_local_queue_.erase(members);
  }
  slots_.erase(workload_key);
  release(slot);
}

void QueueManager::refresh(const ClusterState& cluster, bool queues_unchanged) {
  // Unchanged queues were all listed by the last refresh (only a gone queue is unlisted below), and
  // which of them the cluster holds is what that refresh found.
  if (!queues_unchanged) {
    in_cluster_.assign(queue_names_.size(), false);
    for (const auto& [name, cq] : cluster.cluster_queues) {
      const QueueId id = intern(cluster, name);
      list(id);
      if (id >= in_cluster_.size()) in_cluster_.resize(id + 1, false);
      in_cluster_[id] = true;
      cohort_root_[id] = cohort_root_of(cluster, name);  // its spec may have changed
    }
  }
  // Per LocalQueue: its Workloads move only when the ClusterQueue it resolves to changed; with
  // the queues unchanged, a LocalQueue whose members are not mixed resolves as when they were set.
  for (auto& [local_queue, members] : by_local_queue_) {
    if (queues_unchanged && !members.mixed) continue;
    const std::string cq = resolve(cluster, local_queue);
    if (!members.mixed && cq == members.cluster_queue) continue;
    const QueueId id = cq.empty() ? kNoQueue : intern(cluster, cq);
    for (const WorkloadSlot slot : members.slots) {
      Tracked& t = tracked_[slot];
      if (id == t.cluster_queue) continue;
      const Place keep = t.where == Where::kParked ? Place::kParked : Place::kHeap;
      detach(t);
      t.cluster_queue = id;
      attach(t, keep);
    }
    members.cluster_queue = cq;
    members.mixed = false;
  }
  // Forget queues that no longer exist and hold nothing.
  for (std::size_t i = 0; i < listed_ids_.size();) {
    const QueueId id = listed_ids_[i];
    if (queues_[id].empty() && (id >= in_cluster_.size() || !in_cluster_[id])) {
      observed_.erase(queue_names_[id]);
      unlist(id);
    } else {
      ++i;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The heads

void QueueManager::release_inadmissible(const std::string& cluster_queue) {
  if (!cluster_queue.empty()) {
    const QueueId id = id_of(cluster_queue);
    const std::string* root = id != kNoQueue && id < cohort_root_.size() && !cohort_root_[id].empty() ? &cohort_root_[id] : nullptr;
    if (root == nullptr) {
      if (PendingQueue* q = listed_queue(id)) join_queued(*q, /*into_heap=*/true);
      return;
    }
    for (const QueueId other : listed_ids_)
      if (other < cohort_root_.size() && cohort_root_[other] == *root) join_queued(queues_[other], /*into_heap=*/true);
    return;
  }
  for (const QueueId id : listed_ids_) join_queued(queues_[id], /*into_heap=*/true);
}

std::optional<QueueEntry> QueueManager::pop(const std::string& cluster_queue) { return pop(id_of(cluster_queue)); }

std::optional<QueueEntry> QueueManager::pop(QueueId cluster_queue) {
  PendingQueue* q = listed_queue(cluster_queue);
  if (q == nullptr || q->heap().empty()) return std::nullopt;
  auto node = q->heap().extract(q->heap().begin());
  set_where(tracked_[node.value().ref.slot], Where::kPopped);
  return std::move(node.value());
}

std::optional<QueueEntry> QueueManager::pop_by_usage(QueueId cluster_queue,
                                                     const std::function<double(const std::string&)>& usage) {
  PendingQueue* q = listed_queue(cluster_queue);
  if (q == nullptr || q->heap().empty()) return std::nullopt;
  // Each LocalQueue's usage once; Kueue's comparator: the lower usage first, else the heap order.
  std::map<std::string, double> seen;
  auto best = q->heap().end();
  double best_usage = 0;
  for (auto it = q->heap().begin(); it != q->heap().end(); ++it) {
    const std::string& lq = tracked_[it->ref.slot].local_queue;
    auto [at, fresh] = seen.try_emplace(lq, 0.0);
    if (!fresh) continue;  // a later entry of a LocalQueue already seen never comes first
    at->second = usage(lq);
    if (best == q->heap().end() || at->second < best_usage) {
      best = it;
      best_usage = at->second;
    }
  }
  auto node = q->heap().extract(best);
  set_where(tracked_[node.value().ref.slot], Where::kPopped);
  return std::move(node.value());
}

const QueueEntry* QueueManager::peek(const std::string& cluster_queue) const {
  const PendingQueue* q = listed_queue(id_of(cluster_queue));
  if (q == nullptr || q->heap().empty()) return nullptr;
  return &*q->heap().begin();
}

void QueueManager::requeue(const std::string& workload_key, bool inadmissible) {
  if (const Tracked* t = find(workload_key)) requeue(t->entry, inadmissible);
}

void QueueManager::requeue(const QueueEntry& popped, bool inadmissible) {
  if (popped.ref.slot >= tracked_.size()) return;
  Tracked& t = tracked_[popped.ref.slot];
  if (!t.live || t.entry.ref != popped.ref) return;  // removed since (its slot may hold another)
  if (t.where == Where::kQueued && t.cluster_queue != kNoQueue) {
    PendingQueue& q = list(t.cluster_queue);
    if (t.bucket == q.heap_at) {
      // A head left in the heap (an idle cycle): its entry moves between the sets as it is.
      if (auto entry = q.heap().extract(t.entry); !entry.empty()) {
        t.bucket = inadmissible ? q.heap_at ^ 1 : q.heap_at;
        q.queued[t.bucket].insert(std::move(entry));
        return;
      }
    }
  }
  detach(t);
  attach(t, inadmissible ? Place::kInadmissible : Place::kHeap);
}

const std::set<QueueEntry>& QueueManager::heap(const std::string& cluster_queue) const {
  return heap(id_of(cluster_queue));
}

const std::set<QueueEntry>& QueueManager::heap(QueueId cluster_queue) const {
  static const std::set<QueueEntry> kNone;
  const PendingQueue* q = listed_queue(cluster_queue);
  return q == nullptr ? kNone : q->heap();
}

void QueueManager::park_heads(const std::string& cluster_queue, std::size_t count) {
  park_heads(id_of(cluster_queue), count);
}

void QueueManager::park_heads(QueueId cluster_queue, std::size_t count) {
  PendingQueue* q = listed_queue(cluster_queue);
  if (q == nullptr) return;
  if (count >= q->heap().size()) {  // every head: the sets are joined, not moved entry by entry
    join_queued(*q, /*into_heap=*/false);
    return;
  }
  for (std::size_t i = 0; i < count && !q->heap().empty(); ++i) {
    auto entry = q->heap().extract(q->heap().begin());
    tracked_[entry.value().ref.slot].bucket = q->heap_at ^ 1;
    q->inadmissible().insert(std::move(entry));
  }
}

bool QueueManager::has_heads() const {
  for (const QueueId id : listed_ids_)
    if (!queues_[id].heap().empty()) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Counts and reports

int32_t QueueManager::pending(const std::string& cluster_queue) const {
  const QueueId id = id_of(cluster_queue);
  const PendingQueue* q = listed_queue(id);
  if (q == nullptr) return 0;
  int32_t popped = 0;
  for (const auto& key : popped_)
    if (find(key)->cluster_queue == id) ++popped;
  return static_cast<int32_t>(q->queued[0].size() + q->queued[1].size() + q->parked.size()) + popped;
}

std::map<std::string, int32_t> QueueManager::pending_by_queue() const {
  std::map<std::string, int32_t> out;
  for (std::size_t i = 0; i < listed_ids_.size(); ++i) {
    const PendingQueue& q = queues_[listed_ids_[i]];
    const auto n = static_cast<int32_t>(q.queued[0].size() + q.queued[1].size() + q.parked.size());
    if (n > 0) out[listed_names_[i]] = n;
  }
  for (const auto& key : popped_) {
    const Tracked& t = *find(key);
    if (listed_queue(t.cluster_queue) != nullptr) ++out[queue_names_[t.cluster_queue]];
  }
  return out;
}

int32_t QueueManager::inadmissible(const std::string& cluster_queue) const {
  const PendingQueue* q = listed_queue(id_of(cluster_queue));
  if (q == nullptr) return 0;
  return static_cast<int32_t>(q->inadmissible().size() + q->parked.size());
}

std::optional<QueueManager::Place> QueueManager::place_of(const std::string& workload_key) const {
  const Tracked* t = find(workload_key);
  if (t == nullptr) return std::nullopt;
  return place(*t);
}

std::string QueueManager::cluster_queue_of(const std::string& workload_key) const {
  const Tracked* t = find(workload_key);
  return t == nullptr ? "" : cluster_queue_name(t->cluster_queue);
}

const std::string& QueueManager::cluster_queue_of(WorkloadRef workload) const {
  return cluster_queue_name(cluster_queue_id_of(workload));
}

QueueId QueueManager::cluster_queue_id_of(WorkloadRef workload) const {
  if (workload.slot >= tracked_.size()) return kNoQueue;
  const Tracked& t = tracked_[workload.slot];
  return t.live && t.entry.ref == workload ? t.cluster_queue : kNoQueue;
}

const FlavorScan* QueueManager::scan_since(WorkloadRef workload, int64_t since) const {
  if (workload.slot >= tracked_.size()) return nullptr;
  const Tracked& t = tracked_[workload.slot];
  if (!t.live || !(t.entry.ref == workload) || t.scan_cycle < 0 || t.scan_cycle < since) return nullptr;
  return &t.scan;
}

void QueueManager::record_scan(WorkloadRef workload, FlavorScan scan, int64_t cycle) {
  if (workload.slot >= tracked_.size()) return;
  Tracked& t = tracked_[workload.slot];
  if (!t.live || !(t.entry.ref == workload)) return;
  const bool empty = scan.tried.empty();
  t.scan = std::move(scan);
  t.scan_cycle = empty ? -1 : cycle;
}

const WorkloadInfo* QueueManager::info(WorkloadRef workload) const {
  if (workload.slot >= tracked_.size()) return nullptr;
  const Tracked& t = tracked_[workload.slot];
  return t.live && t.entry.ref == workload ? t.info.get() : nullptr;
}

std::string QueueManager::info_mismatch(const WorkloadState& workloads) const {
  for (const WorkloadSlot slot : slots_in_key_order()) {
    const std::string& key = tracked_[slot].entry.key;
    const auto w = workloads.workloads.find(key);
    if (w == workloads.workloads.end()) continue;  // deleted behind the queues' back: never nominated
    if (tracked_[slot].info == nullptr || !(*tracked_[slot].info == workload_info(w->second)))
      return "Workload " + key + " has PodSets other than the ones it was tracked with";
  }
  return "";
}

std::vector<std::string> QueueManager::member_keys(const LocalQueueMembers& members) const {
  std::vector<std::string> out;
  out.reserve(members.slots.size());
  for (const WorkloadSlot slot : members.slots) out.push_back(tracked_[slot].entry.key);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<WorkloadSlot> QueueManager::slots_in_key_order() const {
  std::vector<WorkloadSlot> out;
  out.reserve(slots_.size());
  for (std::size_t i = 0; i < tracked_.size(); ++i)
    if (tracked_[i].live) out.push_back(static_cast<WorkloadSlot>(i));
  std::sort(out.begin(), out.end(),
            [&](WorkloadSlot a, WorkloadSlot b) { return tracked_[a].entry.key < tracked_[b].entry.key; });
  return out;
}

std::vector<std::string> QueueManager::heap_order(const std::string& cluster_queue) const {
  std::vector<std::string> out;
  for (const auto& e : heap(cluster_queue)) out.push_back(e.key);
  return out;
}

std::vector<std::pair<std::string, std::string>> QueueManager::unplaced() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& key : unplaced_) out.emplace_back(key, find(key)->local_queue);
  return out;
}

std::set<std::string> QueueManager::parked_keys() const {
  std::set<std::string> out;
  for (const QueueId id : listed_ids_)
    for (const auto& e : queues_[id].parked) out.insert(e.key);
  return out;
}

std::vector<std::string> QueueManager::waiting(const std::string& cluster_queue) const {
  std::vector<std::string> out;
  const QueueId id = id_of(cluster_queue);
  if (id == kNoQueue) return out;
  for (const WorkloadSlot slot : slots_in_key_order()) {
    const Tracked& t = tracked_[slot];
    if (t.cluster_queue == id && t.where != Where::kUnplaced) out.push_back(t.entry.key);
  }
  return out;
}

bool QueueManager::observe(const std::string& cluster_queue, const ClusterQueueSpec& spec, bool active,
                           bool terminating) {
  const auto it = observed_.find(cluster_queue);
  if (it != observed_.end() && it->second.active == active && it->second.terminating == terminating &&
      it->second.spec == spec)
    return false;
  observed_[cluster_queue] = Observed{spec, active, terminating};
  return true;
}

bool QueueManager::same_tracked(const Tracked& a, const QueueManager& other, const Tracked& b) const {
  return a.local_queue == b.local_queue && cluster_queue_name(a.cluster_queue) == other.cluster_queue_name(b.cluster_queue) &&
         a.entry == b.entry && place(a) == other.place(b);
}

bool QueueManager::operator==(const QueueManager& o) const {
  if (!(listed_names_ == o.listed_names_ && observed_ == o.observed_ && by_local_queue_.size() == o.by_local_queue_.size() &&
        popped_ == o.popped_ && unplaced_ == o.unplaced_ && slots_.size() == o.slots_.size() && afs_ == o.afs_))
    return false;
  for (auto a = by_local_queue_.begin(), b = o.by_local_queue_.begin(); a != by_local_queue_.end(); ++a, ++b)
    if (a->first != b->first || a->second.cluster_queue != b->second.cluster_queue ||
        a->second.mixed != b->second.mixed || member_keys(a->second) != o.member_keys(b->second))
      return false;
  for (std::size_t i = 0; i < listed_ids_.size(); ++i)
    if (!queues_[listed_ids_[i]].same_as(o.queues_[o.listed_ids_[i]])) return false;
  for (const Tracked& a : tracked_) {
    if (!a.live) continue;
    const WorkloadSlot* b = o.slots_.find(a.entry.key);
    if (b == nullptr || !same_tracked(a, o, o.tracked_[*b])) return false;
  }
  return true;
}

}  // namespace chaintwin::model
