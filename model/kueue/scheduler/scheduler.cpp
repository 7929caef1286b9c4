#include "model/kueue/scheduler/scheduler.h"

#include <algorithm>

#include "model/kueue/kueue_status_reconciler.h"
#include "model/kueue/scheduler/cohort_preemption.h"
#include "model/kueue/scheduler/fair_preemption.h"
#include "model/kueue/scheduler/fair_sharing.h"
#include "model/kueue/scheduler/flavor_assigner.h"
#include "model/kueue/scheduler/preemption.h"
#include "model/kueue/scheduler/tas_assigner.h"
#include "model/kueue/scheduler/workload_conditions.h"

namespace chaintwin::model {
namespace {

struct Nomination {
  std::string assignment_error;  // empty when it fits; the Pending message otherwise
  std::optional<Admission> admission;
  std::vector<std::string> tas_flavors;  // the TAS flavors whose Nodes were read, in order
  std::vector<PreemptionTarget> targets;  // Preempt mode with victims: whom to evict first, and why
  int borrowing = 0;                      // the assignment's borrow height (Kueue's entry order)
  FlavorScan scan;                        // where the flavor search stopped
  FlavorResourceAmounts quota;            // with targets: the quota the preemptor will take
  bool operator==(const Nomination&) const = default;
};

// TAS on each PodSet whose flavor names a Topology, against `usage`: the admission, or the
// not-fit message (assignment_error).
Nomination place(const ClusterState& cluster, const ClusterQueue& cq, const Workload& wl, const FlavorAssignment& fa,
                 const UsageSnapshot& usage, const KueueConfig& config, const TasNodeIndex* tas_nodes,
                 TasLeafCache* leaves, const WorkloadInfo* info) {
  Nomination n;
  Admission admission;
  admission.cluster_queue = cq.metadata.name;
  // PodSets of one Workload see each other's placement: a copy of the usage only when a later
  // PodSet will read what an earlier one placed.
  std::optional<NodeUsage> own;
  if (fa.pod_sets.size() > 1) own = usage.nodes;
  const NodeUsage& nodes = own ? *own : usage.nodes;
  for (std::size_t i = 0; i < fa.pod_sets.size(); ++i) {
    const auto& psf = fa.pod_sets[i];
    const PodSet& ps = wl.pod_sets[i];
    PodSetAssignment psa;
    psa.name = psf.name;
    psa.flavors = psf.flavors;
    psa.resource_usage = resource_list(psf.usage);
    psa.count = psf.count;
    const ResourceFlavor* tas_flavor = nullptr;
    for (const auto& [r, f] : psf.flavors) {
      const auto rf = cluster.resource_flavors.find(f);
      if (rf != cluster.resource_flavors.end() && !rf->second.spec.topology_name.empty()) {
        tas_flavor = &rf->second;
        break;
      }
    }
    if (tas_flavor != nullptr) {
      n.tas_flavors.push_back(tas_flavor->metadata.name);
      // A later PodSet reads what an earlier one placed (`own`): no cached verdicts for it.
      TopologyResult tr =
          assign_topology(cluster, *tas_flavor, ps, nodes, config.tas_placement, tas_nodes, own ? nullptr : leaves,
                          info != nullptr ? &info->pod_sets[i] : nullptr);
      if (!tr.assignment) {
        n.assignment_error = "couldn't assign flavors to pod set " + ps.name + ": " + tr.message;
        return n;
      }
      psa.topology_assignment = std::move(tr.assignment);
      // What this PodSet places, for the later PodSets only (the last one's is never read).
      if (own && i + 1 < fa.pod_sets.size()) {
        Workload probe;
        probe.pod_sets = {ps};
        probe.status.admission = Admission{cq.metadata.name, {psa}};
        UsageSnapshot delta;
        add_workload_usage(delta, probe);
        for (const auto& [node, amounts] : delta.nodes)
          for (const auto& [r, v] : amounts) (*own)[node][r] += v;
      }
    }
    admission.pod_set_assignments.push_back(std::move(psa));
  }
  n.admission = std::move(admission);
  return n;
}

// The (flavor, resource) amounts of an assignment.
FlavorResourceAmounts requested(const FlavorAssignment& fa) {
  FlavorResourceAmounts out;
  for (const auto& psf : fa.pod_sets)
    for (const auto& [r, f] : psf.flavors) out[{f, r}] += psf.usage.at(r);
  return out;
}

// What a nomination reads besides the cluster and the usage: the Workloads (for preemption
// candidates), when kept the keys of those holding quota per ClusterQueue, and the cohort tree
// (null when no ClusterQueue has a cohort).
struct PreemptionScope {
  const WorkloadState* workloads = nullptr;
  const ReservingByQueue* reserving = nullptr;
  const QuotaTree* tree = nullptr;
  const LocalQueueUsageFn* afs_usage = nullptr;  // admission fair sharing's usage, as this cycle's snapshot saw it
};

// Whether `cq` is in a cohort of `tree`.
bool in_cohort(const QuotaTree* tree, const ClusterQueue& cq) {
  if (tree == nullptr) return false;
  const QuotaTree::NodeId n = tree->cluster_queue(cq.metadata.name);
  return n != QuotaTree::kNone && tree->has_parent(n);
}

// Whether anything of the queue's may be preempted for its heads: within the queue, or, in a
// cohort, by reclaiming from the others.
bool may_preempt_for(const ClusterQueue& cq, bool cohort) {
  if (preempts_within_cluster_queue(cq)) return true;
  const std::string& reclaim = cq.spec.preemption.reclaim_within_cohort;
  return cohort && !reclaim.empty() && reclaim != "Never";
}

std::vector<PreemptionTarget> within_queue(std::vector<std::string> keys) {
  std::vector<PreemptionTarget> out;
  out.reserve(keys.size());
  for (auto& k : keys) out.push_back({std::move(k), TransitionReason::kInClusterQueue});
  return out;
}

// Flavors, then TAS on each PodSet whose flavor names a Topology, against `usage`; in Preempt
// mode (quota short but candidates exist, or quota fits and TAS does not), the minimal victims
// with which quota and TAS both fit. `leaves`: only when `usage` is the snapshot the cache's
// generations follow. `info`: the Workload's kept per-PodSet requests (derived when null).
Nomination nominate(const ClusterState& cluster, const ClusterQueue& cq, const Workload& wl, const UsageSnapshot& usage,
                    const KueueConfig& config, const TasNodeIndex* tas_nodes, const PreemptionScope& scope,
                    TasLeafCache* leaves = nullptr, const WorkloadInfo* info = nullptr,
                    const FlavorScan* resume = nullptr) {
  const auto quota_it = usage.quota.find(cq.metadata.name);
  static const FlavorResourceAmounts kNone;
  const bool cohort = in_cohort(scope.tree, cq);
  const bool may_preempt = scope.workloads != nullptr && may_preempt_for(cq, cohort);
  const ReservingKeys* reserving = nullptr;
  static const ReservingKeys kNobody;
  if (scope.reserving != nullptr) {
    const auto r = scope.reserving->find(cq.metadata.name);
    reserving = r == scope.reserving->end() ? &kNobody : &r->second;
  }
  const LocalQueueUsageFn* afs = uses_admission_fair_sharing(config, cq) ? scope.afs_usage : nullptr;
  const auto candidates = [&](const std::set<FlavorResource>& contested) {
    return preemption_candidates(cq, wl, contested, *scope.workloads, reserving, afs);
  };
  // In a cohort, the snapshot bound to the tree once for every question of this nomination.
  std::optional<QuotaUsage> bound;
  if (cohort) bound = scope.tree->bind(usage, scope.tree->cluster_queue(cq.metadata.name));
  // A cohort queue's search: fair sharing's (fair_preemption.h) or the classical one.
  const auto cohort_targets = [&](const std::set<FlavorResource>& contested, const FlavorResourceAmounts& request,
                                  const BeyondQuotaFits& beyond) {
    const QuotaTree& tree = *scope.tree;
    if (config.fair_sharing)
      return fair_preemption_targets(
          tree, usage, *bound, cq,
          fair_preemption_candidates(tree, *bound, cq, wl, contested, *scope.workloads, scope.reserving, afs), contested,
          request, config.fair_preemption_strategies, beyond, config.gates.fair_sharing_preempt_within_nominal);
    return cohort_preemption_targets(
        tree, usage, cq,
        cohort_preemption_candidates(tree, usage, cq, wl, contested, request, *scope.workloads, scope.reserving, &*bound,
                                     afs),
        contested, request, beyond, &*bound);
  };
  // Kueue's SimulatePreemption: quota of the one contested resource only.
  const PreemptionOracle oracle = [&](const FlavorResource& fr, int64_t amount) {
    const FlavorResourceAmounts request{{fr, amount}};
    if (!cohort) {
      const bool some = !minimal_victims(candidates({fr}), usage,
                                         [&](const UsageSnapshot& u) { return quota_fits(cq, request, u); })
                             .empty();
      return OracleAnswer{some ? PreemptionPossibility::kPreempt : PreemptionPossibility::kNoCandidates, 0};
    }
    const QuotaTree& tree = *scope.tree;
    const QuotaTree::NodeId node = tree.cluster_queue(cq.metadata.name);
    const FlavorResourceView view{fr.first, fr.second};
    const auto targets = cohort_targets({fr}, request, nullptr);
    if (targets.empty()) return OracleAnswer{PreemptionPossibility::kNoCandidates,
                                             tree.lowest_subtree_that_fits(node, view, amount, *bound).height};
    QuotaUsage after = *bound;
    bool own = false;
    for (const auto& t : targets) {
      const Workload& victim = scope.workloads->workloads.at(t.key);
      after.add(workload_usage(victim), -1);
      own = own || (victim.status.admission && victim.status.admission->cluster_queue == cq.metadata.name);
    }
    return OracleAnswer{own ? PreemptionPossibility::kPreempt : PreemptionPossibility::kReclaim,
                        tree.lowest_subtree_that_fits(node, view, amount, after).height};
  };
  const FlavorAssignment fa =
      assign_flavors(cluster, cq, wl, quota_it == usage.quota.end() ? kNone : quota_it->second, config,
                     may_preempt ? &oracle : nullptr, info,
                     CohortQuota{cohort ? scope.tree : nullptr, &usage, bound ? &*bound : nullptr}, resume);
  const auto victims = [&](const std::set<FlavorResource>& contested) {
    const FlavorResourceAmounts request = requested(fa);
    if (!cohort)
      return within_queue(minimal_victims(candidates(contested), usage, [&](const UsageSnapshot& u) {
        return quota_fits(cq, request, u) && place(cluster, cq, wl, fa, u, config, tas_nodes, nullptr, info).admission;
      }));
    return cohort_targets(contested, request, [&](const UsageSnapshot& u) {
      return place(cluster, cq, wl, fa, u, config, tas_nodes, nullptr, info).admission.has_value();
    });
  };
  if (fa.preempt) {
    Nomination n;
    n.borrowing = fa.borrowing;
    n.scan = fa.scan;
    n.assignment_error = fa.message;
    n.targets = victims(fa.contested);
    if (!n.targets.empty()) n.quota = requested(fa);
    for (const auto& psf : fa.pod_sets)
      for (const auto& [r, f] : psf.flavors) {
        const auto rf = cluster.resource_flavors.find(f);
        if (rf != cluster.resource_flavors.end() && !rf->second.spec.topology_name.empty()) n.tas_flavors.push_back(f);
      }
    return n;
  }
  if (!fa.fits) {
    Nomination n;
    n.assignment_error = fa.message;
    n.scan = fa.scan;
    return n;
  }
  Nomination n = place(cluster, cq, wl, fa, usage, config, tas_nodes, leaves, info);
  n.borrowing = fa.borrowing;
  n.scan = fa.scan;
  if (n.admission && config.fair_sharing) n.quota = requested(fa);  // what the tournament adds
  if (!n.admission && may_preempt) {
    // Kueue turns a TAS failure in Fit mode into Preempt mode for every flavor of the Workload.
    std::set<FlavorResource> contested;
    for (const auto& [fr, v] : requested(fa)) contested.insert(fr);
    n.targets = victims(contested);
    if (!n.targets.empty()) n.quota = requested(fa);
  }
  return n;
}

// Whether nominate reads nothing of `head` but its PodSets and priority, so heads equal in those
// share a remembered verdict (nomination_memo.h). The flavor and TAS search read the PodSets; the
// preemption candidates read the preemptor's priority under LowerPriority and nothing of it under
// Never, but its timestamps under LowerOrNewerEqualPriority, and a cohort's policies are left out
// here. A head holding no reservation is no candidate of its own search, so its key is not read.
bool shares_verdicts(const ClusterQueue& cq, const Workload& head) {
  return !head.status.admission && cq.spec.cohort_name.empty() &&
         cq.spec.preemption.within_cluster_queue != "LowerOrNewerEqualPriority";
}

bool strict_fifo(const ClusterQueue& cq) { return cq.spec.queueing_strategy == "StrictFIFO"; }

}  // namespace

bool cluster_queue_active(const ClusterState& cluster, const std::string& cluster_queue) {
  const auto it = cluster.cluster_queues.find(cluster_queue);
  if (it == cluster.cluster_queues.end()) return false;
  return cluster_queue_active_condition(it->second, cluster).status == "True";
}

int64_t run_idle_cycles(const ClusterState& cluster, QueueManager& queues, const KeptCycleState& kept,
                        int64_t max_cycles) {
  if (kept.memo == nullptr || kept.active_queues == nullptr || max_cycles <= 0) return 0;
  // Counted in closed form rather than cycle by cycle. In cycle c a BestEffortFIFO queue's head is
  // the c-th entry of its heap (the c before it were parked), a StrictFIFO queue's head is always
  // its first entry (put back where it was). A cycle is idle while every head it would pop can
  // only be parked: the run stops at the first cycle where some queue's head cannot,
  // or where no BestEffortFIFO queue has a head left (every later cycle is then the same: all
  // `max_cycles` count when a StrictFIFO head is left, none more otherwise).
  // A head is parkable when the memo holds its verdict (asked by the head's ref and the queue's
  // index: array reads); its Pending condition then already says so (remembered_heads_mismatch).
  const auto parkable = [&](NominationMemo::QueueIndex queue, const QueueEntry& head) {
    return kept.memo->failure_message(head.ref, queue) != nullptr;
  };
  // The BestEffortFIFO queues with a head, walked in step: cycle c looks at the c-th entry of
  // each, so no queue is walked past the first cycle that stops the run.
  struct Lane {
    QueueId id = kNoQueue;
    NominationMemo::QueueIndex queue = 0;
    std::set<QueueEntry>::const_iterator next, end;
    std::size_t size = 0;
  };
  std::vector<Lane> lanes;
  bool steady = false;
  const std::vector<std::string>& names = queues.cluster_queues();
  const std::vector<QueueId>& ids = queues.cluster_queue_ids();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    const std::set<QueueEntry>& heap = queues.heap(ids[i]);
    if (heap.empty() || kept.active_queues->count(name) == 0) continue;
    const auto cq = cluster.cluster_queues.find(name);
    if (cq == cluster.cluster_queues.end() || !cq->second.spec.namespace_selector_all) return 0;
    // Admission fair sharing pops by LocalQueue usage, which samples move between events.
    if (!cq->second.spec.admission_mode.empty()) return 0;
    const auto queue = kept.memo->queue_index(name);
    if (!queue) return 0;  // nothing remembered in it: its head is not parkable
    if (strict_fifo(cq->second)) {
      if (!parkable(*queue, *heap.begin())) return 0;
      steady = true;
      continue;
    }
    lanes.push_back({ids[i], *queue, heap.begin(), heap.end(), heap.size()});
  }
  std::size_t exhausted = 0;  // the first cycle with no BestEffortFIFO head left
  for (const auto& lane : lanes) exhausted = std::max(exhausted, lane.size);
  const auto limit = static_cast<std::size_t>(max_cycles);
  std::size_t cycle = 0;  // the first cycle that is not idle, or `limit`, or `exhausted`
  for (bool idle = true; idle && cycle < std::min(limit, exhausted); cycle += idle ? 1 : 0)
    for (auto& lane : lanes) {
      if (lane.next == lane.end) continue;
      if (!parkable(lane.queue, *lane.next)) {
        idle = false;
        break;
      }
      ++lane.next;
    }
  int64_t ran = 0;
  if (cycle < exhausted) ran = static_cast<int64_t>(cycle);  // stopped by a head, or by max_cycles
  else ran = steady ? max_cycles : static_cast<int64_t>(exhausted);  // every BestEffortFIFO head parks
  for (const auto& lane : lanes) queues.park_heads(lane.id, std::min(lane.size, static_cast<std::size_t>(ran)));
  queues.count_cycles(ran);
  return ran;
}

