#include "model/kueue/scheduler/queue_manager.h"

#include <algorithm>

namespace chaintwin::model {

namespace {

// Moves every entry of `from` into `to` (relinked, not copied): the smaller set goes into the
// larger one, which then ends up in `to`; `from` is left empty. Releasing an inadmissible set into
// an empty heap, or parking every head, is then a swap.
void move_all(std::set<QueueEntry>& from, std::set<QueueEntry>& to) {
  if (from.size() > to.size()) from.swap(to);
  to.merge(from);
  from.clear();  // merge leaves nothing behind: entries are distinct keys in one queue
}

}  // namespace

QueueEntry queue_entry(const Workload& wl) {
  return QueueEntry{wl.priority, std::max(wl.creation_time, wl.status.queue_order_time), object_key(wl.metadata), {}};
}

std::string QueueManager::resolve(const ClusterState& cluster, const std::string& local_queue) {
  const auto lq = cluster.local_queues.find(local_queue);
  if (lq == cluster.local_queues.end()) return "";
  if (cluster.cluster_queues.count(lq->second.cluster_queue) == 0) return "";
  return lq->second.cluster_queue;
}

QueueManager::Tracked* QueueManager::find(const std::string& workload_key) {
  const auto it = slots_.find(workload_key);
  return it == slots_.end() ? nullptr : &tracked_[it->second];
}

const QueueManager::Tracked* QueueManager::find(const std::string& workload_key) const {
  const auto it = slots_.find(workload_key);
  return it == slots_.end() ? nullptr : &tracked_[it->second];
}

std::optional<WorkloadRef> QueueManager::ref_of(const std::string& workload_key) const {
  const Tracked* t = find(workload_key);
  if (t == nullptr) return std::nullopt;
  return t->entry.ref;
}

void QueueManager::detach(Tracked& t) {
  if (t.cluster_queue.empty()) return;
  auto& q = queues_[t.cluster_queue];
  q.heap.erase(t.entry);
  q.inadmissible.erase(t.entry);
  q.parked.erase(t.entry);
}

void QueueManager::set_place(Tracked& t, Place place) {
  if (t.place == Place::kPopped) popped_.erase(t.entry.key);
  if (t.place == Place::kUnplaced) unplaced_.erase(t.entry.key);
  t.place = place;
  if (place == Place::kPopped) popped_.insert(t.entry.key);
  if (place == Place::kUnplaced) unplaced_.insert(t.entry.key);
}

void QueueManager::attach(Tracked& t, Place place) {
  if (t.cluster_queue.empty()) {
    set_place(t, Place::kUnplaced);
    return;
  }
  auto& q = queues_[t.cluster_queue];
  set_place(t, place);
  switch (place) {
    case Place::kHeap: q.heap.insert(t.entry); break;
    case Place::kInadmissible: q.inadmissible.insert(t.entry); break;
    case Place::kParked: q.parked.insert(t.entry); break;
    case Place::kPopped:
    case Place::kUnplaced: break;
  }
}

void QueueManager::track(const ClusterState& cluster, const Workload& wl, Place place) {
  const std::string key = object_key(wl.metadata);
  const std::optional<WorkloadRef> before = ref_of(key);
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
  t.cluster_queue = resolve(cluster, t.local_queue);
  t.entry = queue_entry(wl);
  t.entry.ref = WorkloadRef{slot, incarnation};
  t.info = workload_info(wl);
  t.place = Place::kHeap;  // a fresh entry: in no index yet
  t.live = true;
  attach(t, place);
  LocalQueueMembers& members = by_local_queue_[t.local_queue];
  if (members.keys.empty()) {
    members.cluster_queue = t.cluster_queue;
    members.mixed = false;
  } else if (members.cluster_queue != t.cluster_queue) {
    members.mixed = true;
  }
  members.keys.insert(key);
}

void QueueManager::add(const ClusterState& cluster, const Workload& wl) { track(cluster, wl, Place::kHeap); }

void QueueManager::park(const ClusterState& cluster, const Workload& wl) { track(cluster, wl, Place::kParked); }

void QueueManager::unpark(const std::string& workload_key) {
  Tracked* t = find(workload_key);
  if (t == nullptr || t->place != Place::kParked) return;
  detach(*t);
  attach(*t, Place::kHeap);
}

void QueueManager::release(WorkloadSlot slot) {
  Tracked& t = tracked_[slot];
  t.live = false;
  t.local_queue.clear();
  t.cluster_queue.clear();
  t.entry.key.clear();
  t.info = {};
  t.place = Place::kUnplaced;
  free_slots_.push_back(slot);
}

void QueueManager::remove(const std::string& workload_key) {
  const auto it = slots_.find(workload_key);
  if (it == slots_.end()) return;
  const WorkloadSlot slot = it->second;
  Tracked& t = tracked_[slot];
  detach(t);
  set_place(t, Place::kHeap);  // out of the popped and unplaced indexes
  const auto members = by_local_queue_.find(t.local_queue);
  if (members != by_local_queue_.end()) {
    members->second.keys.erase(workload_key);
    if (members->second.keys.empty()) by_local_queue_.erase(members);
  }
  slots_.erase(it);
  release(slot);
}

void QueueManager::refresh(const ClusterState& cluster) {
  for (const auto& [name, cq] : cluster.cluster_queues) queues_[name];
  // Per LocalQueue: its Workloads move only when the ClusterQueue it resolves to changed.
  for (auto& [local_queue, members] : by_local_queue_) {
    const std::string cq = resolve(cluster, local_queue);
    if (!members.mixed && cq == members.cluster_queue) continue;
    for (const auto& key : members.keys) {
      Tracked& t = tracked_[slots_.at(key)];
      if (cq == t.cluster_queue) continue;
      const Place keep = t.place == Place::kParked ? Place::kParked : Place::kHeap;
      detach(t);
      t.cluster_queue = cq;
      attach(t, keep);
    }
    members.cluster_queue = cq;
    members.mixed = false;
  }
  // Forget queues that no longer exist and hold nothing.
  for (auto it = queues_.begin(); it != queues_.end();) {
    const auto& q = it->second;
    const bool empty = q.heap.empty() && q.inadmissible.empty() && q.parked.empty();
    if (empty && cluster.cluster_queues.count(it->first) == 0) {
      observed_.erase(it->first);
      it = queues_.erase(it);
    } else {
      ++it;
    }
  }
}

void QueueManager::release_inadmissible(const std::string& cluster_queue) {
  for (auto& [name, q] : queues_) {
    if (!cluster_queue.empty() && name != cluster_queue) continue;
    for (const auto& e : q.inadmissible) tracked_[e.ref.slot].place = Place::kHeap;  // in neither index
    move_all(q.inadmissible, q.heap);
  }
}

std::optional<QueueEntry> QueueManager::pop(const std::string& cluster_queue) {
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end() || it->second.heap.empty()) return std::nullopt;
  QueueEntry head = *it->second.heap.begin();
  it->second.heap.erase(it->second.heap.begin());
  set_place(tracked_[head.ref.slot], Place::kPopped);
  return head;
}

