// Simulation: the discrete-event runner. It owns the simulated cluster (the ClusterState the API
// server would hold, the Workloads and Pods, Kueue's queues) and advances it one event at a time:
// arrivals from the scenario's generators and traces, Kueue scheduling cycles, the node-devices
// admission check, Pod starts (Gates 4–5), finishes and Pod deletions, timeline actions, the
// operator's delayed writes (fit labels after the coalescing window, device re-detection after a
// mode flip) and Kueue's status catching up. After every change the operator's controllers run to
// their fixpoint (chain_sync.h). Events are ordered by (time, sequence) and every random draw comes
// from a per-generator stream, so one scenario and seed always give the same run.
//
// Used by `chaintwin run` and `chaintwin check` (sim/cli), and by the GUI, which steps it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/device_manager/detection_pass.h"
#include "model/kueue/scheduler/queue_manager.h"
#include "model/kueue/scheduler/admission_lifecycle.h"
#include "model/kueue/scheduler/cycle_cadence.h"
#include "model/kueue/scheduler/scheduler.h"
#include "model/device_manager/mode_flip_window.h"
#include "model/stage4/plan.h"
#include "model/cluster_state.h"
#include "model/workload/workload.h"
#include "sim/event_queue.h"
#include "sim/random_stream.h"
#include "sim/results/gpu_model_usage.h"
#include "sim/results/pool_sampler.h"
#include "sim/results/run_record.h"
#include "sim/scenario/expectation_check.h"
#include "sim/runner/kueue_cache.h"
#include "sim/runner/node_pods.h"
#include "sim/runner/workload_book.h"
#include "sim/runner/workload_factory.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

class Simulation;

struct RunOptions {
  std::optional<uint64_t> seed;   // overrides the scenario's seed
  std::optional<SimTime> until;   // stop earlier than the horizon
  bool keep_events = true;        // keep the event log in the RunRecord
  // Keep the chain's objects as the run left them (RunRecord::final_objects: --db's final_objects
  // table, the GUI's run files); a run that writes neither skips serializing the whole cluster.
  bool keep_final_objects = true;
  std::function<void(const EventRecord&)> on_event;             // every event-log line as it happens
  std::function<void(SimTime now, SimTime end)> on_progress;    // after each processed event
  std::string version;            // the chaintwin build, recorded in RunInfo
  // After every event handled by a fast path (a ledger-only change, a Kueue status that moves no
  // operator decision), run the full fixpoint on a copy and stop the run if it would write anything
  // but InstanceType statuses. Slow (the whole chain per event); for tests and `--verify`.
  bool verify_incremental = false;
  // Run the Kueue cycles that fall before the next event and can only park heads whose not-fit
  // verdict is remembered (model::run_idle_cycles) in one go instead of one event each; they still
  // count as events. Off under verify_incremental, so that every cycle checks the memo.
  bool batch_idle_cycles = true;
  // Consulted when a trace workload arrives, before its Workload is built: the InstanceType
  // selector to use instead of the trace's (the full-demand experiment's model chooser,
  // sim/fulldemand/chain_full_demand.h). Unset: the trace's selector.
  std::function<InstanceTypeSelector(const Simulation&, const TraceWorkload&)> choose_trace_instance_type;
};

// What one event is about; `epoch` guards events scheduled for a Workload's earlier admission.
struct SimEvent {
  enum class Kind {
    kArrival,      // index = generator
    kTraceArrival, // index = trace workload
    kCycle,        // a Kueue scheduling cycle
    // The next five name a Workload by its id (index = WorkloadId::packed(), workload_book.h).
    kCheck,        // the gpustack-node-devices check evaluates the Workload
    kPodStart,     // the Workload's Pods are created, bound and allocated
    kFinish,       // the Workload completes
    kPodsDeleted,  // the Workload's Pods are deleted
    kRequeue,      // the Workload re-enters its queue after an admission-check Retry
    kTimeline,     // index = timeline action
    kRedetect,     // the device manager re-detects `key` (a Node) after a mode flip; index = action
    kFitLabels,    // the operator writes the fit labels of `key` (a Node)
    kKueueStatus,  // Kueue's ClusterQueue status catches up
    kExpect,       // index = expectation
    kReconcile,    // a controller asked to look again after a delay (a Plan's Requeue)
    kTopologySource,  // the TopologySource controller reconciles `key` again (a poll, a staleness deadline)
  };
  Kind kind = Kind::kCycle;
  int64_t index = 0;
  std::string key;
  int64_t epoch = 0;
};

