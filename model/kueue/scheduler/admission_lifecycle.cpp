#include "model/kueue/scheduler/admission_lifecycle.h"

#include <algorithm>

#include "model/kueue/scheduler/fair_sharing.h"
#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/scheduler.h"
#include "model/kueue/scheduler/workload_conditions.h"

namespace chaintwin::model {
namespace {

bool holds_topology(const Admission& a) {
  return std::any_of(a.pod_set_assignments.begin(), a.pod_set_assignments.end(),
                     [](const PodSetAssignment& p) { return p.topology_assignment.has_value(); });
}

// Quota (and TAS capacity) came free: Kueue requeues the inadmissible Workloads of the queue; a
// release of node capacity may unblock any queue sharing those nodes, so all are released then.
void release_after_quota_loss(QueueManager& queues, const Admission& released) {
  queues.release_inadmissible(holds_topology(released) ? "" : released.cluster_queue);
}

bool requeued_false_for(const Workload& wl, std::string_view reason) {
  const Condition* c = find_condition(wl.status.conditions, kWorkloadRequeued);
  return c != nullptr && c->status == "False" && c->reason == reason;
}

}  // namespace

std::vector<WorkloadTransition> set_admission_check_state(const ClusterState& cluster, WorkloadState& workloads,
                                                          QueueManager& queues, const std::string& workload_key,
                                                          const std::string& check, CheckState state,
                                                          const std::string& message, TimeUs now) {
  const auto it = workloads.workloads.find(workload_key);
  if (it == workloads.workloads.end() || !it->second.quota_reserved()) return {};
  Workload& wl = it->second;
  auto& checks = wl.status.admission_checks;
  auto c = std::find_if(checks.begin(), checks.end(), [&](const AdmissionCheckState& s) { return s.name == check; });
  if (c == checks.end()) {
    checks.push_back(AdmissionCheckState{check, CheckState::kPending, "", now});
    c = checks.end() - 1;
  }
  if (c->state == state && c->message == message) return {};
  if (c->state != state) c->last_transition = now;
  c->state = state;
  c->message = message;
  if (state == CheckState::kReady || state == CheckState::kPending) return sync_admitted(wl, now);
  const Admission admission = *wl.status.admission;  // evict() below takes it off the Workload
  const std::string& cq = admission.cluster_queue;

  std::vector<WorkloadTransition> out;
  if (state == CheckState::kRetry) {
    const std::string evicted = "At least one admission check is false";
    evict(wl, "AdmissionCheck", evicted, now);
    ++wl.status.retries;
    wl.status.queue_order_time = now;
    const std::string requeued = "The workload backoff was finished";
    set_requeued(wl, true, "BackoffFinished", requeued);
    out.push_back({workload_key, cq, TransitionType::kEvicted, TransitionReason::kAdmissionCheck, evicted});
    out.push_back({workload_key, cq, TransitionType::kQuotaReleased, TransitionReason::kAdmissionCheck, "Quota released in ClusterQueue " + cq});
    out.push_back({workload_key, cq, TransitionType::kRequeued, TransitionReason::kBackoffFinished, requeued});
    queues.add(cluster, wl);
  } else {  // Rejected
    const std::string why = "Admission check(s): " + check + ", were rejected";
    wl.active = false;
    const std::string evicted = "The workload is deactivated due to " + why;
    evict(wl, "Deactivated", evicted, now);
    set_requeued(wl, false, "Deactivated", evicted);
    out.push_back({workload_key, cq, TransitionType::kDeactivated, TransitionReason::kAdmissionCheck, why});
    out.push_back({workload_key, cq, TransitionType::kEvicted, TransitionReason::kDeactivated, evicted});
    out.push_back({workload_key, cq, TransitionType::kQuotaReleased, TransitionReason::kDeactivated, "Quota released in ClusterQueue " + cq});
    queues.remove(workload_key);
  }
  release_after_quota_loss(queues, admission);
  return out;
}

std::vector<WorkloadTransition> release_preempted(const ClusterState& cluster, WorkloadState& workloads,
                                                  QueueManager& queues, const std::string& workload_key, TimeUs now) {
  const auto it = workloads.workloads.find(workload_key);
  if (it == workloads.workloads.end() || !it->second.quota_reserved() || it->second.finished()) return {};
  Workload& wl = it->second;
  const Condition* evicted = find_condition(wl.status.conditions, kWorkloadEvicted);
  if (evicted == nullptr || evicted->status != "True" || evicted->reason != "Preempted") return {};
  const std::string message = evicted->message;
  const Admission admission = *wl.status.admission;
  const std::string& cq = admission.cluster_queue;
  unset_quota_reservation(wl, "Pending", message, now);
  set_requeued(wl, true, "Preempted", message);
  queues.add(cluster, wl);
  release_after_quota_loss(queues, admission);
  return {{workload_key, cq, TransitionType::kQuotaReleased, TransitionReason::kPreempted, "Quota released in ClusterQueue " + cq},
          {workload_key, cq, TransitionType::kRequeued, TransitionReason::kPreempted, message}};
}

std::vector<WorkloadTransition> sync_queue_states(const ClusterState& cluster, WorkloadState& workloads,
                                                  QueueManager& queues, TimeUs now,
                                                  const ReservingByQueue* reserving,
                                                  const std::set<std::string>* active, bool queues_unchanged) {
  std::vector<WorkloadTransition> out;
  queues.refresh(cluster, queues_unchanged);
  // A ClusterQueue added or changed (spec, activity, deletion) is a requeue event for it.
  for (const auto& [name, cq] : cluster.cluster_queues) {
    if (queues_unchanged) break;
    const bool is_active = active != nullptr ? active->count(name) != 0 : cluster_queue_active(cluster, name);
    if (queues.observe(name, cq.spec, is_active, cq.metadata.deletion_timestamp.has_value()))
      queues.release_inadmissible(name);
  }
  // Reservations of stopped, deleted and terminating queues (in Workload key order).
  std::optional<std::set<std::string>> holders;
  if (reserving != nullptr) {
    holders.emplace();
    for (const auto& [name, keys] : *reserving) {
      const auto cq = cluster.cluster_queues.find(name);
      if (cq != cluster.cluster_queues.end() && !cq->second.metadata.deletion_timestamp &&
          cq->second.stop_policy() == StopPolicy::kNone)
        continue;  // nothing to release or evict there
      holders->insert(keys.begin(), keys.end());
    }
  }
  const auto each = [&](const std::optional<std::set<std::string>>& only, const auto& body) {
    if (!only) {
      for (auto* kv : workloads.workloads.in_key_order()) body(kv->first, kv->second);
      return;
    }
    for (const auto& key : *only)
      if (auto it = workloads.workloads.find(key); it != workloads.workloads.end()) body(it->first, it->second);
  };
  each(holders, [&](const std::string& key, Workload& wl) {
    if (!wl.status.admission || wl.finished()) return;
    const std::string name = wl.status.admission->cluster_queue;
    const auto cq = cluster.cluster_queues.find(name);
    const bool exists = cq != cluster.cluster_queues.end();
    const bool gone = !exists || cq->second.metadata.deletion_timestamp.has_value();
    // Kueue reads the stop policy of the queue as it is, terminating or not: a terminating queue
    // the operator set to HoldAndDrain evicts its admitted Workloads; a missing one evicts nothing.
    const StopPolicy policy = exists ? cq->second.stop_policy() : StopPolicy::kNone;
    if (!wl.admitted()) {
      if (!gone && policy == StopPolicy::kNone) return;
      const std::string msg = "ClusterQueue " + name + " is inactive";
      unset_quota_reservation(wl, "Inadmissible", msg, now);
      out.push_back({key, name, TransitionType::kQuotaReleased, TransitionReason::kInadmissible, msg});
      queues.add(cluster, wl);
    } else if (policy == StopPolicy::kHoldAndDrain) {
      const std::string msg = "The ClusterQueue is stopped";
      evict(wl, "ClusterQueueStopped", msg, now);
      set_requeued(wl, false, "ClusterQueueStopped", msg);
      out.push_back({key, name, TransitionType::kEvicted, TransitionReason::kClusterQueueStopped, msg});
      queues.park(cluster, wl);
    }
  });
  // Restarted queues take their drained Workloads back (queue order keeps the creation time). A
  // drained Workload is parked, so with `reserving` given only parked ones are looked at.
  std::optional<std::set<std::string>> parked;
  if (reserving != nullptr) parked = queues.parked_keys();
  each(parked, [&](const std::string& key, Workload& wl) {
    if (wl.status.admission || wl.finished() || !wl.active) return;
    if (!requeued_false_for(wl, "ClusterQueueStopped")) return;
    const std::string name = queues.cluster_queue_of(key);
    const auto cq = cluster.cluster_queues.find(name);
    if (cq == cluster.cluster_queues.end() || cq->second.metadata.deletion_timestamp ||
        cq->second.stop_policy() != StopPolicy::kNone)
      return;
    const std::string msg = "The ClusterQueue was restarted";
    set_requeued(wl, true, "ClusterQueueRestarted", msg);
    queues.unpark(key);
    out.push_back({key, name, TransitionType::kRequeued, TransitionReason::kClusterQueueRestarted, msg});
  });
  // Waiting Workloads that cannot be scheduled: missing queues, inactive queues.
  std::vector<std::pair<std::string, std::string>> inadmissible;  // (workload, message)
  for (const auto& [key, lq] : queues.unplaced()) {
    const auto l = cluster.local_queues.find(lq);
    const std::string lq_name = lq.substr(lq.find('/') + 1);
    inadmissible.emplace_back(key, l == cluster.local_queues.end()
                                       ? "LocalQueue " + lq_name + " doesn't exist"
                                       : "ClusterQueue " + l->second.cluster_queue + " doesn't exist");
  }
  // (The kept active set holds only queues of the cluster: when it holds them all, none is inactive.)
  const bool all_active = active != nullptr && active->size() == cluster.cluster_queues.size();
  const std::vector<std::string> none;
  for (const auto& name : all_active ? none : queues.cluster_queues()) {
    const auto cq = cluster.cluster_queues.find(name);
    if (cq == cluster.cluster_queues.end()) continue;
    if (active != nullptr ? active->count(name) != 0 : cluster_queue_active(cluster, name)) continue;
    for (const auto& key : queues.waiting(name)) inadmissible.emplace_back(key, "ClusterQueue " + name + " is inactive");
  }
  for (const auto& [key, msg] : inadmissible) {
    const auto w = workloads.workloads.find(key);
    if (w == workloads.workloads.end()) continue;
    if (requeued_false_for(w->second, "ClusterQueueStopped")) continue;  // keeps its eviction story
    if (set_pending(w->second, "Inadmissible", msg, now))
      out.push_back({key, queues.cluster_queue_of(key), TransitionType::kPending, TransitionReason::kInadmissible, msg});
  }
  return out;
}

std::vector<WorkloadTransition> finish_workload(WorkloadState& workloads, QueueManager& queues,
                                                const std::string& workload_key, TimeUs now) {
  const auto it = workloads.workloads.find(workload_key);
  if (it == workloads.workloads.end() || it->second.finished()) return {};
  Workload& wl = it->second;
  // The admission leaves the Workload (its quota is released below); nothing in between reads it.
  const std::optional<Admission> admission = std::move(wl.status.admission);
  wl.status.admission.reset();
  const std::string cq = admission ? admission->cluster_queue : queues.cluster_queue_of(workload_key);
  constexpr std::string_view kFinishedMessage = "The workload finished";
  set_condition(wl.status.conditions, kWorkloadFinished, true, "Succeeded", kFinishedMessage);
  std::vector<WorkloadTransition> out{
      {workload_key, cq, TransitionType::kFinished, TransitionReason::kSucceeded, std::string(kFinishedMessage)}};
  queues.remove(workload_key);
  if (admission) {
    out.push_back({workload_key, cq, TransitionType::kQuotaReleased, TransitionReason::kFinished, "Quota released in ClusterQueue " + cq});
    release_after_quota_loss(queues, *admission);
  }
  (void)now;
  return out;
}

namespace {

// Each (flavor, resource) amount `admission` reserves, in its PodSets' order.
template <typename F>
void each_reserved_amount(const Admission& admission, F f) {
  for (const auto& psa : admission.pod_set_assignments)
    for (const auto& [r, qty] : psa.resource_usage) {
      const auto flavor = psa.flavors.find(r);
      if (flavor == psa.flavors.end()) continue;
      f(FlavorResourceView{flavor->second, r}, resource_value(r, qty));
    }
}

}  // namespace

void add_queue_totals(QueueTotalsMap& totals, const Admission& admission, bool admitted, int sign) {
  QueueTotals& t = totals[admission.cluster_queue];
  t.reserving += sign;
  if (admitted) t.admitted += sign;
  each_reserved_amount(admission, [&](FlavorResourceView fr, int64_t v) {
    add_amount(t.reserved, fr, sign * v);
    if (admitted) add_amount(t.used, fr, sign * v);
  });
}

QueueTotalsCharges charge_queue_totals(QueueTotalsMap& totals, const Admission& admission, bool admitted) {
  QueueTotalsCharges out;
  QueueTotals& t = totals[admission.cluster_queue];
  out.totals = &t;
  out.admitted = admitted;
  t.reserving += 1;
  if (admitted) t.admitted += 1;
  const auto charge = [&](FlavorResourceAmounts& amounts, FlavorResourceView fr, int64_t v) {
    int64_t& cell = amount_cell(amounts, fr);
    cell += v;
    out.amounts.cells.emplace_back(&cell, v);
  };
  each_reserved_amount(admission, [&](FlavorResourceView fr, int64_t v) {
    charge(t.reserved, fr, v);
    if (admitted) charge(t.used, fr, v);
  });
  return out;
}

void QueueTotalsCharges::take_out() {
  if (totals == nullptr) return;
  totals->reserving -= 1;
  if (admitted) totals->admitted -= 1;
  amounts.apply(-1);
  *this = QueueTotalsCharges{};
}

QueueTotalsMap build_queue_totals(const WorkloadState& workloads) {
  QueueTotalsMap totals;
  // Sums: any order gives them.
  workloads.workloads.each_unordered([&](const std::string&, const Workload& wl) {
    if (wl.status.admission && !wl.finished()) add_queue_totals(totals, *wl.status.admission, wl.admitted(), 1);
  });
  return totals;
}

std::map<std::string, ClusterQueueStatus> cluster_queue_usage(const ClusterState& cluster, const WorkloadState& workloads,
                                                              const QueueManager& queues, const QuotaTree* fair_sharing) {
  return cluster_queue_usage(cluster, build_queue_totals(workloads), queues, nullptr, fair_sharing);
}

namespace {

// Whether `listed` holds what cluster_queue_usage lists: every flavor of every resource group of
// the spec in order, each with its covered resources in order and nothing borrowed; with `amounts`,
// also the amount used (0 when none) as each resource's quantity.
bool lists_spec(const ClusterQueue& cq, const std::vector<FlavorUsage>& listed, const FlavorResourceAmounts* amounts) {
  std::size_t i = 0;
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& fq : g.flavors) {
      if (i == listed.size()) return false;
      const FlavorUsage& fu = listed[i++];
      if (fu.name != fq.name || fu.resources.size() != g.covered_resources.size()) return false;
      for (std::size_t r = 0; r < g.covered_resources.size(); ++r) {
        const std::string& resource = g.covered_resources[r];
        const ResourceUsage& ru = fu.resources[r];
        if (ru.name != resource || !(ru.borrowed == Quantity::from_int(0))) return false;
        if (amounts != nullptr &&
            !(ru.total == resource_quantity(resource, amount_of(*amounts, FlavorResourceView{fq.name, resource}))))
          return false;
      }
    }
  return i == listed.size();
}

// What cluster_queue_usage lists for `amounts`: every flavor of every resource group of the spec in
// order, each with its covered resources in order, the amount used (0 when none) and nothing
// borrowed.
std::vector<FlavorUsage> listed_amounts(const ClusterQueue& cq, const FlavorResourceAmounts& amounts) {
  std::vector<FlavorUsage> list;
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& fq : g.flavors) {
      FlavorUsage fu;
      fu.name = fq.name;
      for (const auto& r : g.covered_resources) {
        const auto v = amounts.find({fq.name, r});
        fu.resources.push_back({r, resource_quantity(r, v == amounts.end() ? 0 : v->second), Quantity::from_int(0)});
      }
      list.push_back(std::move(fu));
    }
  return list;
}