std::string remembered_heads_mismatch(const WorkloadState& workloads, const QueueManager& queues,
                                      const NominationMemo& memo) {
  for (const auto& name : queues.cluster_queues()) {
    const auto queue = memo.queue_index(name);
    if (!queue) continue;
    for (const QueueEntry& head : queues.heap(name)) {
      const std::string* known = memo.failure_message(head.ref, *queue);
      if (known == nullptr) continue;
      const auto w = workloads.workloads.find(head.key);
      if (w == workloads.workloads.end())
        return "Workload " + head.key + " is queued in ClusterQueue " + name + " with a remembered verdict but does not exist";
      if (!pending_unchanged(w->second, "Pending", *known))
        return "Workload " + head.key + " is queued in ClusterQueue " + name + " with the remembered verdict \"" + *known +
               "\" but its QuotaReserved/Admitted conditions say otherwise";
    }
  }
  return "";
}

std::set<std::string> active_cluster_queues(const ClusterState& cluster) {
  std::set<std::string> out;
  for (const auto& [name, cq] : cluster.cluster_queues)
    if (cluster_queue_active(cluster, name)) out.insert(name);
  return out;
}

namespace {

// Tells the kept TAS verdicts that an admission moved the usage of the Nodes it was placed on: the
// Node's position in each TAS flavor's list is found by hash when the cache indexed this index,
// else by binary search (the list is in name order).
void note_node_usage(const TasNodeIndex& index, TasLeafCache& cache, const Workload& wl) {
  if (!wl.status.admission) return;
  const bool indexed = cache.indexes(index);
  for (const auto& psa : wl.status.admission->pod_set_assignments) {
    if (!psa.topology_assignment) continue;
    for (const auto& d : psa.topology_assignment->domains) {
      const std::string node = domain_node(*psa.topology_assignment, d);
      if (node.empty()) continue;
      if (indexed) {
        cache.node_changed(std::string_view(node), NodeChange::kRoom);
        continue;
      }
      for (const auto& [flavor, names] : index) {
        const auto it = std::lower_bound(names.begin(), names.end(), node);
        if (it != names.end() && *it == node)
          cache.node_changed(flavor, static_cast<std::size_t>(it - names.begin()), NodeChange::kRoom);
      }
    }
  }
}

}  // namespace