struct WorkloadCountersSet {
  WorkloadCounters total;
  std::map<std::string, WorkloadCounters> by_generator;
};

class Simulation {
 public:
  Simulation(Scenario scenario, RunOptions options);

  // Brings the initial cluster to the operator's fixpoint and schedules the scenario. Refuses
  // (with the reason) a cluster the controllers cannot settle.
  model::Status start();
  // Processes the next event; false when the run is over (no event before the end).
  bool step();
  // start(), every step, then finish(): the whole run.
  model::Result<RunRecord> run();
  // Closes the run at the end time: expectations `at: end`, final samples and objects. The record
  // is handed over: record() keeps only its info afterwards.
  RunRecord finish();
  // Why the run stopped early (a broken invariant, a controller failure); empty while it runs.
  const std::string& fatal() const { return fatal_; }

  SimTime now() const { return now_; }
  // When the next event is due; nullopt when none is left before the end (or the run failed).
  std::optional<SimTime> next_event_at() const;
  SimTime end() const { return end_; }
  const Scenario& scenario() const { return scenario_; }
  const model::ClusterState& cluster() const { return cluster_; }
  const model::WorkloadState& workloads() const { return workloads_; }
  const model::QueueManager& queues() const { return queues_; }
  // The Pods bound to each Node and what they request (node_pods.h).
  const NodePods& node_pods() const { return node_pods_; }
  // Node → cards the admin flipped that the Device Manager has not re-detected yet.
  const std::map<std::string, std::vector<model::PendingModeFlip>>& pending_flips() const { return pending_flips_; }
  const RunRecord& record() const { return record_; }
  const std::vector<ExpectationFailure>& failures() const { return failures_; }
  WorkloadCountersSet counters() const;
  // Kueue cycles run by run_idle_cycles in a batch instead of one event each (counted in events).
  int64_t batched_cycles() const { return batched_cycles_; }
  // Brings the InstanceType statuses up to date (the fast paths leave them to be recomputed when
  // read): call before reading cluster() for them. Expectations and finish() do.
  void settle_status();

 private:
  void schedule(SimTime at, SimEvent event);
  void log(const std::string& kind, const std::string& object, const std::string& message);
  // Whether an event-log line goes anywhere (RunOptions::on_event or keep_events): a hot path
  // builds its line only then.
  bool logging() const { return options_.on_event != nullptr || options_.keep_events; }
  void dispatch(const SimEvent& e);

  // Event handlers.
  void on_arrival(int64_t generator);
  void on_trace_arrival(int64_t index);
  void on_cycle();
  // The simulated Kueue's configuration: the scenario's feature gates, the operator's defaults else.
  model::KueueConfig kueue_config() const {
    model::KueueConfig c;
    c.version = scenario_.kueue.version;
    c.gates = scenario_.kueue.gates;
    c.fair_sharing = scenario_.kueue.fair_sharing;
    c.fair_preemption_strategies = scenario_.kueue.fair_preemption_strategies;
    c.admission_fair_sharing = scenario_.kueue.admission_fair_sharing;
    return c;
  }
  // Each takes the Workload's id and the epoch the event was scheduled in (workload_book.h).
  void on_check(int64_t id, int64_t epoch);
  void on_pod_start(int64_t id, int64_t epoch);
  void on_finish(int64_t id, int64_t epoch);
  void on_pods_deleted(int64_t id, int64_t epoch);
  void on_requeue(int64_t id, int64_t epoch);
  void on_timeline(int64_t index);
  void on_redetect(int64_t index);
  // detection_passes.cpp: one pass of `manufacturer`'s Device Manager on `node`, decided and applied
  // to the cluster (model/device_manager/detection_pass.h); the caller resyncs.
  model::DetectionDecision detection_pass(const std::string& node, const std::string& manufacturer,
                                          model::DetectionOutcome outcome);
  // The Node and Devices record `node` was specified with (the add-node that brought it, else the
  // scenario's cluster): its hardware, as the Device Manager publishes it once detected.
  const model::Node* specified_node(const std::string& node) const;
  const model::Devices* specified_devices(const std::string& node) const;
  // Every manufacturer the node's hardware has a Device Manager for.
  std::vector<std::string> manufacturers_on(const std::string& node) const;
  void forget_detection(const std::string& node);  // the Node left
  void on_fit_labels(const std::string& node);
  void on_kueue_status();
  void on_expect(int64_t index);
  void on_topology_source(const std::string& name, int64_t epoch);

