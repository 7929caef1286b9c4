#include "model/kueue/scheduler/queue_manager.h"

#include <algorithm>

namespace chaintwin::model {

QueueEntry queue_entry(const Workload& wl) {
  return QueueEntry{wl.priority, std::max(wl.creation_time, wl.status.queue_order_time), object_key(wl.metadata)};
}

std::string QueueManager::resolve(const ClusterState& cluster, const std::string& local_queue) {
  const auto lq = cluster.local_queues.find(local_queue);
  if (lq == cluster.local_queues.end()) return "";
  if (cluster.cluster_queues.count(lq->second.cluster_queue) == 0) return "";
  return lq->second.cluster_queue;
}

void QueueManager::detach(Tracked& t) {
  if (t.cluster_queue.empty()) return;
  auto& q = queues_[t.cluster_queue];
  q.heap.erase(t.entry);
  q.inadmissible.erase(t.entry);
  q.parked.erase(t.entry);
}

void QueueManager::set_place(const std::string& key, Tracked& t, Place place) {
  if (t.place == Place::kPopped) popped_.erase(key);
  if (t.place == Place::kUnplaced) unplaced_.erase(key);
  t.place = place;
  if (place == Place::kPopped) popped_.insert(key);
  if (place == Place::kUnplaced) unplaced_.insert(key);
}

void QueueManager::attach(const std::string& key, Tracked& t, Place place) {
  if (t.cluster_queue.empty()) {
    set_place(key, t, Place::kUnplaced);
    return;
  }
  auto& q = queues_[t.cluster_queue];
  set_place(key, t, place);
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
  remove(key);
  if (!wl.active || wl.finished() || wl.quota_reserved()) return;
  Tracked& t = workloads_[key];
  t.local_queue = local_queue_key(wl.metadata.namespace_, wl.queue_name);
  t.cluster_queue = resolve(cluster, t.local_queue);
  t.entry = queue_entry(wl);
  t.place = Place::kHeap;  // a fresh entry: in no index yet
  attach(key, t, place);
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
  const auto it = workloads_.find(workload_key);
  if (it == workloads_.end() || it->second.place != Place::kParked) return;
  detach(it->second);
  attach(it->first, it->second, Place::kHeap);
}

void QueueManager::remove(const std::string& workload_key) {
  const auto it = workloads_.find(workload_key);
  if (it == workloads_.end()) return;
  detach(it->second);
  set_place(workload_key, it->second, Place::kHeap);  // out of the popped and unplaced indexes
  const auto members = by_local_queue_.find(it->second.local_queue);
  if (members != by_local_queue_.end()) {
    members->second.keys.erase(workload_key);
    if (members->second.keys.empty()) by_local_queue_.erase(members);
  }
  workloads_.erase(it);
}

void QueueManager::refresh(const ClusterState& cluster) {
  for (const auto& [name, cq] : cluster.cluster_queues) queues_[name];
  // Per LocalQueue: its Workloads move only when the ClusterQueue it resolves to changed.
  for (auto& [local_queue, members] : by_local_queue_) {
    const std::string cq = resolve(cluster, local_queue);
    if (!members.mixed && cq == members.cluster_queue) continue;
    for (const auto& key : members.keys) {
      Tracked& t = workloads_.at(key);
      if (cq == t.cluster_queue) continue;
      const Place keep = t.place == Place::kParked ? Place::kParked : Place::kHeap;
      detach(t);
      t.cluster_queue = cq;
      attach(key, t, keep);
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
    for (const auto& e : q.inadmissible) workloads_.at(e.key).place = Place::kHeap;  // in neither index
    q.heap.merge(q.inadmissible);  // moves the entries, no copies
    q.inadmissible.clear();
  }
}

std::optional<QueueEntry> QueueManager::pop(const std::string& cluster_queue) {
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end() || it->second.heap.empty()) return std::nullopt;
  QueueEntry head = *it->second.heap.begin();
  it->second.heap.erase(it->second.heap.begin());
  set_place(head.key, workloads_.at(head.key), Place::kPopped);
  return head;
}

const QueueEntry* QueueManager::peek(const std::string& cluster_queue) const {
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end() || it->second.heap.empty()) return nullptr;
  return &*it->second.heap.begin();
}

void QueueManager::requeue(const std::string& workload_key, bool inadmissible) {
  const auto it = workloads_.find(workload_key);
  if (it == workloads_.end()) return;
  Tracked& t = it->second;
  if (t.place == Place::kHeap && !t.cluster_queue.empty()) {
    // A head left in the heap (an idle cycle): its entry moves between the sets as it is.
    PendingQueue& q = queues_[t.cluster_queue];
    if (auto entry = q.heap.extract(t.entry); !entry.empty()) {
      (inadmissible ? q.inadmissible : q.heap).insert(std::move(entry));
      set_place(workload_key, t, inadmissible ? Place::kInadmissible : Place::kHeap);
      return;
    }
  }
  detach(it->second);
  attach(it->first, it->second, inadmissible ? Place::kInadmissible : Place::kHeap);
}

std::size_t QueueManager::walk_heap(const std::string& cluster_queue, std::size_t limit,
                                   const std::function<bool(const QueueEntry&)>& visit) const {
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end()) return 0;
  std::size_t n = 0;
  for (auto e = it->second.heap.begin(); e != it->second.heap.end() && n < limit; ++e) {
    ++n;
    if (!visit(*e)) break;
  }
  return n;
}

std::size_t QueueManager::heap_size(const std::string& cluster_queue) const {
  const auto it = queues_.find(cluster_queue);
  return it == queues_.end() ? 0 : it->second.heap.size();
}

void QueueManager::park_heads(const std::string& cluster_queue, std::size_t count) {
  const auto it = queues_.find(cluster_queue);
  if (it == queues_.end()) return;
  PendingQueue& q = it->second;
  for (std::size_t i = 0; i < count && !q.heap.empty(); ++i) {
    auto entry = q.heap.extract(q.heap.begin());
    set_place(entry.value().key, workloads_.at(entry.value().key), Place::kInadmissible);
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
    if (workloads_.at(key).cluster_queue == cluster_queue) ++popped;
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
    const Tracked& t = workloads_.at(key);
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
  const auto it = workloads_.find(workload_key);
  if (it == workloads_.end()) return std::nullopt;
  return it->second.place;
}

std::string QueueManager::cluster_queue_of(const std::string& workload_key) const {
  const auto it = workloads_.find(workload_key);
  return it == workloads_.end() ? "" : it->second.cluster_queue;
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
  for (const auto& key : unplaced_) out.emplace_back(key, workloads_.at(key).local_queue);
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
  for (const auto& [key, t] : workloads_)
    if (t.cluster_queue == cluster_queue && t.place != Place::kUnplaced) out.push_back(key);
  return out;
}

bool QueueManager::observe(const std::string& cluster_queue, const Observed& now) {
  const auto it = observed_.find(cluster_queue);
  const bool changed = it == observed_.end() || !(it->second == now);
  observed_[cluster_queue] = now;
  return changed;
}

}  // namespace chaintwin::model