// listed_amounts written into a list of its shape (lists_spec without amounts): the quantities only.
void write_amounts(const ClusterQueue& cq, std::vector<FlavorUsage>& listed, const FlavorResourceAmounts& amounts) {
  std::size_t i = 0;
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& fq : g.flavors) {
      FlavorUsage& fu = listed[i++];
      for (std::size_t r = 0; r < g.covered_resources.size(); ++r) {
        const std::string& resource = g.covered_resources[r];
        fu.resources[r].total = resource_quantity(resource, amount_of(amounts, FlavorResourceView{fq.name, resource}));
      }
    }
}

// The shape of a usage list the operator reads: its (flavor, resource) pairs in order, flavors
// without resources aside. Whether two lists have the same one.
bool same_pairs(const std::vector<FlavorUsage>& a, const std::vector<FlavorUsage>& b) {
  auto fa = a.begin(), fb = b.begin();
  std::size_t ra = 0, rb = 0;
  const auto settle = [](const std::vector<FlavorUsage>& list, auto& f, std::size_t& r) {
    while (f != list.end() && r >= f->resources.size()) {
      ++f;
      r = 0;
    }
  };
  while (true) {
    settle(a, fa, ra);
    settle(b, fb, rb);
    if (fa == a.end() || fb == b.end()) return fa == a.end() && fb == b.end();
    if (fa->name != fb->name || fa->resources[ra].name != fb->resources[rb].name) return false;
    ++ra;
    ++rb;
  }
}

