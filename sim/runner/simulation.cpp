#include "sim/runner/simulation.h"

#include "model/kueue/scheduler/non_tas_usage.h"

#include "model/stage4/instance_reconciler.h"

#include <algorithm>
#include <limits>

#include "model/admission/accelerator_claim.h"
#include "model/admission/credit_transform.h"
#include "model/admission/device_allocator.h"
#include "model/credits.h"
#include "model/catalog/resource_names.h"
#include "model/admission/gate3/node_devices_check.h"
#include "model/admission/node_fit.h"
#include "model/admission/pods_for_admission.h"
#include "model/kueue/scheduler/node_match.h"
#include "model/device_manager/device_inventory.h"
#include "model/catalog/label_keys.h"
#include "model/kueue/kueue_status_reconciler.h"
#include "model/stage4/admission_check_reconciler.h"
#include "model/stage4/instance_reconciler.h"
#include "model/stage4/queue_status.h"
#include "model/stage4/stop_policy_migration.h"
#include "sim/chain_report.h"
#include "sim/results/event_log.h"
#include "sim/results/report.h"
#include "sim/runner/chain_sync.h"
#include "sim/runner/workload_references.h"
#include "sim/scenario/slo_check.h"

namespace chaintwin::sim {
namespace {

constexpr SimTime kPodRetryDelay = SimTime::seconds(30);  // controller recreates a failed Pod

std::string workload_object(const std::string& key) { return "Workload " + key; }

// What the operator's controllers (and Kueue's own status side) read of a ClusterQueue's status:
// its conditions and the shape of the usage lists (model::apply_cluster_queue_usage says when it
// moved) always; whether anything is reserved or admitted and which listed flavors may be in use
// only when `watched` (see reads_reservations). A Kueue report that leaves these unchanged moves no
// decision. A report writes no condition, so only the watched part is compared as a view.
struct WatchedView {
  bool reserved = false, empty = false;
  std::vector<std::pair<std::string, bool>> flavors_in_use;
  bool operator==(const WatchedView&) const = default;
};

// Whether a settled operator can read `cq`'s reservation numbers. They are read only on these
// paths: a terminating queue (Kueue drops its finalizer once empty), a stopped queue (the
// InstanceType phase is Draining while anything is reserved), a stop-policy migration in progress,
// a queue with no resource groups or no live flavors (drain-wait), and a plan change waiting for
// Kueue's usage (await-queue-status). The last two, and every other wait, leave a timed requeue
// on the queue's name, so `waiting` (the keys of the last fixpoint's requeues) covers them.
// `--verify` checks after every skipped report that a full fixpoint would write nothing.
bool reads_reservations(const model::ClusterQueue& cq, const std::set<std::string>& waiting) {
  return cq.metadata.deletion_timestamp.has_value() || cq.stop_policy() != model::StopPolicy::kNone ||
         !model::migration_phase(cq).empty() || cq.spec.resource_groups.empty() ||
         waiting.count(cq.metadata.name) != 0;
}

WatchedView watched_view(const model::ClusterQueue& cq) {
  WatchedView v;
  v.reserved = model::has_reserved(cq.status);
  v.empty = model::cluster_queue_empty(cq);
  for (const auto* list : {&cq.status.flavors_reservation, &cq.status.flavors_usage})
    for (const auto& f : *list) v.flavors_in_use.emplace_back(f.name, model::flavors_may_be_in_use(cq, {f.name}));
  return v;
}

}  // namespace

Simulation::Simulation(Scenario scenario, RunOptions options)
    : scenario_(std::move(scenario)), options_(std::move(options)) {
  seed_ = options_.seed.value_or(scenario_.seed);
  end_ = options_.until ? std::min(*options_.until, scenario_.horizon) : scenario_.horizon;
  cluster_ = scenario_.cluster;
  cluster_.settings = scenario_.settings;
  cadence_ = model::CycleCadence(scenario_.kueue.scheduling_cycle_cost.us());
  for (const auto& gen : scenario_.workloads) {
    streams_.emplace_back(seed_, 0, gen.name);
    arrivals_.push_back(0);
  }
  record_.info.scenario_name = scenario_.name;
  record_.info.scenario_file = scenario_.file;
  record_.info.scenario_hash = scenario_.content_hash;
  record_.info.version = options_.version;
  record_.info.seed = seed_;
  record_.info.horizon = scenario_.horizon;
}

void Simulation::schedule(SimTime at, SimEvent event) { events_.push(at, std::move(event)); }

void Simulation::log(const std::string& kind, const std::string& object, const std::string& message) {
  if (!logging()) return;
  EventRecord r{now_, record_.info.events, kind, object, message};
  if (options_.on_event) options_.on_event(r);
  if (options_.keep_events) record_.events.push_back(std::move(r));
}

model::Status Simulation::start() {
  if (started_) return model::Ok{};
  started_ = true;
  kueue_.set_verify(options_.verify_incremental);
  // Queues take the scenario's strategy.
  for (auto& [name, cq] : cluster_.cluster_queues) cq.spec.queueing_strategy = scenario_.kueue.queueing_strategy;
  // Pods outside Kueue run from the start; their cards are already charged in the ledgers.
  for (const auto& pod : scenario_.pods_outside_kueue) {
    const auto placed = workloads_.pods.insert_or_assign(model::object_key(pod.metadata), pod).first;
    node_pods_.bind(placed.slot(), placed->second);
  }
  const size_t topology_writes = start_topology_sources();
  if (!fatal_.empty()) return model::err(fatal_);
  auto synced = sync_chain(cluster_, {}, now_, true, options_.verify_incremental);
  if (!synced.ok()) return model::err("the operator's controllers refused the initial cluster: " + synced.error());
  for (const auto& node : synced->fit_label_nodes) write_fit_labels(cluster_, node);
  if (auto refs = check_workload_references(scenario_, cluster_); !refs.ok()) return refs;
  // Only fit labels moved since the fixpoint, and nothing the controllers decide reads them (stage 3
  // decides its other outputs without them, pinned by a stage-3 test; stage 4 reads no fit label),
  // so the fixpoint still holds. --verify runs it again and requires that it writes nothing at all.
  if (options_.verify_incremental) {
    auto again = model::converge(cluster_, simulated_controllers(), rfc3339(now_));
    if (!again.ok()) return model::err("the operator's controllers refused the initial cluster: " + again.error());
    if (!again->writes.empty())
      return model::err("--verify: after the initial fit-label writes the fixpoint would still write: " +
                        write_summary(again->writes.front()));
  }
  for (auto& [name, cq] : cluster_.cluster_queues) cq.spec.queueing_strategy = scenario_.kueue.queueing_strategy;
  for (const auto& [name, node] : cluster_.nodes) gpu_usage_.on_node(now_, name, cluster_.devices_of(name));
  log("start", "Scenario " + scenario_.name,
      std::to_string(cluster_.nodes.size()) + " nodes, " + std::to_string(cluster_.cluster_queues.size()) +
          " ClusterQueues, " + std::to_string(topology_writes + synced->writes.size()) +
          " operator writes to settle");
  for (size_t i = 0; i < scenario_.workloads.size(); ++i) {
    const auto& gen = scenario_.workloads[i];
    SimTime first;
    switch (gen.arrival.kind) {
      case Arrival::Kind::kAt:
        if (gen.arrival.at.empty()) continue;
        first = gen.arrival.at.front();
        break;
      case Arrival::Kind::kEvery: first = SimTime(); break;
      case Arrival::Kind::kPoisson:
        first = streams_[i].exponential(SimTime::micros(static_cast<int64_t>(1e6 / gen.arrival.rate_per_second)));
        break;
    }
    if (first <= end_) schedule(first, {SimEvent::Kind::kArrival, static_cast<int64_t>(i), "", 0});
  }
  for (size_t i = 0; i < scenario_.trace_workloads.size(); ++i)
    if (scenario_.trace_workloads[i].arrival <= end_)
      schedule(scenario_.trace_workloads[i].arrival, {SimEvent::Kind::kTraceArrival, static_cast<int64_t>(i), "", 0});
  for (size_t i = 0; i < scenario_.timeline.size(); ++i)
    if (scenario_.timeline[i].at <= end_ && timeline_done_at_start_.count(i) == 0)
      schedule(scenario_.timeline[i].at, {SimEvent::Kind::kTimeline, static_cast<int64_t>(i), "", 0});
  for (size_t i = 0; i < scenario_.expectations.size(); ++i)
    if (scenario_.expectations[i].at && *scenario_.expectations[i].at <= end_)
      schedule(*scenario_.expectations[i].at, {SimEvent::Kind::kExpect, static_cast<int64_t>(i), "", 0});
  sample_pools();
  return model::Ok{};
}

std::optional<SimTime> Simulation::next_event_at() const {
  if (!fatal_.empty() || events_.empty() || events_.next_at() > end_) return std::nullopt;
  return events_.next_at();
}

bool Simulation::step() {
  if (!fatal_.empty() || events_.empty() || events_.next_at() > end_) return false;
  auto e = events_.pop();
  // A last line of defence against a loop the model cannot settle (events that keep making events
  // at the same instant): the run stops with an error instead of hanging. No scenario comes near it
  // (the largest burst in one instant of the shipped ones is a few thousand events).
  events_in_instant_ = e.at == now_ ? events_in_instant_ + 1 : 0;
  if (events_in_instant_ > kMaxEventsInOneInstant) {
    fatal_ = "at " + now_.to_string() + ": simulated time stopped: more than " +
             std::to_string(kMaxEventsInOneInstant) +
             " events in one instant (a loop of preemptions or requeues the model does not settle)";
    return false;
  }
  now_ = e.at;
  ++record_.info.events;
  // Admission fair sharing samples each LocalQueue's admitted usage on its own clock: the samples due
  // by now read the usage as the last event left it, before this one changes it.
  if (scenario_.kueue.admission_fair_sharing)
    queues_.admission_fair_sharing().catch_up(cluster_, workloads_, kueue_config(), now_.us());
  dispatch(e.payload);
  if (options_.on_progress) options_.on_progress(now_, end_);
  return fatal_.empty();
}

void Simulation::dispatch(const SimEvent& e) {
  switch (e.kind) {
    case SimEvent::Kind::kArrival: on_arrival(e.index); break;
    case SimEvent::Kind::kTraceArrival: on_trace_arrival(e.index); break;
    case SimEvent::Kind::kCycle: on_cycle(); break;
    case SimEvent::Kind::kCheck: on_check(e.index, e.epoch); break;
    case SimEvent::Kind::kPodStart: on_pod_start(e.index, e.epoch); break;
    case SimEvent::Kind::kFinish: on_finish(e.index, e.epoch); break;
    case SimEvent::Kind::kPodsDeleted: on_pods_deleted(e.index, e.epoch); break;
    case SimEvent::Kind::kRequeue: on_requeue(e.index, e.epoch); break;
    case SimEvent::Kind::kTimeline: on_timeline(e.index); break;
    case SimEvent::Kind::kRedetect: on_redetect(e.index); break;
    case SimEvent::Kind::kFitLabels: on_fit_labels(e.key); break;
    case SimEvent::Kind::kKueueStatus: on_kueue_status(); break;
    case SimEvent::Kind::kExpect: on_expect(e.index); break;
    case SimEvent::Kind::kReconcile: on_reconcile(); break;
    case SimEvent::Kind::kTopologySource: on_topology_source(e.key, e.epoch); break;
  }
}

model::Result<RunRecord> Simulation::run() {
  if (auto s = start(); !s.ok()) return model::err(s.error());
  while (step()) {
  }
  if (!fatal_.empty()) return model::err(fatal_);
  return finish();
}

RunRecord Simulation::finish() {
  now_ = end_;
  // `at: end` means the horizon: a run stopped earlier (--until) does not judge them.
  bool slos = false;
  for (size_t i = 0; i < scenario_.expectations.size(); ++i) {
    if (scenario_.expectations[i].at) continue;
    if (scenario_.expectations[i].slo) {  // judged on the finished record, below
      slos = true;
      continue;
    }
    if (end_ < scenario_.horizon)
      log("expect", scenario_.expectations[i].where.str(), "not judged: the run stopped before the horizon");
    else
      check_expectation(i);
  }
  if (!kueue_status_pending_) {
    mark_kueue_dirty();
  }
  on_kueue_status();  // the status as it stands at the end
  settle_status();
  sample_pools();
  book_.each([&](const WorkloadBook::Entry& entry) {
    const auto it = workloads_.workloads.find(entry.key);
    record_.workloads[entry.outcome].admitted_at_end = it != workloads_.workloads.end() && it->second.admitted() &&
                                                       !it->second.finished();
  });
  record_.info.ended_at = end_;
  record_.gpu_models = gpu_usage_.summaries(end_);
  record_.gpu_model_series = gpu_usage_.take_series();
  if (options_.keep_final_objects) record_.final_objects = chain_objects(cluster_);
  if (slos) check_slos();
  // Handed over, not copied: a copy of a million-Workload record doubled the peak memory. What the
  // run was (record().info) stays readable.
  final_counters_ = counters();
  RunRecord out = std::move(record_);
  record_ = RunRecord{};
  record_.info = out.info;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Arrivals

void Simulation::on_arrival(int64_t index) {
  const WorkloadSpec& gen = scenario_.workloads[static_cast<size_t>(index)];
  RandomStream& rng = streams_[static_cast<size_t>(index)];
  const int64_t n = arrivals_[static_cast<size_t>(index)]++;
  SimTime duration;
  switch (gen.duration.kind) {
    case Duration::Kind::kFixed: duration = gen.duration.fixed; break;
    case Duration::Kind::kExponential: duration = rng.exponential(gen.duration.mean); break;
    case Duration::Kind::kLognormal: duration = rng.lognormal(gen.duration.median, gen.duration.p95); break;
  }
  const std::string base = gen.name + "-" + std::to_string(n);
  const std::string deployment = gen.replicas > 1 ? gen.namespace_ + "/" + base : "";
  for (int32_t r = 0; r < gen.replicas; ++r) {
    WorkloadRequest req;
    req.name = gen.replicas > 1 ? base + "-" + std::to_string(r) : base;
    req.namespace_ = gen.namespace_;
    req.generator = gen.name;
    req.instance_type = gen.instance_type;
    req.pod_sets = gen.pod_sets;
    req.required_topology_level = gen.required_topology_level;
    req.priority = gen.priority;
    req.priority_class_ref = gen.priority_class_ref;
    req.instance = gen.instance;
    req.template_built = gen.template_built();
    req.local_queue = gen.local_queue;
    submit(req, duration, gen.pod_deletion_delay);
    const std::string key = req.namespace_ + "/" + req.name;
    if (const WorkloadBook::Entry* entry = book_.find(key); gen.instance && entry != nullptr && entry->tracked)
      create_instance(key, record_.workloads[entry->outcome].instance_type);
    if (Tracked* t = deployment.empty() ? nullptr : book_.tracked(key)) {
      t->deployment = deployment;
      deployments_[deployment].push_back(key);
    }
  }
  // The next arrival.
  const int64_t made = arrivals_[static_cast<size_t>(index)];
  if (gen.count && made >= *gen.count) return;
  std::optional<SimTime> next;
  switch (gen.arrival.kind) {
    case Arrival::Kind::kAt:
      if (static_cast<size_t>(made) < gen.arrival.at.size()) next = gen.arrival.at[static_cast<size_t>(made)];
      break;
    case Arrival::Kind::kEvery: next = now_ + gen.arrival.every; break;
    case Arrival::Kind::kPoisson:
      next = now_ + rng.exponential(SimTime::micros(static_cast<int64_t>(1e6 / gen.arrival.rate_per_second)));
      break;
  }
  if (next && *next <= end_) schedule(*next, {SimEvent::Kind::kArrival, index, "", 0});
}

void Simulation::on_trace_arrival(int64_t index) {
  const TraceWorkload& t = scenario_.trace_workloads[static_cast<size_t>(index)];
  WorkloadRequest req;
  req.name = t.name;
  req.namespace_ = t.namespace_;
  req.generator = "trace";
  req.instance_type = options_.choose_trace_instance_type ? options_.choose_trace_instance_type(*this, t) : t.instance_type;
  req.pod_sets = t.pod_sets;
  submit(req, t.duration, SimTime());
}

void Simulation::submit(const WorkloadRequest& request, SimTime duration, SimTime pod_deletion_delay) {
  const std::string key = request.namespace_ + "/" + request.name;
  // A choice among several allowed accelerators reads the InstanceTypes' views: settle them first.
  // So does the Instance webhook (its caps are the type's status views).
  if (!request.instance_type.alternatives.empty() || request.instance) settle_status();
  BuiltWorkload built = build_workload(cluster_, request, now_);
  WorkloadOutcome outcome;
  outcome.key = key;
  outcome.generator = request.generator;
  outcome.instance_type = built.instance_type;
  outcome.cluster_queue = built.cluster_queue;
  outcome.family = built.family;
  outcome.created = now_;
  if (const auto it = cluster_.instance_types.find(built.instance_type); it != cluster_.instance_types.end())
    outcome.gpu_model = gpu_model_of_instance_type(it->second);
  if (!built.workload) {
    outcome.rejected = true;
    outcome.reject_message = built.rejection;
    outcome.last_pending_gate = built.rejected_by == "gate1" ? "gate1" : "";
    book_.add(key, record_.workloads.size());
    record_.workloads.push_back(std::move(outcome));
    log("rejected", workload_object(key), built.rejection);
    return;
  }
  WorkloadBook::Entry& entry = book_.add(key, record_.workloads.size());
  record_.workloads.push_back(std::move(outcome));
  entry.tracked = Tracked{};
  entry.tracked->generator = request.generator;
  entry.tracked->duration = duration;
  entry.tracked->pod_deletion_delay = pod_deletion_delay;
  model::Workload& wl = workloads_.workloads[key] = std::move(*built.workload);
  queues_.add(cluster_, wl);
  note_demand(key, built.instance_type, built.family, wl);
  if (logging())
    log("arrival", workload_object(key),
        "queued on LocalQueue " + wl.queue_name + " (ClusterQueue " + built.cluster_queue + "), runs " +
            format_log_duration(duration.us()));
  mark_kueue_dirty();
  ensure_cycle();
}

// ---------------------------------------------------------------------------------------------
// Kueue

void Simulation::ensure_cycle() {
  if (cycle_pending_) return;
  // Kueue's loop stays blocked in Heads() while no heap holds a Workload: no cycle to run. (A heap
  // of an inactive ClusterQueue still schedules one; it pops nothing and leaves the cadence alone.)
  if (!queues_.has_heads()) return;
  cycle_pending_ = true;
  schedule(SimTime::micros(cadence_.next_cycle_at(now_.us())), {SimEvent::Kind::kCycle, 0, "", 0});
}

void Simulation::on_cycle() {
  cycle_pending_ = false;
  if (const std::string differs = kueue_.prepare(cluster_, workloads_, queues_, options_.verify_incremental); !differs.empty()) {
    fatal_ = "at " + now_.to_string() + ": --verify: " + differs;
    return;
  }
  model::CycleResult result =
      model::schedule_cycle(cluster_, workloads_, queues_, now_.us(), kueue_config(), kueue_.for_cycle());
  // The cycle added its admissions to the kept snapshot itself.
  for (auto& a : result.admitted_usage)
    if (const WorkloadBook::Entry* entry = book_.find(a.key); entry != nullptr && entry->tracked)
      kueue_.admitted_by_cycle(workloads_, entry->id, a.key, std::move(a.usage), std::move(a.cells));
  if (const std::string stale = kueue_.stale_answer(); !stale.empty()) {
    fatal_ = "at " + now_.to_string() + ": --verify: " + stale;
    return;
  }
  apply_transitions(result.transitions);
  // A cycle that popped nothing is Kueue's loop blocked in Heads(): it does not end the iteration.
  if (result.popped > 0) {
    cadence_.cycle_ran(now_.us(), result.progressed);
    run_idle_cycles();
    ensure_cycle();
  }
}

// The cycles due before the next event (an event queued for the same instant was queued first and
// runs first), within the run, that could only park remembered heads: run at once, counted as the
// events they would have been, the clock left at the last of them.
void Simulation::run_idle_cycles() {
  if (!options_.batch_idle_cycles || options_.verify_incremental || !fatal_.empty()) return;
  const auto kept = kueue_.for_idle_cycles();
  if (!kept) return;
  int64_t last = end_.us();
  if (!events_.empty()) last = std::min(last, events_.next_at().us() - 1);
  // The SlowDown cycles Kueue's loop would run before `last` (counted in closed form once the
  // backoff is at its cap); each parks at least one head until only StrictFIFO heads are left, which
  // then come back every cycle, unchanged, until the next event.
  const int64_t due = cadence_.idle_cycles_until(now_.us(), last, std::numeric_limits<int64_t>::max());
  if (due == 0) return;
  const int64_t ran = model::run_idle_cycles(cluster_, queues_, *kept, due);
  if (ran == 0) return;
  record_.info.events += ran;
  batched_cycles_ += ran;
  now_ = SimTime::micros(cadence_.run_idle(now_.us(), ran));
}

namespace {
// The id kueue_ keeps a Workload's records under: set while the runner tracks it.
std::optional<WorkloadId> tracked_id(const WorkloadBook::Entry* entry) {
  if (entry == nullptr || !entry->tracked) return std::nullopt;
  return entry->id;
}
}  // namespace

void Simulation::apply_transitions(const std::vector<model::WorkloadTransition>& transitions) {
  for (const auto& t : transitions) {
    WorkloadBook::Entry* entry = book_.find(t.workload);
    WorkloadOutcome* outcome = entry == nullptr ? nullptr : &record_.workloads[entry->outcome];
    Tracked* ti = entry == nullptr || !entry->tracked ? nullptr : &*entry->tracked;
    if (t.type == model::TransitionType::kPending) {
      if (outcome) {
        outcome->last_pending_message = t.message;
        outcome->last_pending_gate = t.reason == model::TransitionReason::kInadmissible ? "queue" : "gate2";
      }
      if (ti != nullptr && ti->last_pending != t.message) {
        ti->last_pending = t.message;
        log("Pending", workload_object(t.workload), t.message);
      }
      continue;
    }
    // Every transition but Pending may change what is reserved (the kept usage, totals and Nodes).
    kueue_.reservation_changed(workloads_, t.workload, t.cluster_queue, tracked_id(entry));
    if (logging()) {
      const std::string reason(model::transition_reason_name(t.reason));
      log(std::string(model::transition_type_name(t.type)), workload_object(t.workload),
          t.message.empty() ? reason : reason + ": " + t.message);
    }
    if (ti != nullptr) ti->last_pending.clear();
    mark_kueue_dirty();
    if (t.type == model::TransitionType::kQuotaReserved) {
      if (outcome && !outcome->first_reserved) outcome->first_reserved = now_;
      const auto w = workloads_.workloads.find(t.workload);
      if (w != workloads_.workloads.end() && !w->second.admitted() && ti != nullptr)
        schedule(now_, {SimEvent::Kind::kCheck, entry->id.packed(), "", ti->epoch});
    } else if (t.type == model::TransitionType::kAdmitted) {
      if (entry != nullptr) on_admitted(*entry);
    } else if (t.type == model::TransitionType::kEvicted && t.reason == model::TransitionReason::kPreempted) {
      // Kueue evicted it to make room: its Pods stop, and its quota is released once they are gone.
      if (outcome) {
        ++outcome->evictions;
        ++outcome->preemptions;
      }
      if (entry != nullptr) on_preempted(*entry);
    } else if (t.type == model::TransitionType::kPreempted) {
      // The Preempted condition of the eviction just handled: logged only.
    } else if (t.type == model::TransitionType::kEvicted ||
               (t.type == model::TransitionType::kQuotaReleased && t.reason != model::TransitionReason::kFinished) ||
               t.type == model::TransitionType::kDeactivated) {
      // A finished Workload's quota release is no eviction: its Pods stay until podDeletionDelay.
      if (t.type == model::TransitionType::kEvicted && outcome) ++outcome->evictions;
      if (entry != nullptr) on_evicted(*entry);
    } else if (t.type == model::TransitionType::kFinished) {
      if (outcome && !outcome->finished) outcome->finished = now_;
    }
  }
}

void Simulation::on_admitted(WorkloadBook::Entry& entry) {
  if (!record_.workloads[entry.outcome].first_admitted) record_.workloads[entry.outcome].first_admitted = now_;
  if (!entry.tracked) return;
  schedule(now_ + scenario_.timings.pod_start, {SimEvent::Kind::kPodStart, entry.id.packed(), "", entry.tracked->epoch});
  schedule(now_ + entry.tracked->duration, {SimEvent::Kind::kFinish, entry.id.packed(), "", entry.tracked->epoch});
}

void Simulation::on_evicted(WorkloadBook::Entry& entry) {
  if (!entry.tracked) return;
  ++entry.tracked->epoch;
  delete_pods(entry, false);
  ensure_cycle();
}

// Preempted: the events of the current admission (Pod start, finish, checks) are dropped, the Pods
// are stopped and gone `podDeletionDelay` later (at once when none had started); then Kueue's job
// reconciler releases the quota and requeues the Workload (on_pods_deleted). A re-admission runs
// it again from the start.
void Simulation::on_preempted(WorkloadBook::Entry& entry) {
  if (!entry.tracked) return;
  Tracked& t = *entry.tracked;
  ++t.epoch;
  const SimTime delay = t.pods.empty() ? SimTime() : t.pod_deletion_delay;
  schedule(now_ + delay, {SimEvent::Kind::kPodsDeleted, entry.id.packed(), "", t.epoch});
}

void Simulation::on_check(int64_t id, int64_t epoch) {
  WorkloadBook::Entry* entry = book_.find(id);
  if (entry == nullptr || !entry->tracked || entry->tracked->epoch != epoch) return;
  const std::string& key = entry->key;  // the entry stays: only retire() removes one
  const auto w = workloads_.workloads.find(key);
  if (w == workloads_.workloads.end() || !w->second.quota_reserved()) return;
  for (const auto& check : w->second.status.admission_checks) {
    if (check.state != model::CheckState::kPending) continue;
    if (check.name == model::kNodeDevicesAdmissionCheck) {
      // The Workloads reserving on this one's Nodes (it holds its reservation, so its Nodes are known).
      const std::set<std::string> inflight = kueue_.reserving_beside(entry->id);
      const model::Gate3Verdict verdict = model::evaluate_node_devices(cluster_, workloads_, key, &inflight, &node_pods_.slots());
      if (options_.verify_incremental && !(verdict == model::evaluate_node_devices(cluster_, workloads_, key))) {
        fatal_ = "at " + now_.to_string() + ": --verify: Gate 3 over the Workloads reserving on its Nodes differs from Gate 3 over all";
        return;
      }
      if (logging())
        log("check", workload_object(key),
            std::string(model::kNodeDevicesAdmissionCheck) + " " + std::string(model::to_string(verdict.state)) +
                (verdict.message.empty() ? "" : ": " + verdict.message));
      if (verdict.ready()) {
        apply_transitions(model::set_admission_check_state(cluster_, workloads_, queues_, key, check.name,
                                                           model::CheckState::kReady, verdict.message, now_.us()));
        // Another check of the queue may still be pending: its controller looks next.
        const auto again = workloads_.workloads.find(key);
        if (again != workloads_.workloads.end() && again->second.quota_reserved() && !again->second.admitted())
          schedule(now_, {SimEvent::Kind::kCheck, id, "", epoch});
      } else {
        WorkloadOutcome& outcome = record_.workloads[entry->outcome];
        ++outcome.retries;
        outcome.last_pending_message = verdict.message;
        outcome.last_pending_gate = "gate3";
        auto transitions = model::set_admission_check_state(cluster_, workloads_, queues_, key, check.name,
                                                            model::CheckState::kRetry, verdict.message, now_.us());
        // Kueue requeues at once; the Workload is placed again only after the check's requeue
        // delay, and that moment (kRequeue) is what the log shows as Requeued.
        transitions.erase(std::remove_if(transitions.begin(), transitions.end(),
                                         [](const model::WorkloadTransition& t) { return t.type == model::TransitionType::kRequeued; }),
                          transitions.end());
        apply_transitions(transitions);
        queues_.remove(key);
        schedule(now_ + scenario_.kueue.admission_check_retry_delay,
                 {SimEvent::Kind::kRequeue, id, "", entry->tracked ? entry->tracked->epoch : 0});
      }
      return;  // one verdict per evaluation; the next check is looked at on the next event
    }
    if (check.name == model::kJointAdmissionCheck) {
      // Joint admission: Ready once every replica group of the deployment holds quota.
      bool all = true;
      std::vector<std::string> group{key};
      if (!entry->tracked->deployment.empty()) group = deployments_[entry->tracked->deployment];
      for (const auto& member : group) {
        const auto m = workloads_.workloads.find(member);
        if (m == workloads_.workloads.end() || !m->second.quota_reserved()) all = false;
      }
      if (!all) {
        log("check", workload_object(key),
            std::string(model::kJointAdmissionCheck) + " Pending: waiting for every replica group to reserve quota");
        return;
      }
      for (const auto& member : group) {
        apply_transitions(model::set_admission_check_state(cluster_, workloads_, queues_, member,
                                                           std::string(model::kJointAdmissionCheck),
                                                           model::CheckState::kReady, "", now_.us()));
      }
      // Re-evaluate in case other checks are still pending.
      const auto again = workloads_.workloads.find(key);
      if (again != workloads_.workloads.end() && again->second.quota_reserved() && !again->second.admitted())
        schedule(now_, {SimEvent::Kind::kCheck, id, "", entry->tracked ? entry->tracked->epoch : 0});
      return;
    }
  }
}

void Simulation::on_requeue(int64_t id, int64_t epoch) {
  const WorkloadBook::Entry* entry = book_.find(id);
  if (entry == nullptr || !entry->tracked || entry->tracked->epoch != epoch) return;
  const std::string& key = entry->key;
  const auto w = workloads_.workloads.find(key);
  if (w == workloads_.workloads.end() || w->second.quota_reserved() || w->second.finished()) return;
  queues_.add(cluster_, w->second);
  log("Requeued", workload_object(key), "back in its queue after the admission check's Retry");
  ensure_cycle();
}

// ---------------------------------------------------------------------------------------------
// Pods: Gates 4 and 5, finish and deletion

void Simulation::on_pod_start(int64_t id, int64_t epoch) {
  WorkloadBook::Entry* entry = book_.find(id);
  if (entry == nullptr || !entry->tracked || entry->tracked->epoch != epoch) return;
  const std::string& key = entry->key;
  Tracked& tracked = *entry->tracked;
  const auto w = workloads_.workloads.find(key);
  if (w == workloads_.workloads.end() || !w->second.admitted() || w->second.finished()) return;
  std::set<std::string> touched;
  bool all_started = true;
  for (model::Pod& pod : model::pods_for_admission(w->second)) {
    const std::string pod_key = model::object_key(pod.metadata);
    if (workloads_.pods.count(pod_key)) continue;
    // A PodSet Kueue gave no topology assignment (e.g. a CPU role on a queue whose resource groups
    // cover only credits) is placed by the kube-scheduler: the first schedulable Node, by name,
    // that matches its nodeSelector and required affinity and fits (Gate 4).
    if (pod.node_name.empty()) pod.node_name = schedule_unassigned_pod(pod);
    const auto node = cluster_.nodes.find(pod.node_name);
    if (node == cluster_.nodes.end()) {
      log("PodPending", "Pod " + pod_key,
          pod.node_name.empty() ? "0 nodes are available to the scheduler"
                                : "node '" + pod.node_name + "' not found");
      all_started = false;
      continue;
    }
    if (auto fit = fits_on_node(node->second, pod); !fit.ok()) {
      log("PodPending", "Pod " + pod_key, fit.error());
      record_.workloads[entry->outcome].last_pending_message = fit.error();
      record_.workloads[entry->outcome].last_pending_gate = "gate4";
      all_started = false;
      continue;
    }
    auto devices = cluster_.devices.find(pod.node_name);
    if (devices != cluster_.devices.end()) {
      // In a mode-flip window the grant is tried on a copy: Allocate fails on a flipped card and
      // then charges nothing.
      const auto flips = pending_flips_.find(pod.node_name);
      model::Devices trial;
      model::Devices& ledger = flips == pending_flips_.end() ? devices->second : (trial = devices->second);
      auto granted = model::allocate_pod(ledger, pod, cluster_.settings.device_plugin_sliced_allocate_gate);
      if (granted.ok() && flips != pending_flips_.end()) {
        if (auto s = model::check_allocation_in_flip_window(*granted, flips->second); !s.ok()) granted = model::err(s.error());
      }
      if (!granted.ok()) {
        log("PodFailed", "Pod " + pod_key, "UnexpectedAdmissionError: " + granted.error());
        record_.workloads[entry->outcome].last_pending_message = granted.error();
        record_.workloads[entry->outcome].last_pending_gate = "gate5";
        all_started = false;
        continue;
      }
      if (flips != pending_flips_.end()) devices->second = std::move(trial);
      pod.allocations = std::move(*granted);
      if (!pod.allocations.empty()) touched.insert(pod.node_name);
    }
    pod.phase = model::PodPhase::kRunning;
    if (logging()) {
      std::string where = pod.node_name;
      for (const auto& a : pod.allocations)
        where += " " + a.container + "→card " + std::to_string(a.index) +
                 (a.profile.empty() || a.profile == "-" ? "" : " " + a.profile);
      log("PodRunning", "Pod " + pod_key, "on " + where);
    }
    kueue_.note_non_tas_usage(pod, +1);
    const auto placed = workloads_.pods.insert_or_assign(pod_key, std::move(pod)).first;
    node_pods_.bind(placed.slot(), placed->second);
    tracked.pods.push_back(placed.slot());
  }
  if (!all_started) schedule(now_ + kPodRetryDelay, {SimEvent::Kind::kPodStart, id, "", epoch});
  else if (!model::has_pods_to_allocate(w->second, tracked_pods(tracked))) kueue_.pods_allocated(entry->id);
  if (!touched.empty()) resync_ledgers(touched);
}

std::string Simulation::schedule_unassigned_pod(const model::Pod& pod) {
  for (const auto& [name, node] : cluster_.nodes) {
    if (node.unschedulable || node.metadata.deletion_timestamp) continue;
    if (!model::matches_node_selector(pod.spec.node_selector, node.metadata.labels)) continue;
    if (!model::matches_required_affinity(pod.spec.required_node_affinity, node.metadata.labels, name)) continue;
    if (fits_on_node(node, pod).ok()) return name;
  }
  return "";
}

std::vector<const model::Pod*> Simulation::tracked_pods(const Tracked& tracked) const {
  std::vector<const model::Pod*> out;
  for (const auto slot : tracked.pods) out.push_back(&workloads_.pods.in_slot(slot).second);
  return out;
}

model::Status Simulation::fits_on_node(const model::Node& node, const model::Pod& pod) {
  const model::NodeRequested& kept = node_pods_.requested(node.metadata.name);
  if (options_.verify_incremental && fatal_.empty() && !(kept == model::node_requested(pods_on(node.metadata.name))))
    fatal_ = "at " + now_.to_string() + ": --verify: the kept requests of the Pods on Node " + node.metadata.name +
             " differ from their sum";
  return model::node_fits(node, kept, pod);
}

std::vector<const model::Pod*> Simulation::pods_on(const std::string& node) const {
  std::vector<const model::Pod*> out;
  if (const auto* slots = node_pods_.slots().find(node))
    for (const auto slot : *slots) out.push_back(&workloads_.pods.in_slot(slot).second);
  return out;
}

void Simulation::delete_pods(WorkloadBook::Entry& entry, bool finished_only) {
  if (!entry.tracked) return;
  Tracked& tracked = *entry.tracked;
  std::set<std::string> touched;
  bool held_cards = false;
  for (const auto slot : tracked.pods) {
    const auto p = workloads_.pods.slot_iterator(slot);
    auto devices = cluster_.devices.find(p->second.node_name);
    kueue_.note_non_tas_usage(p->second, -1);  // a finished or deleted Pod no longer counts
    // Cards a pass that found nothing withdrew keep their ledger rows aside; the Pod's charges there
    // go as they would on the record.
    const auto held = withdrawn_.find(p->second.node_name);
    if (finished_only) node_pods_.set_phase(p->second, model::PodPhase::kSucceeded);
    const bool settings_release = cluster_.settings.ledger_release_terminated_pods;
    // Stage 3 reads the cluster's ledger, not the rows set aside: only a move there touches the Node.
    if (devices != cluster_.devices.end() &&
        model::release_pod(devices->second, p->second, !finished_only, settings_release))
      touched.insert(p->second.node_name);
    if (held != withdrawn_.end()) model::release_pod(held->second, p->second, !finished_only, settings_release);
    held_cards = held_cards || !p->second.allocations.empty();
    if (!finished_only) {
      node_pods_.unbind(p.slot(), p->second);
      workloads_.pods.erase(p);
    }
  }
  if (!finished_only) tracked.pods.clear();
  kueue_.pods_released(entry.id);  // Gate 3 looks at it again while it holds a reservation
  if (!touched.empty()) resync_ledgers(touched);
  // A Pod that held cards leaves the InstanceType statuses to be recomputed when read, as a ledger
  // resync does (they are a function of the state; recomputing finds what moved, if anything).
  else if (held_cards) instance_type_status_stale_ = true;
}

void Simulation::on_finish(int64_t id, int64_t epoch) {
  WorkloadBook::Entry* entry = book_.find(id);
  if (entry == nullptr || !entry->tracked || entry->tracked->epoch != epoch) return;
  const std::string& key = entry->key;
  const auto w = workloads_.workloads.find(key);
  if (w == workloads_.workloads.end() || !w->second.admitted() || w->second.finished()) return;
  delete_pods(*entry, true);
  apply_transitions(model::finish_workload(workloads_, queues_, key, now_.us()));
  if (!record_.workloads[entry->outcome].finished) record_.workloads[entry->outcome].finished = now_;
  // (A ledger resync above may have stopped its Instance, which ends the tracking.)
  if (entry->tracked) schedule(now_ + entry->tracked->pod_deletion_delay, {SimEvent::Kind::kPodsDeleted, id, "", epoch});
  mark_kueue_dirty();
  ensure_cycle();
}

void Simulation::on_pods_deleted(int64_t id, int64_t epoch) {
  WorkloadBook::Entry* entry = book_.find(id);
  if (entry == nullptr || !entry->tracked || entry->tracked->epoch != epoch) return;
  const std::string& key = entry->key;  // retire(), last, may remove the entry
  if (!entry->tracked->pods.empty()) {
    delete_pods(*entry, false);
    const auto w = workloads_.workloads.find(key);
    if (w != workloads_.workloads.end() && w->second.finished()) record_.workloads[entry->outcome].deleted = now_;
    log("PodsDeleted", workload_object(key), "its Pods are gone; what they held is released");
  }
  const auto released = model::release_preempted(cluster_, workloads_, queues_, key, now_.us());
  if (!released.empty()) {
    apply_transitions(released);
    ensure_cycle();
  }
  retire(*entry);
}

// A finished Workload whose Pods are gone reads as finished everywhere (every Kueue and Gate 3
// computation skips it) and is never touched again: it leaves the live state, so what a cycle or
// a check walks is the live Workloads, not the run's history. Its outcome stays in the record.
void Simulation::retire(WorkloadBook::Entry& entry) {
  const auto w = workloads_.workloads.find(entry.key);
  if (w == workloads_.workloads.end() || !w->second.finished()) return;
  if (entry.tracked && !entry.tracked->pods.empty()) return;
  const auto ref = queues_.ref_of(entry.key);
  queues_.remove(entry.key);
  workloads_.workloads.remove(w);
  if (entry.tracked) untrack(entry, ref);
  // Its outcome is complete (finished, deleted; not admitted at the end): nothing looks it up again,
  // and a million-Workload run need not keep a million keys to find them. Its slot is reused.
  book_.remove(entry);
}

void Simulation::untrack(WorkloadBook::Entry& entry, std::optional<model::WorkloadRef> ref) {
  kueue_.forget(entry.id, ref);
  entry.tracked.reset();
}

// An arrival of a `kind: Instance` generator: the user's Instance, whose one Pod is the Workload
// just submitted (the Instance controller creates it; the Workload shares the Instance's name). The
// Instance controller stops it at once when its queue is draining or its type is going.
void Simulation::create_instance(const std::string& key, const std::string& instance_type) {
  model::Instance inst;
  const size_t slash = key.find('/');
  inst.metadata.namespace_ = key.substr(0, slash);
  inst.metadata.name = key.substr(slash + 1);
  inst.spec.type = instance_type;
  model::Plan plan;
  plan.writes.push_back({model::WriteVerb::kCreate, inst, "user", "an Instance of " + instance_type});
  auto next = model::apply_plan(std::move(cluster_), plan, rfc3339(now_));
  if (!next.ok()) {
    fatal_ = "at " + now_.to_string() + ": " + next.error();
    return;
  }
  cluster_ = std::move(next).value();
  cluster_.instance_pods.insert(key);
  log("write", "Instance " + key, "create by user: an Instance of " + instance_type + "; its Pod is the Workload");
  if (!model::reconcile_instances(cluster_).empty()) full_sync({}, false);
}

// The Instance controller set spec.stop on `key`: its Pod is deleted and never recreated, and
// Kueue's Workload for the Pod goes with it — neither pending nor requeued from now on.
void Simulation::stop_instance_pod(const std::string& key) {
  if (cluster_.instance_pods.erase(key) == 0) return;
  WorkloadBook::Entry* entry = book_.find(key);
  if (entry != nullptr && entry->tracked) {
    ++entry->tracked->epoch;
    delete_pods(*entry, false);
  }
  const auto w = workloads_.workloads.find(key);
  std::string cluster_queue;
  std::optional<model::WorkloadRef> ref;
  if (w != workloads_.workloads.end()) {
    if (w->second.status.admission) cluster_queue = w->second.status.admission->cluster_queue;
    ref = queues_.ref_of(key);
    queues_.remove(key);
    workloads_.workloads.remove(w);
  }
  invalidate_reservation(key, entry, cluster_queue);
  if (entry != nullptr && entry->tracked) untrack(*entry, ref);
  sync_reserved_usage(key, entry);  // no longer tracked: the kept totals are rebuilt
  log("Stopped", workload_object(key), "its Instance is stopped (spec.stop): the Pod is deleted and not recreated");
  mark_kueue_dirty();
  ensure_cycle();
}

// ---------------------------------------------------------------------------------------------
// The operator's side

void Simulation::resync(const std::set<std::string>& nodes) {
  if (nodes.empty()) {
    std::set<std::string> all;
    for (const auto& [name, node] : cluster_.nodes) all.insert(name);
    for (const auto& [name, devices] : cluster_.devices) all.insert(name);
    track_devices(all);
  } else {
    track_devices(nodes);
  }
  full_sync(nodes, true);
}

// Every controller to the fixpoint (sync_chain): it also refreshes every InstanceType status and
// may change what the TAS node index holds.
void Simulation::full_sync(const std::set<std::string>& nodes, bool stage3) {
  auto synced = sync_chain(cluster_, nodes, now_, stage3, options_.verify_incremental);
  if (!synced.ok()) {
    fatal_ = "at " + now_.to_string() + ": the operator's controllers failed: " + synced.error();
    return;
  }
  instance_type_status_stale_ = false;
  kueue_.chain_resynced();
  waiting_on_requeue_.clear();
  for (const auto& r : synced->requeues) waiting_on_requeue_.insert(r.key);
  after_chain_writes(synced->writes, synced->fit_label_nodes, synced->requeues);
}

void Simulation::track_devices(const std::set<std::string>& nodes) {
  for (const auto& n : nodes) gpu_usage_.on_node(now_, n, cluster_.nodes.count(n) ? cluster_.devices_of(n) : nullptr);
}

// The request shape of an arriving Workload's first PodSet, counted for its GPU model: credits per
// card and cards (whole cards: one card per M credits; shared: one card per share token; a slice
// or a partition: one card).
void Simulation::note_demand(const std::string& key, const std::string& instance_type, const std::string& family,
                             const model::Workload& wl) {
  const auto it = cluster_.instance_types.find(instance_type);
  if (it == cluster_.instance_types.end() || wl.pod_sets.empty()) return;
  const std::string gpu_model = gpu_model_of_instance_type(it->second);
  if (gpu_model.empty()) return;
  // The first PodSet's requests before and after the credit transformation: as the queues' info
  // of the Workload keeps them (queued just before), else derived.
  const auto ref = queues_.ref_of(key);
  const model::WorkloadInfo* queued = ref ? queues_.info(*ref) : nullptr;
  std::optional<model::WorkloadInfo> own;
  if (queued == nullptr || queued->pod_sets.empty() || queued->transformed_by != &model::kueue_effective_requests)
    queued = &own.emplace(model::workload_info(wl));
  const model::ResourceList& requests = queued->pod_sets.front().requests;
  int64_t credits = 0;
  std::string manufacturer;
  for (const auto& [name, v] : queued->pod_sets.front().kueue_amounts)
    if (name.rfind(model::keys::kCreditsPrefix, 0) == 0) {
      credits += v;
      manufacturer = name.substr(model::keys::kCreditsPrefix.size());
    }
  if (credits <= 0) return;
  int64_t cards = 1;
  if (family == "exclusive") {
    cards = std::max<int64_t>(1, credits / model::kUnitsPerAccelerator);
  } else if (family == "shared") {
    const auto names = model::resource_names_for(manufacturer);
    const auto tokens = names ? requests.find(names->shared) : requests.end();
    if (tokens != requests.end()) cards = std::max<int64_t>(1, tokens->second.value_ceil());
  }
  const std::pair<int64_t, int32_t> shape{credits / cards, static_cast<int32_t>(cards)};
  auto& counts = demand_[gpu_model];
  const int64_t seen = ++counts[shape];
  auto current = typical_.find(gpu_model);
  if (current != typical_.end() && (current->second == shape || counts[current->second] >= seen)) return;
  typical_[gpu_model] = shape;
  gpu_usage_.set_typical_request(gpu_model, TypicalRequest{shape.first, shape.second}, now_);
}

void Simulation::resync_ledgers(const std::set<std::string>& nodes) {
  track_devices(nodes);
  auto synced = sync_nodes(cluster_, nodes, now_, options_.verify_incremental);
  if (!synced.ok()) {
    fatal_ = "at " + now_.to_string() + ": the operator's controllers failed: " + synced.error();
    return;
  }
  if (synced->stage4_needed) return full_sync(nodes, true);
  instance_type_status_stale_ = true;
  after_chain_writes(synced->writes, synced->fit_label_nodes, synced->requeues);
  verify_settled("a ledger change");
}

void Simulation::verify_settled(const char* after) {
  if (!options_.verify_incremental || !fatal_.empty()) return;
  if (auto w = unsettled_write(cluster_, now_))
    fatal_ = "at " + now_.to_string() + ": --verify: after " + after +
             " the full fixpoint would still write: " + *w;
}

void Simulation::settle_status() {
  if (!instance_type_status_stale_ || !fatal_.empty()) return;
  full_sync({}, /*stage3=*/false);
}


void Simulation::sync_reserved_usage(const std::string& key, const WorkloadBook::Entry* entry) {
  kueue_.sync_usage(workloads_, key, tracked_id(entry));
}

void Simulation::invalidate_reservation(const std::string& key, const WorkloadBook::Entry* entry,
                                        const std::string& cluster_queue) {
  kueue_.reservation_moved(workloads_, key, cluster_queue, tracked_id(entry));
}

void Simulation::on_reconcile() {
  reconcile_at_.reset();
  resync({});
}

void Simulation::after_chain_writes(const std::vector<model::WriteReceipt>& writes, const std::set<std::string>& fit_nodes,
                                    const std::vector<model::Requeue>& requeues) {
  // A controller that waits on time (a drain waited out, a flavor kept while a node has no profile)
  // looks again after its delay, as controller-runtime's RequeueAfter would have it.
  for (const auto& r : requeues) {
    if (r.after_seconds <= 0) continue;
    const SimTime at = now_ + SimTime::seconds(r.after_seconds);
    if (reconcile_at_ && *reconcile_at_ <= at) continue;
    reconcile_at_ = at;
    schedule(at, {SimEvent::Kind::kReconcile, 0, "", 0});
  }
  for (const auto& w : writes) {
    const std::string kind(w.kind);
    // What Kueue's search reads: Nodes (per TAS flavor) and its own objects; not InstanceTypes,
    // Devices or Namespaces.
    if (kind == "ClusterQueue") report_every_queue_ = true;  // its listed amounts may have moved
    // A status write leaves the labels: the TAS verdicts count the Node's room again, no more.
    if (kind == "Node")
      kueue_.node_changed(w.name, w.verb == model::WriteVerb::kUpdateStatus ? model::NodeChange::kRoom
                                                                             : model::NodeChange::kAny);
    else if (kind != "InstanceType" && kind != "Devices" && kind != "Namespace" && kind != "Instance")
      kueue_.kueue_objects_changed();
    if (kind == "Node" && w.controller == "NodeCapacity") continue;  // per-allocation noise; visible in snapshots
    if (logging())
      log("write", kind + " " + (w.namespace_.empty() ? w.name : w.namespace_ + "/" + w.name),
          std::string(model::to_string(w.verb)) + " by " + w.controller + ": " + w.reason);
  }
  for (const auto& node : fit_nodes) {
    if (fit_label_pending_.insert(node).second)
      schedule(now_ + scenario_.timings.fit_label_coalesce, {SimEvent::Kind::kFitLabels, 0, node, 0});
  }
  // Kueue reacts to its own objects and to Nodes (a TAS node event); InstanceType status and
  // Devices writes alone are not Kueue events.
  const bool kueue_event = std::any_of(writes.begin(), writes.end(), [](const model::WriteReceipt& w) {
    const std::string_view kind = w.kind;
    return kind != "InstanceType" && kind != "Devices" && kind != "Namespace" && kind != "Instance";
  });
  if (kueue_event) after_queue_change();
  // The Instance controller stopped Instances (operator-domain.md §3.10): after Kueue has seen the
  // same writes (a HoldAndDrain evicts first), their Pods go, and the controller then reads them
  // Stopped.
  std::vector<std::string> stopped;
  for (const auto& w : writes) {
    if (!w.instance || w.verb != model::WriteVerb::kUpdate || !w.instance->stop) continue;
    const std::string key = model::instance_key(w.namespace_, w.name);
    if (cluster_.instance_pods.count(key) != 0) stopped.push_back(key);
  }
  for (const auto& key : stopped) stop_instance_pod(key);
  if (!stopped.empty() && fatal_.empty()) full_sync({}, false);
}

void Simulation::after_chain_writes(const std::vector<model::Write>& writes, const std::set<std::string>& fit_nodes,
                                    const std::vector<model::Requeue>& requeues) {
  std::vector<model::WriteReceipt> receipts;
  receipts.reserve(writes.size());
  for (const auto& w : writes) receipts.push_back(model::receipt_of(w));
  after_chain_writes(receipts, fit_nodes, requeues);
}

void Simulation::after_queue_change() {
  bool strategy_set = false;
  for (auto& [name, cq] : cluster_.cluster_queues) {
    if (cq.spec.queueing_strategy == scenario_.kueue.queueing_strategy) continue;
    cq.spec.queueing_strategy = scenario_.kueue.queueing_strategy;
    strategy_set = true;
  }
  // No ClusterQueue can have changed since the last sync when no Kueue object did (the epoch: a
  // Node event, a fit-label write) and no strategy was set just now. --verify's sync over every
  // Workload observes every queue anyway and must agree.
  const bool queues_unchanged = !strategy_set && observed_at_epoch_ == kueue_.kueue_epoch();
  observed_at_epoch_ = kueue_.kueue_epoch();
  bool moved = false;  // whether the sync's transitions changed anything
  if (options_.verify_incremental) {
    // The same call over every Workload, on copies, must give the same transitions.
    model::WorkloadState w = workloads_;
    model::QueueManager q = queues_;
    const auto all = model::sync_queue_states(cluster_, w, q, now_.us());
    const auto kept = model::sync_queue_states(cluster_, workloads_, queues_, now_.us(), &kueue_.reserving_by_queue(),
                                               &kueue_.active_queues(cluster_), queues_unchanged);
    if (all != kept || !(w == workloads_) || !(q == queues_)) {
      fatal_ = "at " + now_.to_string() + ": --verify: queue states synced over the kept holders differ from a walk over every Workload";
      return;
    }
    apply_transitions(kept);
    moved = !kept.empty();
  } else {
    const auto transitions = model::sync_queue_states(cluster_, workloads_, queues_, now_.us(), &kueue_.reserving_by_queue(),
                                                      &kueue_.active_queues(cluster_), queues_unchanged);
    apply_transitions(transitions);
    moved = !transitions.empty();
  }
  // sync_queue_states refreshed the queue manager first; only the transitions applied since can give
  // a second refresh anything to do. --verify refreshes a copy anyway and requires it to agree.
  if (moved) {
    queues_.refresh(cluster_);
  } else if (options_.verify_incremental) {
    model::QueueManager refreshed = queues_;
    refreshed.refresh(cluster_);
    if (!(refreshed == queues_)) {
      fatal_ = "at " + now_.to_string() + ": --verify: a queue sync without transitions left the queue manager to refresh";
      return;
    }
  }
  queues_.release_inadmissible();
  mark_kueue_dirty();
  ensure_cycle();
}

void Simulation::on_fit_labels(const std::string& node) {
  fit_label_pending_.erase(node);
  if (!write_fit_labels(cluster_, node)) return;
  kueue_.node_changed(node, model::NodeChange::kVolatileLabels);  // fit-label keys alone moved
  log("write", "Node " + node, "fit labels by NodeFitLabel after the coalescing window");
  // Only fit-label keys moved, and stage 3 decides everything else without reading them (pinned by
  // a stage-3 test); the Devices record did not move. So NodeProfile has nothing to write for this
  // Node and the labels just written are the ones due: stage 3 is not derived again. --verify
  // checks that with the whole fixpoint.
  instance_type_status_stale_ = true;
  verify_settled("a fit-label write");
  after_queue_change();  // a TAS node event
}

void Simulation::mark_kueue_dirty() {
  if (kueue_status_pending_) return;
  kueue_status_pending_ = true;
  schedule(now_ + scenario_.kueue.status_lag, {SimEvent::Kind::kKueueStatus, 0, "", 0});
}

void Simulation::on_kueue_status() {
  kueue_status_pending_ = false;
  if (options_.verify_incremental) {
    if (const std::string differs = kueue_.check_queue_totals(cluster_, workloads_, queues_); !differs.empty()) {
      fatal_ = "at " + now_.to_string() + ": --verify: " + differs;
      return;
    }
  }
  // Only the queues whose totals moved can list other amounts (unless a queue was written).
  std::optional<std::set<std::string>> moved = kueue_.take_moved_totals();
  const bool every = report_every_queue_;
  if (every) moved.reset();
  report_every_queue_ = false;
  // The report is written into the ClusterQueues in place; each written queue's view, for a queue
  // whose view the operator watches, is taken just before.
  std::vector<std::pair<const model::ClusterQueue*, WatchedView>> watched_before;
  // Under fair sharing each queue's weighted share is reported too, against the cohort tree.
  std::optional<model::QuotaTree> fair_tree;
  if (scenario_.kueue.fair_sharing) fair_tree = model::QuotaTree::build(cluster_);
  const model::QuotaTree* fair = fair_tree ? &*fair_tree : nullptr;
  const auto written = model::apply_cluster_queue_usage(
      cluster_, kueue_.queue_totals(), queues_, moved ? &*moved : nullptr,
      [&](const model::ClusterQueue& cq) {
        if (reads_reservations(cq, waiting_on_requeue_)) watched_before.emplace_back(&cq, watched_view(cq));
      },
      fair);
  if (options_.verify_incremental) {
    if (const auto missed = model::cluster_queue_usage(cluster_, kueue_.queue_totals(), queues_, nullptr, fair);
        !missed.empty()) {
      fatal_ = "at " + now_.to_string() + ": --verify: after a Kueue report over the queues whose totals moved, one over "
               "every queue would still write ClusterQueue " + missed.begin()->first;
      return;
    }
  }
  const bool changed = !written.empty();
  // Only the numbers and lists move here: the lists' shape, and for a watched queue what its view
  // reads of them.
  bool operator_reads_changed = false;
  for (const auto& w : written)
    if (w.shape_moved) operator_reads_changed = true;
  for (const auto& [cq, before] : watched_before)
    if (!(watched_view(*cq) == before)) operator_reads_changed = true;
  if (changed && !operator_reads_changed) {
    // Only the numbers moved: the operator's decisions read none of them; the InstanceType views
    // (CPU remaining) follow when read.
    instance_type_status_stale_ = true;
    verify_settled("a Kueue status report");
  } else if (changed) {
    full_sync({}, /*stage3=*/false);
    if (!fatal_.empty()) return;
  }
  // The pool series reads the queues' status, resource groups and stop policy: with no status moved
  // and no queue written since the last report, every sample is already written.
  if (changed || every || report_every_queue_ || now_ == end_) sample_pools();
}

void Simulation::sample_pools() { pool_sampler_.sample(cluster_, now_, now_ == end_, record_.pool_series); }

// ---------------------------------------------------------------------------------------------
// Expectations

WorkloadCountersSet Simulation::counters() const {
  if (final_counters_) return *final_counters_;  // the record went to finish()'s caller
  WorkloadCountersSet out;
  for (const auto& o : record_.workloads) {
    WorkloadCounters& g = out.by_generator[o.generator];
    for (WorkloadCounters* c : {&out.total, &g}) {
      if (o.rejected) {
        ++c->rejected;
        c->last_rejection = o.reject_message;
        continue;
      }
      if (o.first_admitted) ++c->admitted;
      c->evicted += o.evictions;
      c->preempted += o.preemptions;
      c->retries += o.retries;
      if (o.finished) ++c->finished;
      const auto w = workloads_.workloads.find(o.key);
      if (w == workloads_.workloads.end() || w->second.finished()) continue;
      if (w->second.admitted()) ++c->running;
      else ++c->pending;
    }
  }
  return out;
}

void Simulation::on_expect(int64_t index) { check_expectation(static_cast<size_t>(index)); }

// The `slo:` expectations, on the report of the record as it stands at the end (finish()).
void Simulation::check_slos() {
  std::optional<Report> report;
  for (const Expectation& e : scenario_.expectations) {
    if (!e.slo) continue;
    const std::string where = e.where.str();
    if (end_ < scenario_.horizon) {
      log("expect", where, "not judged: the run stopped before the horizon");
      continue;
    }
    if (!report) report = build_report(record_);
    auto failures = check_slo(e, *report, record_);
    if (failures.empty()) {
      log("expect", where, "holds");
      continue;
    }
    for (auto& f : failures) {
      log("expect", where, "FAILED: " + f.str());
      failures_.push_back(std::move(f));
    }
  }
}

void Simulation::check_expectation(size_t index) {
  settle_status();
  const Expectation& e = scenario_.expectations[index];
  const WorkloadCountersSet c = counters();
  auto failures = ::chaintwin::sim::check_expectation(e, cluster_, c.total, c.by_generator);
  const std::string where = e.where.str();
  if (failures.empty()) {
    log("expect", where, "holds");
    return;
  }
  for (auto& f : failures) {
    log("expect", where, "FAILED: " + f.str());
    failures_.push_back(std::move(f));
  }
}

}  // namespace chaintwin::sim