const QueueEntry* QueueManager::peek(const std::string& cluster_queue) const {
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end() || it->second.heap.empty()) return nullptr;
  return &*it->second.heap.begin();
}

void QueueManager::requeue(const std::string& workload_key, bool inadmissible) {
  if (const Tracked* t = find(workload_key)) requeue(t->entry, inadmissible);
}

void QueueManager::requeue(const QueueEntry& popped, bool inadmissible) {
  if (popped.ref.slot >= tracked_.size()) return;
  Tracked& t = tracked_[popped.ref.slot];
  if (!t.live || t.entry.ref != popped.ref) return;  // removed since (its slot may hold another)
  if (t.place == Place::kHeap && !t.cluster_queue.empty()) {
    // A head left in the heap (an idle cycle): its entry moves between the sets as it is.
    PendingQueue& q = queues_[t.cluster_queue];
    if (auto entry = q.heap.extract(t.entry); !entry.empty()) {
      (inadmissible ? q.inadmissible : q.heap).insert(std::move(entry));
      set_place(t, inadmissible ? Place::kInadmissible : Place::kHeap);
      return;
    }
  }
  detach(t);
  attach(t, inadmissible ? Place::kInadmissible : Place::kHeap);
}

const std::set<QueueEntry>& QueueManager::heap(const std::string& cluster_queue) const {
  static const std::set<QueueEntry> kNone;
  const auto it = queues_.find(cluster_queue);
  return it == queues_.end() ? kNone : it->second.heap;
}

void QueueManager::park_heads(const std::string& cluster_queue, std::size_t count) {
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end()) return;
  PendingQueue& q = it->second;
  if (count >= q.heap.size()) {  // every head: the sets are joined, not moved entry by entry
    for (const auto& e : q.heap) set_place(tracked_[e.ref.slot], Place::kInadmissible);
    move_all(q.heap, q.inadmissible);
    return;
  }
  for (std::size_t i = 0; i < count && !q.heap.empty(); ++i) {
    auto entry = q.heap.extract(q.heap.begin());
    set_place(tracked_[entry.value().ref.slot], Place::kInadmissible);
    q.inadmissible.insert(std::move(entry));
  }
}