const QueueTotals& totals_of(const QueueTotalsMap& totals, const std::string& cluster_queue) {
  static const QueueTotals kNone;
  const auto found = totals.find(cluster_queue);
  return found == totals.end() ? kNone : found->second;
}

int32_t pending_of(const std::map<std::string, int32_t>& pending, const std::string& cluster_queue) {
  const auto p = pending.find(cluster_queue);
  return p == pending.end() ? 0 : p->second;
}

// status.fairSharing.weightedShare of a queue holding `reserved` (Kueue's Cache.Usage): none while
// fair sharing is off. A queue's share reads only its own usage and the tree's quotas.
std::optional<int64_t> weighted_share_of(const QuotaTree* fair_sharing, const std::string& name,
                                         const FlavorResourceAmounts& reserved) {
  if (fair_sharing == nullptr) return std::nullopt;
  const QuotaTree::NodeId n = fair_sharing->cluster_queue(name);
  if (n == QuotaTree::kNone) return 0;
  UsageSnapshot own;
  own.quota[name] = reserved;
  return rounded_weighted_share(dominant_resource_share(*fair_sharing, n, own));
}

// Whether the report would leave `cq`'s status as it is: when its amounts did not move (not named
// in `amounts_moved`, when given) only its pending count is compared (and, under fair sharing,
// that a share is written at all: it moves only with the amounts).
bool status_current(const ClusterQueue& cq, const QueueTotals& t, int32_t pending_now,
                    const std::set<std::string>* amounts_moved, const QuotaTree* fair_sharing) {
  if (cq.status.pending_workloads != pending_now) return false;
  if (cq.status.weighted_share.has_value() != (fair_sharing != nullptr)) return false;
  if (amounts_moved != nullptr && amounts_moved->count(cq.metadata.name) == 0) return true;
  return cq.status.reserving_workloads == t.reserving && cq.status.admitted_workloads == t.admitted &&
         lists_spec(cq, cq.status.flavors_reservation, &t.reserved) && lists_spec(cq, cq.status.flavors_usage, &t.used) &&
         cq.status.weighted_share == weighted_share_of(fair_sharing, cq.metadata.name, t.reserved);
}

}  // namespace