  // The TopologySource controller (topology_sources.cpp): what each writing source's arm reads,
  // one reconcile of a source (its NodeFeatures, NFD's projection onto the Nodes, its status,
  // its next requeue), and every writing source at once (a Node joined or left).
  size_t start_topology_sources();  // returns the writes it applied
  std::vector<model::Write> reconcile_topology_source(const std::string& name);
  void reconcile_writing_sources();
  void delete_topology_source(const std::string& name);
  void collect_node_features(const std::string& node);

  // Shared steps.
  void submit(const WorkloadRequest& request, SimTime duration, SimTime pod_deletion_delay);
  void apply_transitions(const std::vector<model::WorkloadTransition>& transitions);
  // The runner's side of a Workload's transitions (`entry`: its book entry).
  void on_admitted(WorkloadBook::Entry& entry);
  void on_evicted(WorkloadBook::Entry& entry);
  void on_preempted(WorkloadBook::Entry& entry);
  void delete_pods(WorkloadBook::Entry& entry, bool finished_only);
  std::string schedule_unassigned_pod(const model::Pod& pod);
  std::vector<const model::Pod*> pods_on(const std::string& node) const;  // Pending or Running Pods bound there
  // Gate 4 for `pod` on `node`, against the kept requests there (under --verify, checked against
  // the Pods' own sum first: a difference ends the run).
  model::Status fits_on_node(const model::Node& node, const model::Pod& pod);
  std::vector<const model::Pod*> tracked_pods(const Tracked& tracked) const;  // the Pods a Workload started
  // A finished Workload whose Pods are gone leaves the live state and the book.
  void retire(WorkloadBook::Entry& entry);
  // kind: Instance — the Instance object of an arrival, and the end of its Pod when it is stopped.
  void create_instance(const std::string& key, const std::string& instance_type);
  void stop_instance_pod(const std::string& key);
  void track_devices(const std::set<std::string>& nodes);
  void note_demand(const std::string& key, const std::string& instance_type, const std::string& family,
                   const model::Workload& wl);
  void resync(const std::set<std::string>& nodes);
  void resync_ledgers(const std::set<std::string>& nodes);
  void full_sync(const std::set<std::string>& nodes, bool stage3);
  void verify_settled(const char* after);
  void after_chain_writes(const std::vector<model::WriteReceipt>& writes, const std::set<std::string>& fit_nodes,
                          const std::vector<model::Requeue>& requeues);
  // The same for whole writes (a topology source's, a timeline action's): their receipts.
  void after_chain_writes(const std::vector<model::Write>& writes, const std::set<std::string>& fit_nodes,
                          const std::vector<model::Requeue>& requeues);
  void on_reconcile();
  // A Workload's reservation moved (`cluster_queue`: where it held quota before): kueue_ follows.
  // `entry`: its book entry (null when it has none); kueue_ keeps records of tracked ones only.
  void invalidate_reservation(const std::string& key, const WorkloadBook::Entry* entry, const std::string& cluster_queue);
  // Brings kueue_'s kept usage up to date with one Workload's reservation.
  void sync_reserved_usage(const std::string& key, const WorkloadBook::Entry* entry);
  // The Simulation stops tracking `entry`'s Workload (`ref`: its QueueManager ref, taken before
  // its removal).
  void untrack(WorkloadBook::Entry& entry, std::optional<model::WorkloadRef> ref);
  void after_queue_change();
  void ensure_cycle();
  void run_idle_cycles();
  void mark_kueue_dirty();
  void sample_pools();
  void check_expectation(size_t index);
  void check_slos();  // the slo: expectations, once the record is complete (finish)

