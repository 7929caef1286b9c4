#include "sim/runner/kueue_cache.h"

#include "model/kueue/scheduler/non_tas_usage.h"
#include "model/stage3/fit_labels.h"
#include "sim/runner/bucket_index.h"

namespace chaintwin::sim {

KueueCache::KueueCache() { tas_leaves_.set_volatile_labels(&model::is_fit_label_key); }

void KueueCache::set_verify(bool verify) {
  memo_.verify = verify;
  tas_leaves_.verify = verify;
}

std::string KueueCache::prepare(const model::ClusterState& cluster, const model::WorkloadState& workloads,
                                const model::QueueManager& queues, bool check) {
  if (!tas_nodes_ || tas_nodes_stale_) {
    model::TasNodeIndex fresh = model::build_tas_node_index(cluster);
    if (!tas_nodes_ || fresh != *tas_nodes_) {
      // Which Nodes a TAS flavor places on changed: every remembered verdict may have.
      kueue_objects_changed();
      node_flavors_.clear();
      for (const auto& [flavor, names] : fresh) {
        const uint32_t memo_flavor = memo_.flavor_index(flavor);
        for (const auto& name : names) node_flavors_.try_emplace(name).first->push_back(memo_flavor);
      }
      tas_nodes_ = std::move(fresh);
      tas_leaves_.index_nodes(*tas_nodes_);
    }
    tas_nodes_stale_ = false;
  }
  if (check && *tas_nodes_ != model::build_tas_node_index(cluster))
    return "the kept TAS node index differs from the cluster's";
  if (!quota_tree_) quota_tree_ = model::QuotaTree::build(cluster);
  if (check && !(*quota_tree_ == model::QuotaTree::build(cluster))) return "the kept cohort quota tree differs from the cluster's";
  const std::set<std::string>& active = active_queues(cluster);  // derived when it was dropped
  if (check && active != model::active_cluster_queues(cluster))
    return "the kept active ClusterQueues differ from the cluster's";
  if (!reserved_) {
    reserved_ = model::build_usage_snapshot(workloads);
    ++reserved_generation_;  // a snapshot no Held has cells of
  }
  if (check && !model::same_usage(*reserved_, model::build_usage_snapshot(workloads)))
    return "the kept usage snapshot differs from the Workloads'";
  if (check) {
    if (std::string stale = model::remembered_heads_mismatch(workloads, queues, memo_); !stale.empty())
      return "a remembered nomination no longer matches its Workload: " + stale;
    if (std::string stale = queues.info_mismatch(workloads); !stale.empty())
      return "a queued Workload's kept requests are stale: " + stale;
  }
  return "";
}

const std::set<std::string>& KueueCache::active_queues(const model::ClusterState& cluster) {
  if (!active_queues_) active_queues_ = model::active_cluster_queues(cluster);
  return *active_queues_;
}

model::KeptCycleState KueueCache::for_cycle() {
  return {&*tas_nodes_, &*reserved_, &memo_, &*active_queues_, &tas_leaves_, &reserving_by_queue_, &*quota_tree_};
}

std::optional<model::KeptCycleState> KueueCache::for_idle_cycles() {
  if (!tas_nodes_ || !reserved_ || !active_queues_) return std::nullopt;
  return model::KeptCycleState{&*tas_nodes_, &*reserved_, &memo_, &*active_queues_};
}

std::string KueueCache::stale_answer() const {
  if (!memo_.mismatch().empty()) return "a remembered nomination is stale: " + memo_.mismatch();
  if (!tas_leaves_.mismatch().empty()) return "a kept TAS Node verdict is stale: " + tas_leaves_.mismatch();
  return "";
}

std::string KueueCache::check_queue_totals(const model::ClusterState& cluster, const model::WorkloadState& workloads,
                                           const model::QueueManager& queues) const {
  if (model::cluster_queue_usage(cluster, queue_totals_, queues) != model::cluster_queue_usage(cluster, workloads, queues))
    return "the kept queue totals differ from the Workloads'";
  return "";
}

std::optional<std::set<std::string>> KueueCache::take_moved_totals() {
  std::optional<std::set<std::string>> out;
  if (!totals_rebuilt_) out = std::move(totals_moved_);
  totals_moved_.clear();
  totals_rebuilt_ = false;
  return out;
}

void KueueCache::kueue_objects_changed() {
  ++kueue_epoch_;
  memo_.invalidate_all();
  tas_leaves_.clear();
  active_queues_.reset();
  quota_tree_.reset();
}

void KueueCache::chain_resynced() {
  ++kueue_epoch_;
  tas_nodes_stale_ = true;
  active_queues_.reset();
  quota_tree_.reset();
}

void KueueCache::node_changed(const std::string& node, model::NodeChange what) {
  const std::vector<uint32_t>* flavors = node_flavors_.find(node);
  if (flavors == nullptr) return;  // in no TAS flavor (a change of membership rebuilds the index)
  for (const uint32_t f : *flavors) memo_.invalidate_flavor(f);
  tas_leaves_.node_changed(std::string_view(node), what);
}

void KueueCache::note_non_tas_usage(const model::Pod& pod, int sign) {
  if (!model::counts_as_non_tas_usage(pod)) return;
  if (reserved_) model::add_non_tas_pod_usage(*reserved_, pod, sign);
  node_changed(pod.node_name, model::NodeChange::kRoom);
}

void KueueCache::usage_dropped() { drop_reserved(); }

void KueueCache::drop_reserved() {
  reserved_.reset();
  ++reserved_generation_;
}

KueueCache::Held& KueueCache::held(WorkloadId id) {
  if (id.slot >= held_.size()) held_.resize(id.slot + 1);
  return held_[id.slot];
}

void KueueCache::reservation_moved(const model::WorkloadState& workloads, const std::string& key,
                                   const std::string& cluster_queue, std::optional<WorkloadId> id) {
  move_reservation(workloads, key, cluster_queue, id, true);
}

void KueueCache::reservation_changed(const model::WorkloadState& workloads, const std::string& key,
                                     const std::string& cluster_queue, std::optional<WorkloadId> id) {
  sync_usage(workloads, key, id);
  move_reservation(workloads, key, cluster_queue, id, /*skip_unmoved=*/true);
}

void KueueCache::move_reservation(const model::WorkloadState& workloads, const std::string& key,
                                  const std::string& cluster_queue, std::optional<WorkloadId> id,
                                  bool skip_unmoved) {
  if (!cluster_queue.empty()) memo_.invalidate_cluster_queue(cluster_queue);
  const auto w = workloads.workloads.find(key);
  if (w != workloads.workloads.end() && w->second.status.admission)
    memo_.invalidate_cluster_queue(w->second.status.admission->cluster_queue);
  // The same reservation as at the last call for this record: the same Nodes, the same usage there.
  if (skip_unmoved && id) {
    const Held& h = held(*id);
    if (h.nodes_read && h.key == key) return;
  }
  std::set<std::string> now_on;
  if (w != workloads.workloads.end() && w->second.status.admission) {
    for (const auto& psa : w->second.status.admission->pod_set_assignments)
      if (psa.topology_assignment)
        for (const auto& d : psa.topology_assignment->domains) {
          const auto& ta = *psa.topology_assignment;
          // The hostname, as Gate 3 reads it (the last value when the last level is the hostname).
          if (ta.levels.empty() || ta.levels.back() != model::kHostnameLabel || d.values.empty()) {
            kueue_objects_changed();  // a domain above the hostname level: no single Node to name
            continue;
          }
          now_on.insert(d.values.back());
        }
  }
  if (id) {
    Held& h = held(*id);
    if (h.key != key) h.key = key;
    for (const auto& n : h.reserved_nodes) {
      node_changed(n, model::NodeChange::kRoom);
      if (!h.pods_allocated) remove_slot(allocating_on_node_, n, id->slot);
    }
    for (const auto& n : now_on) add_slot(allocating_on_node_, n, id->slot);
    h.reserved_nodes = now_on;
    h.pods_allocated = false;  // a new assignment: its Pods are not known to hold anything
    h.nodes_read = true;
  } else {
    kueue_objects_changed();  // no record of where it was: be safe
  }
  for (const auto& n : now_on) node_changed(n, model::NodeChange::kRoom);
}

const model::Workload* KueueCache::holding(const model::WorkloadState& workloads, const std::string& key) {
  const auto w = workloads.workloads.find(key);
  if (w == workloads.workloads.end() || !w->second.status.admission || w->second.finished()) return nullptr;
  return &w->second;
}

void KueueCache::uncount_totals(Held& held, const std::string& key, bool stays_reserving) {
  if (!held.in_totals) return;
  if (held.totals_generation == totals_generation_) held.totals.take_out();
  else model::add_queue_totals(queue_totals_, *held.admission, held.totals_admitted, -1);  // counted by a rebuild
  held.totals = {};
  totals_moved_.insert(held.admission->cluster_queue);
  if (!stays_reserving) erase_from(reserving_by_queue_, held.admission->cluster_queue, key);
  held.in_totals = false;
  held.totals_admitted = false;
}

void KueueCache::count_totals(Held& held, const std::string& key, const model::Admission& admission, bool admitted,
                              bool listed_reserving) {
  held.totals = model::charge_queue_totals(queue_totals_, admission, admitted);
  held.totals_generation = totals_generation_;
  totals_moved_.insert(admission.cluster_queue);
  if (!listed_reserving) reserving_by_queue_[admission.cluster_queue].insert(key);
  held.in_totals = true;
  held.totals_admitted = admitted;
}

void KueueCache::take_usage_out(Held& held) {
  if (held.usage_generation == reserved_generation_) held.usage_cells.apply(-1);
  else model::add_workload_usage(*reserved_, *held.usage, -1);  // counted by a rebuild
  held.usage_cells = {};
}

void KueueCache::sync_usage(const model::WorkloadState& workloads, const std::string& key,
                            std::optional<WorkloadId> id) {
  if (!id) {
    drop_reserved();  // not tracked: rebuilt at the next cycle
    queue_totals_ = model::build_queue_totals(workloads);
    ++totals_generation_;
    totals_rebuilt_ = true;
    reserving_by_queue_.clear();
    workloads.workloads.each_unordered([&](const std::string& k, const model::Workload& wl) {  // sets
      if (wl.status.admission && !wl.finished()) reserving_by_queue_[wl.status.admission->cluster_queue].insert(k);
    });
    return;
  }
  Held& held = KueueCache::held(*id);
  // Compared in place, copied only when something moved (most calls are a check's state or a
  // Pod's start, which move nothing here).
  const model::Workload* holding = KueueCache::holding(workloads, key);
  const bool admitted = holding != nullptr && holding->admitted();
  const model::Admission* admission = holding != nullptr ? &*holding->status.admission : nullptr;
  const bool same_admission = admission == nullptr ? !held.admission : held.admission && *held.admission == *admission;
  if (!same_admission || held.in_totals != (admission != nullptr) || held.totals_admitted != admitted) {
    // Still reserving in the same ClusterQueue (admitted now, say): its key stays listed there.
    const bool same_queue =
        held.in_totals && admission != nullptr && held.admission->cluster_queue == admission->cluster_queue;
    uncount_totals(held, key, same_queue);
    if (admission != nullptr) count_totals(held, key, *admission, admitted, same_queue);
  }
  // The snapshot already holds what a cycle admitted (admitted_by_cycle recorded it first).
  const bool same_usage = admission == nullptr ? !held.usage : held.usage && same_admission;
  if (!same_usage) {
    std::optional<model::WorkloadUsage> now;
    if (holding != nullptr) now = model::workload_usage(*holding);
    if (reserved_) {
      if (held.usage) take_usage_out(held);
      if (now) {
        held.usage_cells = model::charge_workload_usage(*reserved_, *now);
        held.usage_generation = reserved_generation_;
      }
    } else {
      held.usage_cells = {};  // the snapshot built next counts it
    }
    held.usage = std::move(now);
  }
  if (!same_admission) {
    if (admission != nullptr) held.admission = *admission;
    else held.admission.reset();
    held.nodes_read = false;
  }
}

void KueueCache::admitted_by_cycle(const model::WorkloadState& workloads, WorkloadId id, const std::string& key,
                                   model::WorkloadUsage usage, model::CellCharges cells) {
  Held& held = KueueCache::held(id);
  const model::Workload* wl = holding(workloads, key);
  const bool same_admission = wl != nullptr && held.admission && *held.admission == *wl->status.admission;
  // The totals count one admission, the one kept: ones they count under another come out first
  // (sync_usage adds them back under the new one).
  if (!same_admission) uncount_totals(held, key);
  held.usage_cells = {};
  if (wl == nullptr) {
    held.usage.reset();
    held.admission.reset();
    held.nodes_read = false;
    return;
  }
  held.usage = std::move(usage);
  held.usage_cells = std::move(cells);
  held.usage_generation = reserved_ ? reserved_generation_ : 0;
  if (!same_admission) {
    held.admission = *wl->status.admission;
    held.nodes_read = false;
  }
}

void KueueCache::forget(WorkloadId id, std::optional<model::WorkloadRef> ref) {
  if (ref) memo_.forget(*ref);
  if (id.slot >= held_.size()) return;
  // The slot goes to another Workload next: no index may name it for this one.
  Held& h = held_[id.slot];
  if (!h.pods_allocated)
    for (const auto& n : h.reserved_nodes) remove_slot(allocating_on_node_, n, id.slot);
  h = Held{};
}

std::set<std::string> KueueCache::reserving_beside(WorkloadId id) const {
  std::set<std::string> out;
  if (id.slot >= held_.size()) return out;
  for (const auto& n : held_[id.slot].reserved_nodes)
    if (const std::vector<uint32_t>* on = allocating_on_node_.find(n))
      for (const uint32_t slot : *on) out.insert(held_[slot].key);
  return out;
}

void KueueCache::pods_allocated(WorkloadId id) {
  if (id.slot >= held_.size() || held_[id.slot].pods_allocated) return;
  Held& h = held_[id.slot];
  h.pods_allocated = true;
  for (const auto& n : h.reserved_nodes) remove_slot(allocating_on_node_, n, id.slot);
}

void KueueCache::pods_released(WorkloadId id) {
  if (id.slot >= held_.size() || !held_[id.slot].pods_allocated) return;
  Held& h = held_[id.slot];
  h.pods_allocated = false;
  for (const auto& n : h.reserved_nodes) add_slot(allocating_on_node_, n, id.slot);
}

}  // namespace chaintwin::sim