std::map<std::string, ClusterQueueStatus> cluster_queue_usage(const ClusterState& cluster, const QueueTotalsMap& totals,
                                                              const QueueManager& queues,
                                                              const std::set<std::string>* amounts_moved,
                                                              const QuotaTree* fair_sharing) {
  const std::map<std::string, int32_t> pending = queues.pending_by_queue();
  std::map<std::string, ClusterQueueStatus> out;
  for (const auto& [name, cq] : cluster.cluster_queues) {
    const QueueTotals& t = totals_of(totals, name);
    const int32_t pending_now = pending_of(pending, name);
    // Most reports change a queue or two: a queue whose counts and listed amounts are what its
    // status already says is compared in place, without building its status.
    if (status_current(cq, t, pending_now, amounts_moved, fair_sharing)) continue;
    ClusterQueueStatus s;
    s.conditions = cq.status.conditions;  // kept as they are; the counts and lists are rebuilt below
    s.pending_workloads = pending_now;
    s.reserving_workloads = t.reserving;
    s.admitted_workloads = t.admitted;
    s.flavors_reservation = listed_amounts(cq, t.reserved);
    s.flavors_usage = listed_amounts(cq, t.used);
    s.weighted_share = weighted_share_of(fair_sharing, name, t.reserved);
    if (!(s == cq.status)) out[name] = std::move(s);
  }
  return out;
}