CycleResult schedule_cycle(const ClusterState& cluster, WorkloadState& workloads, QueueManager& queues, TimeUs now,
                           const KueueConfig& config, const KeptCycleState& kept) {
  const TasNodeIndex* tas_nodes = kept.tas_nodes;
  UsageSnapshot* reserved = kept.reserved;
  NominationMemo* memo = kept.memo;
  CycleResult result;
  // FlavorFungibilityPreserveScanProgress: a head resumes its flavor search where the last one,
  // at most one cycle old, stopped (kueue_version.h).
  const bool preserve = config.gates.flavor_fungibility_preserve_scan_progress;
  // Admission fair sharing's samples due by now (the runner also takes them before every event).
  queues.admission_fair_sharing().catch_up(cluster, workloads, config, now);
  const int64_t cycle = queues.cycles();
  queues.count_cycles(1);
  // 1. Heads: at most one per active ClusterQueue.
  std::vector<QueueEntry> heads;
  // A copy of the ids: the loop pops and removes, which may change the listed queues.
  const std::vector<QueueId> ids = queues.cluster_queue_ids();
  for (const QueueId id : ids) {
    if (queues.heap(id).empty()) continue;  // nothing to pop, active or not
    const std::string& name = queues.cluster_queue_name(id);
    const bool active = kept.active_queues != nullptr ? kept.active_queues->count(name) != 0
                                                      : cluster_queue_active(cluster, name);
    if (!active) continue;
    const auto cq_it = cluster.cluster_queues.find(name);
    auto head = cq_it != cluster.cluster_queues.end() && uses_admission_fair_sharing(config, cq_it->second)
                    ? queues.pop_by_usage(id, [&](const std::string& lq) {
                        return queues.admission_fair_sharing().usage(lq, cluster, config);
                      })
                    : queues.pop(id);
    if (!head) continue;
    ++result.popped;
    if (workloads.workloads.count(head->key) == 0) {  // deleted behind our back
      queues.remove(head->key);
      continue;
    }
    heads.push_back(*head);
  }
  // 2. Snapshot; 3. nominate every head against it.
  std::optional<UsageSnapshot> own;
  if (reserved == nullptr) own = build_usage_snapshot(workloads);
  const UsageSnapshot* snapshot_ptr = reserved != nullptr ? reserved : &*own;
  // The kept per-Node verdicts follow the kept snapshot, not this cycle's own copy of it; an
  // admission below tells them which Nodes it used.
  const auto leaves_for = [&](const UsageSnapshot* usage) {
    return usage == kept.reserved && kept.tas_nodes != nullptr ? kept.tas_leaves : nullptr;
  };
  // The cohort tree, when some ClusterQueue has a cohort (the operator's queues have none).
  std::optional<QuotaTree> tree;
  const QuotaTree* tree_ptr = nullptr;
  if (kept.quota_tree != nullptr) {
    if (kept.quota_tree->has_cohorts()) tree_ptr = kept.quota_tree;
  } else {
    for (const auto& [name, cq] : cluster.cluster_queues)
      if (!cq.spec.cohort_name.empty()) {
        tree = QuotaTree::build(cluster);
        tree_ptr = &*tree;
        break;
      }
  }
  // Admission fair sharing: each LocalQueue's usage as the cycle's snapshot takes it (Kueue's
  // snapshot computes LocalQueueFSUsage once), for the preemption candidates' order.
  std::map<std::string, double> afs_snapshot;
  const LocalQueueUsageFn afs_usage = [&](const std::string& lq) {
    auto [it, fresh] = afs_snapshot.try_emplace(lq, 0.0);
    if (fresh) it->second = queues.admission_fair_sharing().usage(lq, cluster, config);
    return it->second;
  };
  const PreemptionScope scope{&workloads, kept.reserving, tree_ptr, &afs_usage};
  struct Entry {
    QueueEntry entry;
    std::string cluster_queue;
    Nomination nomination;
    std::string inadmissible;  // set when the head cannot even be nominated
    std::optional<FlavorScan> resume;  // where its search resumes (preserve only)
  };
  std::vector<Entry> entries;
  for (const auto& h : heads) {
    Entry e{h, queues.cluster_queue_of(h.ref), {}, {}, {}};
    const Workload& wl = workloads.workloads.at(h.key);
    const ClusterQueue& cq = cluster.cluster_queues.at(e.cluster_queue);
    const Workload* shareable = shares_verdicts(cq, wl) && !uses_admission_fair_sharing(config, cq) ? &wl : nullptr;
    if (preserve)
      if (const FlavorScan* s = queues.scan_since(h.ref, cycle - 1)) e.resume = *s;
    // A verdict in a cohort depends on every queue of the tree's usage, and one that resumes a
    // scan on the record: none is remembered there.
    NominationMemo* const queue_memo = in_cohort(scope.tree, cq) || preserve ? nullptr : memo;
    if (!cq.spec.namespace_selector_all) e.inadmissible = "Workload namespace doesn't match ClusterQueue selector";
    else if (const auto known = queue_memo != nullptr ? queue_memo->failure(h.ref, e.cluster_queue, shareable) : std::nullopt) {
      e.nomination.assignment_error = *known;
      if (memo->verify) {
        const Nomination fresh =
            nominate(cluster, cq, wl, *snapshot_ptr, config, tas_nodes, scope, leaves_for(snapshot_ptr));
        if (fresh.admission || !fresh.targets.empty() || fresh.assignment_error != *known)
          memo->note_mismatch("Workload " + h.key + ": remembered \"" + *known + "\", the search now gives " +
                              (fresh.admission            ? std::string("a fit")
                               : !fresh.targets.empty() ? std::string("preemption targets")
                                                        : "\"" + fresh.assignment_error + "\""));
      }
    } else {
      e.nomination = nominate(cluster, cq, wl, *snapshot_ptr, config, tas_nodes, scope, leaves_for(snapshot_ptr),
                              queues.info(h.ref), e.resume ? &*e.resume : nullptr);
      if (queue_memo != nullptr && !e.nomination.admission && e.nomination.targets.empty())
        queue_memo->remember_failure(h.ref, e.cluster_queue, e.nomination.assignment_error, e.nomination.tas_flavors, shareable);
    }
    entries.push_back(std::move(e));
  }
  // 4. Kueue's entry order: priority, then queue-order time, then key.
  // Kueue's entryOrdering: the lower borrow height first (0 for every queue without a cohort).
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.nomination.borrowing != b.nomination.borrowing) return a.nomination.borrowing < b.nomination.borrowing;
    return a.entry < b.entry;
  });
  // Under fair sharing, the next entry of a cohort tree is the winner of its tournament
  // (fair_sharing.h), run again at each pop against the usage committed so far. Kueue starts each
  // pop at any ClusterQueue with an entry (a Go map's order); the twin starts at the first left in
  // the entry order, so trees (and isolated queues) take turns by their best head.
  const bool fair = config.fair_sharing && tree_ptr != nullptr;
  std::vector<char> taken(entries.size(), 0);
  const auto next_entry = [&](std::size_t left) -> std::size_t {
    if (!fair) return entries.size() - left;
    std::size_t first = 0;
    while (taken[first] != 0) ++first;
    const QuotaTree& t = *tree_ptr;
    const QuotaTree::NodeId node = t.cluster_queue(entries[first].cluster_queue);
    if (node == QuotaTree::kNone || !t.has_parent(node)) return first;
    const QuotaTree::NodeId root = t.root(node);
    std::vector<FairSharingHead> competing;
    std::vector<std::size_t> index;
    for (std::size_t i = first; i < entries.size(); ++i) {
      if (taken[i] != 0) continue;
      const QuotaTree::NodeId n = t.cluster_queue(entries[i].cluster_queue);
      if (n == QuotaTree::kNone || !t.has_parent(n) || t.root(n) != root) continue;
      competing.push_back({n, &entries[i].nomination.quota, &entries[i].entry});
      index.push_back(i);
    }
    return index[fair_sharing_winner(t, root, competing, *snapshot_ptr,
                                     config.gates.fair_sharing_prioritize_non_borrowing)];
  };
  // 5. Admit in order against the usage committed so far. Until an entry changes something (a
  // reservation, an eviction, a Pending condition), the state is the one every head was nominated
  // against, and nominate() is a function of it: a nomination is then taken as it stands instead
  // of being searched again (with the memo's verify on, it is searched again and compared).
  bool moved = false;
  std::vector<CellCharges> held_for_preemptors;  // taken out again before the cycle returns
  for (std::size_t left = entries.size(); left > 0; --left) {
    const std::size_t at = next_entry(left);
    taken[at] = 1;
    Entry& e = entries[at];
    Workload& wl = workloads.workloads.at(e.entry.key);
    const ClusterQueue& cq = cluster.cluster_queues.at(e.cluster_queue);
    std::string message = e.inadmissible;
    bool after_nomination = false;
    std::optional<Admission> admission;
    std::vector<PreemptionTarget> targets;
    FlavorResourceAmounts preemptor_quota;
    FlavorScan scan = e.nomination.scan;
    if (message.empty()) {
      if (!e.nomination.admission && e.nomination.targets.empty()) {
        message = e.nomination.assignment_error;
      } else {
        Nomination again;
        if (moved || (memo != nullptr && memo->verify)) {
          again = nominate(cluster, cq, wl, *snapshot_ptr, config, tas_nodes, scope, leaves_for(snapshot_ptr),
                           queues.info(e.entry.ref), e.resume ? &*e.resume : nullptr);
          if (!moved && !(again == e.nomination))
            memo->note_mismatch("Workload " + e.entry.key + ": nominated again against the same state, it differs");
        } else {
          again = std::move(e.nomination);
        }
        scan = std::move(again.scan);
        if (again.admission) admission = std::move(again.admission);
        else if (!again.targets.empty()) {
          message = again.assignment_error;
          targets = std::move(again.targets);
          preemptor_quota = std::move(again.quota);
        } else {
          message = again.assignment_error;
          after_nomination = true;
        }
      }
    }
    if (!targets.empty()) {
      // Preempt mode with victims: evict those not yet evicted, and wait (back in the heap at once,
      // Kueue's PendingPreemption) until their quota is released.
      for (const auto& target : targets) {
        Workload& victim = workloads.workloads.at(target.key);
        if (preemption_candidate(victim).evicted) continue;  // a preemption under way
        for (auto& t : evict_for_preemption(victim, preemption_message(wl, target.reason), now, target.reason))
          result.transitions.push_back(std::move(t));
        ++result.preemptions;
      }
      moved = true;
      message += ". Pending the preemption of " + std::to_string(targets.size()) + " workload(s)";
      if (preserve) queues.record_scan(e.entry.ref, {}, cycle);  // issuing preemptions clears the record
      // Kueue adds the preemptor's usage to the cycle's snapshot before issuing (cq.AddUsage), so
      // no later head of its cohort takes the room its victims will free. It matters only in a
      // cohort (an isolated queue has one head a cycle); the charge is taken out when the cycle ends.
      if (in_cohort(scope.tree, cq)) {
        WorkloadUsage held;
        held.reserved = true;
        held.cluster_queue = e.cluster_queue;
        for (const auto& [fr, v] : preemptor_quota) held.quota.push_back({fr, v});
        UsageSnapshot& target = reserved != nullptr ? *reserved : *own;
        held_for_preemptors.push_back(charge_workload_usage(target, held));
      }
      if (set_pending(wl, "Pending", message, now))
        result.transitions.push_back({e.entry.key, e.cluster_queue, TransitionType::kPending, TransitionReason::kPending, message});
      queues.requeue(e.entry, /*inadmissible=*/false);
      continue;
    }
    if (!admission) {
      const TransitionReason reason =
          e.inadmissible.empty() ? TransitionReason::kPending : TransitionReason::kInadmissible;
      if (set_pending(wl, std::string(transition_reason_name(reason)), message, now)) {
        result.transitions.push_back({e.entry.key, e.cluster_queue, TransitionType::kPending, reason, message});
        moved = true;
      }
      // StrictFIFO keeps its head (except on a namespace mismatch); a head that fitted at
      // nomination goes straight back to the heap, and so does one with flavors left to try
      // (Kueue's PendingFlavors, under preserve); BestEffortFIFO parks the rest.
      const bool flavors_left = preserve && e.inadmissible.empty() && scan.pending_flavors();
      if (preserve && e.inadmissible.empty()) queues.record_scan(e.entry.ref, std::move(scan), cycle);
      const bool inadmissible =
          !after_nomination && !flavors_left && (!e.inadmissible.empty() || !strict_fifo(cq));
      queues.requeue(e.entry, inadmissible);
      continue;
    }
    moved = true;
    for (auto& t : reserve_quota(wl, cq, std::move(*admission), now)) result.transitions.push_back(std::move(t));
    if (uses_admission_fair_sharing(config, cq)) {
      // updateEntryPenalty; and updateAfsConsumedUsage when it is Admitted in the same update.
      const std::string lq = wl.metadata.namespace_ + "/" + wl.queue_name;
      const MilliAmounts requests = afs_total_requests(wl, config);
      queues.admission_fair_sharing().push_penalty(lq, requests, config);
      const Condition* admitted = find_condition(wl.status.conditions, kWorkloadAdmitted);
      if (admitted != nullptr && admitted->status == "True")
        queues.admission_fair_sharing().fold(lq, workloads, requests, config, now);
    }
    WorkloadUsage added = workload_usage(wl, queues.info(e.entry.ref));
    // Later heads see it; the caller keeps the cells of its own snapshot.
    CellCharges cells;
    if (reserved != nullptr) cells = charge_workload_usage(*reserved, added);
    else add_workload_usage(*own, added);
    result.admitted_usage.push_back({e.entry.key, std::move(added), std::move(cells)});
    if (reserved != nullptr && kept.tas_nodes != nullptr && kept.tas_leaves != nullptr)
      note_node_usage(*kept.tas_nodes, *kept.tas_leaves, wl);
    queues.remove(e.entry.key);
    result.progressed = true;
  }
  for (const auto& charge : held_for_preemptors) charge.apply(-1);
  return result;
}

}  // namespace chaintwin::model