  Scenario scenario_;
  RunOptions options_;
  uint64_t seed_ = 0;
  SimTime now_;
  SimTime end_;
  EventQueue<SimEvent> events_;
  model::ClusterState cluster_;
  model::WorkloadState workloads_;
  model::QueueManager queues_;
  std::vector<RandomStream> streams_;           // one per generator
  std::optional<uint64_t> observed_at_epoch_;   // kueue_.kueue_epoch() at the last queue sync
  std::vector<int64_t> arrivals_;               // per generator: workloads created so far
  // Every Workload given to the run: its id, its outcome's index in record_.workloads and, while
  // tracked, its Tracked record. Nothing walks it on an event (a walk whose order could show sorts
  // the keys first).
  WorkloadBook book_;
  std::set<std::string> fit_label_pending_;      // Nodes with a fit-label write scheduled
  std::map<std::string, std::vector<std::string>> deployments_;  // deployment → its Workloads
  std::optional<WorkloadCountersSet> final_counters_;  // counters() as finish() left them
  std::string fatal_;                              // a broken invariant stops the run
  static constexpr int64_t kMaxEventsInOneInstant = 2'000'000;
  int64_t events_in_instant_ = 0;                  // events handled since simulated time last moved
  bool cycle_pending_ = false;
  model::CycleCadence cadence_;  // when Kueue's loop runs its next cycle
  std::optional<SimTime> reconcile_at_;  // the earliest requeued reconcile already scheduled
  bool kueue_status_pending_ = false;
  // A ClusterQueue was written or an admin action ran since the last Kueue report: the next one
  // compares every queue's listed amounts, not only those whose totals moved.
  bool report_every_queue_ = true;
  bool instance_type_status_stale_ = false;  // the fast paths skipped the InstanceType controller
  // The objects the last full fixpoint left a requeue on: the queues whose operator decisions wait
  // on something, so a Kueue report on their reservations may move them.
  std::set<std::string> waiting_on_requeue_;
  KueueCache kueue_;  // Kueue's kept state between cycles (kueue_cache.h)
  NodePods node_pods_;  // the Pods bound to each Node, and what they request
  // Writing TopologySources: what the arm reads now and the epoch of the source's latest requeue.
  struct TopologyArm {
    model::TopologyRead read;
    int64_t epoch = 0;
  };
  std::map<std::string, TopologyArm> topology_arms_;
  std::set<size_t> timeline_done_at_start_;  // topology actions at 0s, read before the cluster settles
  // Node → cards flipped by the admin and not yet re-detected (model/device_manager/mode_flip_window.h).
  std::map<std::string, std::vector<model::PendingModeFlip>> pending_flips_;
  // Detection passes (model/device_manager/detection_pass.h). Node → manufacturer → where its Device Manager
  // stands, for those not kDetected; Node → the groups a pass that found nothing withdrew, their
  // ledger rows still charged for the Pods holding those cards (released as the Pods go, so a later
  // detection publishes what the Pods still hold); Node → the add-node (timeline index) that brought it.
  std::map<std::string, std::map<std::string, model::DetectionStanding>> detection_standing_;
  std::map<std::string, model::Devices> withdrawn_;
  std::map<std::string, int64_t> joined_by_;
  GpuModelUsage gpu_usage_;  // per GPU model: credits allocated and fragmented over time
  // Per GPU model, how many arrivals asked for each (credits per card, cards) request: the most
  // common one so far is the model's typical request.
  std::map<std::string, std::map<std::pair<int64_t, int32_t>, int64_t>> demand_;
  std::map<std::string, std::pair<int64_t, int32_t>> typical_;
  bool started_ = false;
  int64_t batched_cycles_ = 0;
  RunRecord record_;
  std::vector<ExpectationFailure> failures_;
  PoolSampler pool_sampler_;
};

}  // namespace chaintwin::sim