std::vector<QueueUsageWrite> apply_cluster_queue_usage(ClusterState& cluster, const QueueTotalsMap& totals,
                                                       const QueueManager& queues,
                                                       const std::set<std::string>* amounts_moved,
                                                       const std::function<void(const ClusterQueue&)>& before_write,
                                                       const QuotaTree* fair_sharing) {
  const std::map<std::string, int32_t> pending = queues.pending_by_queue();
  std::vector<QueueUsageWrite> written;
  for (auto& [name, cq] : cluster.cluster_queues) {
    const QueueTotals& t = totals_of(totals, name);
    const int32_t pending_now = pending_of(pending, name);
    if (status_current(cq, t, pending_now, amounts_moved, fair_sharing)) continue;
    ClusterQueueStatus& s = cq.status;
    const bool in_place = lists_spec(cq, s.flavors_reservation, nullptr) && lists_spec(cq, s.flavors_usage, nullptr);
    // (Not current: a count or an amount differs, so the queue is written either way.)
    before_write(cq);
    s.pending_workloads = pending_now;
    s.reserving_workloads = t.reserving;
    s.admitted_workloads = t.admitted;
    s.weighted_share = weighted_share_of(fair_sharing, name, t.reserved);
    if (in_place) {
      write_amounts(cq, s.flavors_reservation, t.reserved);
      write_amounts(cq, s.flavors_usage, t.used);
      written.push_back({name, false});
    } else {
      std::vector<FlavorUsage> reservation = listed_amounts(cq, t.reserved), usage = listed_amounts(cq, t.used);
      const bool moved = !same_pairs(s.flavors_reservation, reservation) || !same_pairs(s.flavors_usage, usage);
      s.flavors_reservation = std::move(reservation);
      s.flavors_usage = std::move(usage);
      written.push_back({name, moved});
    }
  }
  return written;
}

}  // namespace chaintwin::model