bool QueueManager::has_heads() const {
  for (const auto& [name, q] : queues_)
    if (!q.heap.empty()) return true;
  return false;
}

int32_t QueueManager::pending(const std::string& cluster_queue) const {
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end()) return 0;
  int32_t popped = 0;
  for (const auto& key : popped_)
    if (find(key)->cluster_queue == cluster_queue) ++popped;
  return static_cast<int32_t>(it->second.heap.size() + it->second.inadmissible.size() + it->second.parked.size()) +
         popped;
}

std::map<std::string, int32_t> QueueManager::pending_by_queue() const {
  std::map<std::string, int32_t> out;
  for (const auto& [name, q] : queues_) {
    const auto n = static_cast<int32_t>(q.heap.size() + q.inadmissible.size() + q.parked.size());
    if (n > 0) out[name] = n;
  }
  for (const auto& key : popped_) {
    const Tracked& t = *find(key);
    if (queues_.count(t.cluster_queue) != 0) ++out[t.cluster_queue];
  }
  return out;
}

int32_t QueueManager::inadmissible(const std::string& cluster_queue) const {
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end()) return 0;
  return static_cast<int32_t>(it->second.inadmissible.size() + it->second.parked.size());
}

std::vector<std::string> QueueManager::cluster_queues() const {
  std::vector<std::string> out;
  for (const auto& [name, q] : queues_) out.push_back(name);
  return out;
}

std::optional<QueueManager::Place> QueueManager::place_of(const std::string& workload_key) const {
  const Tracked* t = find(workload_key);
  if (t == nullptr) return std::nullopt;
  return t->place;
}

std::string QueueManager::cluster_queue_of(const std::string& workload_key) const {
  const Tracked* t = find(workload_key);
  return t == nullptr ? "" : t->cluster_queue;
}

const std::string& QueueManager::cluster_queue_of(WorkloadRef workload) const {
  static const std::string kNone;
  if (workload.slot >= tracked_.size()) return kNone;
  const Tracked& t = tracked_[workload.slot];
  return t.live && t.entry.ref == workload ? t.cluster_queue : kNone;
}

const WorkloadInfo* QueueManager::info(WorkloadRef workload) const {
  if (workload.slot >= tracked_.size()) return nullptr;
  const Tracked& t = tracked_[workload.slot];
  return t.live && t.entry.ref == workload ? &t.info : nullptr;
}

std::string QueueManager::info_mismatch(const WorkloadState& workloads) const {
  for (const auto& [key, slot] : slots_) {
    const auto w = workloads.workloads.find(key);
    if (w == workloads.workloads.end()) continue;  // deleted behind the queues' back: never nominated
    if (!(tracked_[slot].info == workload_info(w->second)))
      return "Workload " + key + " has PodSets other than the ones it was tracked with";
  }
  return "";
}

std::vector<std::string> QueueManager::heap_order(const std::string& cluster_queue) const {
  std::vector<std::string> out;
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end()) return out;
  for (const auto& e : it->second.heap) out.push_back(e.key);
  return out;
}

std::vector<std::pair<std::string, std::string>> QueueManager::unplaced() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& key : unplaced_) out.emplace_back(key, find(key)->local_queue);
  return out;
}

std::set<std::string> QueueManager::parked_keys() const {
  std::set<std::string> out;
  for (const auto& [name, q] : queues_)
    for (const auto& e : q.parked) out.insert(e.key);
  return out;
}

std::vector<std::string> QueueManager::waiting(const std::string& cluster_queue) const {
  std::vector<std::string> out;
  for (const auto& [key, slot] : slots_) {
    const Tracked& t = tracked_[slot];
    if (t.cluster_queue == cluster_queue && t.place != Place::kUnplaced) out.push_back(key);
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

bool QueueManager::operator==(const QueueManager& o) const {
  if (!(queues_ == o.queues_ && observed_ == o.observed_ && by_local_queue_ == o.by_local_queue_ &&
        popped_ == o.popped_ && unplaced_ == o.unplaced_ && slots_.size() == o.slots_.size()))
    return false;
  for (auto a = slots_.begin(), b = o.slots_.begin(); a != slots_.end(); ++a, ++b)
    if (a->first != b->first || !tracked_[a->second].same_as(o.tracked_[b->second])) return false;
  return true;
}

}  // namespace chaintwin::model
