// Scenario: a loaded and checked scenario file (chaintwin/v1, ../docs/scenario-format.md) — the
// cluster as real objects, the workload sources, the timeline and the expectations — in the
// shape the runner consumes. Produced by load_scenario() (scenario_loader.h); every value here
// has already been validated, so the runner never meets a bad field.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/api/devices.h"
#include "model/api/node.h"
#include "model/api/settings.h"
#include "model/api/topology_snapshot.h"
#include "model/cluster_state.h"
#include "model/device_manager/detection_pass.h"
#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/kueue_version.h"
#include "model/workload/workload.h"
#include "sim/sim_time.h"

namespace chaintwin::sim {

// Where a value came from, for messages: "scenarios/x.yaml:14".
struct SourceRef {
  std::string file;
  int line = 0;
  std::string str() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};

struct KueueOptions {
  std::string queueing_strategy = "BestEffortFIFO";  // or StrictFIFO; applied to every ClusterQueue
  SimTime admission_check_retry_delay = SimTime::seconds(30);  // Retry → placed again
  // How long one scheduling cycle's work takes (extension; Kueue runs cycles back to back and backs
  // off only when a cycle admits nothing: model/kueue/scheduler/cycle_cadence.h).
  SimTime scheduling_cycle_cost = SimTime::micros(0);
  SimTime status_lag = SimTime::seconds(1); // ClusterQueue status catches up after a change
  // Which Kueue: its version and the gates that change a decision (model/kueue/scheduler/kueue_version.h).
  model::KueueVersion version = model::kDefaultKueueVersion;
  model::KueueFeatureGates gates = model::default_feature_gates(model::kDefaultKueueVersion);
  // Kueue's configuration fairSharing.enable and fairSharing.preemptionStrategies.
  bool fair_sharing = false;
  std::vector<model::FairSharingStrategy> fair_preemption_strategies = model::KueueConfig{}.fair_preemption_strategies;
  // Kueue's configuration admissionFairSharing (effective with the AdmissionFairSharing gate).
  std::optional<model::AdmissionFairSharingConfig> admission_fair_sharing;
};

// Operator timings that shape behaviour over time (extension; defaults as the operator ships).
struct OperatorTimings {
  SimTime fit_label_coalesce = SimTime::seconds(3);  // fit labels written this long after a ledger change
  SimTime pod_start = SimTime::seconds(1); // admission → Pod bound and allocated (Gates 4–5)
  SimTime redetect_after = SimTime::minutes(2); // default device-manager re-detection after a mode flip
};

// The Device Manager DaemonSets' command-line flags (extension; the chart's
// `deviceManager.extraArgs`, appended to every manufacturer's DaemonSet; deploy-time).
struct DeviceManagerOptions {
  // --no-fast-failed: a first pass that found nothing is published (a Devices record with no
  // accelerator) instead of being held back (model/device_manager/detection_pass.h).
  bool no_fast_failed = false;
};

// One request shape for a PodSet's Pods.
struct RequestShape {
  enum class Kind { kExclusive, kShared, kSliced, kPartitioned, kCpu, kContainers };
  Kind kind = Kind::kCpu;
  int32_t cards = 0;                        // exclusive / shared
  std::optional<int32_t> memory_percentage;  // sliced
  std::optional<int64_t> memory_mib;         // sliced
  std::optional<int32_t> cores_percentage;   // sliced
  std::string profile;                       // partitioned, e.g. "3g.40gb"
  model::Quantity cpu;                       // host CPU per Pod (optional for accelerator shapes)
  model::Quantity memory;                    // host memory per Pod
  // kContainers: explicit containers (raw resource names), for request-rule cases.
  std::vector<model::Container> init_containers;
  std::vector<model::Container> containers;
};

struct PodSetSpec {
  std::string name = "main";
  int32_t count = 1;
  RequestShape request;
  SourceRef where;
};

// The Poisson rates the runner can draw from: a mean interval (1 / rate) between 1 µs and 10000 days,
// so that it is a whole, representable number of microseconds.
constexpr double kMinRatePerSecond = 1.0 / (10000.0 * 86400.0);
constexpr double kMaxRatePerSecond = 1e6;
constexpr bool rate_in_range(double per_second) {
  return per_second >= kMinRatePerSecond && per_second <= kMaxRatePerSecond;
}

// Arrival process of a generator.
struct Arrival {
  enum class Kind { kPoisson, kEvery, kAt };
  Kind kind = Kind::kAt;
  double rate_per_second = 0;  // poisson (parsed from "12/h" or "1.5/h"), within rate_in_range
  SimTime every;               // every
  std::vector<SimTime> at;     // at
};

struct Duration {
  enum class Kind { kFixed, kExponential, kLognormal };
  Kind kind = Kind::kFixed;
  SimTime fixed;
  SimTime mean;    // exponential
  SimTime median;  // lognormal
  SimTime p95;     // lognormal
};

// Which InstanceType a workload queues on: by name, or by accelerator (product / aKey), or the
// CPU pool. Resolved by the runner against the converged chain when the workload arrives.
// A trace pod allowed on several accelerators (openb gpu_spec "V100M16|V100M32") lists the others
// in `alternatives`: the runner then picks one of their InstanceTypes when the workload arrives
// (sim/runner/workload_factory.h, choose_instance_type).
struct InstanceTypeSelector {
  std::string name;         // InstanceType name
  std::string accelerator;  // product name or accelerator key (e.g. nvidia-h100-80gb-hbm3)
  std::vector<std::string> alternatives;  // further accelerators it may queue on instead
  bool operator==(const InstanceTypeSelector&) const = default;
};

// A workload source: a generator (arrival process) or one explicit workload (kAt with one time).
struct WorkloadSpec {
  std::string name;  // generator name; workloads are named "<name>-<n>"
  std::string namespace_ = "default";
  Arrival arrival;
  Duration duration;
  std::optional<int64_t> count;  // stop after this many
  InstanceTypeSelector instance_type;
  std::vector<PodSetSpec> pod_sets;  // one Workload carries them all (joint admission)
  std::string required_topology_level;
  int32_t priority = 0;
  // Where the priority comes from instead (Kueue's jobframework): a WorkloadPriorityClass (the
  // kueue.x-k8s.io/priority-class label) or a PriorityClass (the Pod template's priorityClassName);
  // with neither and no `priority`, the global default PriorityClass. Resolved at load into priority.
  std::string workload_priority_class;
  std::string priority_class;
  bool priority_given = false;  // `priority:` was written
  std::optional<model::PriorityClassRef> priority_class_ref;  // the class resolved at load, if any
  int32_t replicas = 1;               // ModelDeployment replicas: one Workload per replica group
  SimTime pod_deletion_delay;         // finish → Pods deleted
  // kind: Instance — each arrival is an Instance (worker.gpustack.ai) of the chosen type, named as
  // its Workload, whose one Pod is that Workload; the Instance controller may stop it (§3.10).
  bool instance = false;
  // kind: Job | JobSet | RayJob — a template-built Workload: Kueue builds it from the job's Pod
  // template, which the Pod webhook never sees (operator-domain §10.14): no fold, no request rules.
  std::string kind = "Workload";  // Workload | Instance | Job | JobSet | RayJob
  // localQueue: an admin's LocalQueue (in `namespace_`) to queue on instead of an InstanceType's.
  std::string local_queue;
  bool template_built() const { return kind == "Job" || kind == "JobSet" || kind == "RayJob"; }
  SourceRef where;
};

// A workload read from a trace: already concrete.
struct TraceWorkload {
  std::string name;
  std::string namespace_ = "default";
  SimTime arrival;
  SimTime duration;
  InstanceTypeSelector instance_type;
  std::vector<PodSetSpec> pod_sets;
};

struct TimelineAction {
  enum class Kind {
    kAddNode, kRemoveNode, kCordon, kUncordon, kSetManaged, kSetPartitioning, kSetSetting, kSetInactive,
    kDelete, kKubeletRestart, kDetectionPass, kTopologySnapshot, kTopologyReadFailure,
    kFinishWorkload,  // (extension) the Workload's job ends now, as if its duration were up
    kAddNamespace,    // (extension) a Namespace is created
  };
  Kind kind = Kind::kCordon;
  SimTime at;
  std::string node;                  // node actions
  std::optional<model::Node> new_node;        // add-node
  std::optional<model::Devices> new_devices;  // add-node with accelerators
  bool value = false;                // set-managed, set-inactive
  std::vector<int32_t> cards;        // set-partitioning
  std::string mode;                  // set-partitioning: "mig" | "logical"
  std::optional<SimTime> redetect_after;
  std::optional<SimTime> ledger_after;  // add-node: the Devices ledger is published this long after joining
  std::optional<SimTime> detect_after;  // add-node: the Device Manager's first detection, this long after joining
  SimTime restart_for;                  // kubelet-restart: how long the device plugins stay unregistered
  model::DetectionOutcome outcome = model::DetectionOutcome::kFound;  // detection-pass
  std::string manufacturer;          // detection-pass: one manufacturer's Device Manager ("" = every one on the node)
  std::string setting_name;          // set-setting
  std::string setting_value;
  std::string instance_type;         // set-inactive
  std::string kind_name;             // delete: "InstanceType" | "ClusterQueue" | "TopologySource"
  std::string object_name;           // delete; add-namespace: the Namespace
  std::string workload;              // finish-workload: "<namespace>/<name>"
  // topology-snapshot / topology-read-failure: the writing TopologySource and what its arm reads
  // from now on (a snapshot, or a failure with the operator's reason and message).
  std::string source;
  model::TopologyRead read;
  SourceRef where;
};

// A comparison on a counter: "== 4", ">= 480", "<= 3".
struct Comparison {
  std::string op = "==";  // "==", "!=", ">=", "<=", ">", "<"
  int64_t value = 0;
  bool holds(int64_t got) const;
  std::string str() const;  // ">= 480"
};

// A comparison on a decimal such as ">= 0.9": the value kept exactly as mantissa ÷ 10^scale.
struct DecimalComparison {
  std::string op = "==";  // "==", "!=", ">=", "<=", ">", "<"
  int64_t mantissa = 0;   // 0.9 → 9
  int32_t scale = 0;      // 0.9 → 1
  std::string text;       // as written, "0.9"
  // numerator / denominator op value, exactly (denominator > 0).
  bool holds(int64_t numerator, int64_t denominator) const;
  bool holds(double got) const;  // for ratios that are already floating point
  std::string str() const;       // ">= 0.9"
};

// A bound on one wait percentile: "<= 15m".
struct WaitBound {
  std::string op = "<=";  // "==", "!=", ">=", "<=", ">", "<"
  SimTime value;
  std::string str() const;  // "<= 15m"
};

// `slo:` in expect (at: end only): service levels of one class, pool or GPU model, judged on the
// run's report (sim/scenario/slo_check.h).
struct SloExpectation {
  enum class Subject { kClass, kPool, kGpuModel };
  Subject subject = Subject::kClass;
  std::string name;                       // generator ("trace" for the trace), ClusterQueue, accelerator key
  std::map<std::string, WaitBound> wait;  // "p50", "p90", "p95", "p99", "max"
  std::optional<DecimalComparison> admitted_fraction;
  std::optional<Comparison> never_admitted;
  std::optional<DecimalComparison> utilization;  // pool and gpuModel only
};

struct Expectation {
  std::optional<SimTime> at;  // nullopt: `end`
  SourceRef where;
  // Exactly one subject.
  std::string cluster_queue;
  std::string node;
  std::string instance_type;
  std::string topology_source;
  std::string resource_flavor;
  std::string instance;  // "<namespace>/<name>"
  std::string devices;   // a Devices record (named after its Node)
  bool workloads = false;
  // ClusterQueue checks
  std::optional<std::string> stop_policy;
  std::map<std::string, int64_t> nominal_credits;  // manufacturer → credits
  std::map<std::string, std::optional<std::string>> annotations;  // value nullopt: must be absent
  std::map<std::string, std::string> conditions;   // type → "Status" or "Status/Reason" (also TopologySource)
  // TopologySource checks (conditions above): condition messages, status.lastSuccessfulRevision,
  // how many NodeFeatures it owns.
  model::StringMap condition_messages;  // type → exact message
  std::optional<std::string> last_successful_revision;
  std::optional<int64_t> node_features;
  // Node checks
  std::map<std::string, std::string> capacity;  // resource → quantity string
  std::set<std::string> capacity_absent;        // resources that must not be in status.capacity
  std::map<std::string, std::optional<std::string>> allocatable;  // nullopt: must be absent
  std::map<std::string, std::optional<std::string>> labels;  // value nullopt: label must be absent
  // ResourceFlavor and Devices checks
  std::optional<bool> exists;       // the object is (not) there
  std::optional<int64_t> cards;     // Devices: accelerators listed in spec.groups
  std::optional<bool> terminating;  // it carries a deletionTimestamp (finalizers hold it)
  // InstanceType checks: view → "onceMaxRequest/remaining" (cpu: "onceMaxRequest/capacity"), phase
  std::map<std::string, std::string> status;
  std::optional<std::string> phase;  // also an Instance's status.phase
  // Instance checks: spec.stop (phase above)
  std::optional<bool> stop;
  // Workload counters (admitted, running, pending, evicted, preempted, retries, finished, rejected)
  std::string workload_name;  // scope to one generator; empty = all
  std::map<std::string, Comparison> counters;
  std::optional<std::string> rejected_message;  // rejectedMessage: the last rejected workload's message
  // Service levels (at: end only)
  std::optional<SloExpectation> slo;
};

// A trace a scenario references (`workloads: - trace: {...}`), paths resolved against the
// scenario file. Its rows become trace_workloads when the importer reads it.
// `fullDemand:` of a trace entry: the openb paper's full-demand experiment over this trace, as
// `chaintwin full-demand SCENARIO` runs it (docs/traces.md, "Full demand"); `chaintwin run` replays
// the trace in time and does not read it.
struct FullDemandSpec {
  std::vector<std::string> placement{"chain"};  // best-fit, fgd, chain: who places the pods
  int64_t tune_permille = 1300;                 // tune: the demand to reach, × the GPU capacity
  int64_t seeds = 10;
  uint64_t first_seed = 42;
  std::string chooser = "most-free";            // the chain's model chooser
  SourceRef where;
};

struct TraceSource {
  std::string format;  // "openb"
  std::string nodes;   // path as resolved
  std::string pods;
  bool take_nodes = true;        // the trace's nodes join the cluster (takeNodes)
  std::optional<int64_t> limit;  // only the first N imported pods (limit)
  bool include_unscheduled = false;  // unscheduled: include (default skip)
  std::string default_model;     // defaultModel: openb code for pods without gpu_spec ("" = most common)
  std::optional<FullDemandSpec> full_demand;  // fullDemand
  SourceRef where;
};

// Workload counters as `expect: workloads:` reads them (scenario-format.md, Meaning).
struct WorkloadCounters {
  int64_t admitted = 0;  // admitted at least once
  int64_t running = 0;   // admitted now
  int64_t pending = 0;   // queued and not admitted now
  int64_t evicted = 0;   // evictions so far
  int64_t preempted = 0;  // of which by Kueue's preemption
  int64_t retries = 0;   // admission-check Retry verdicts so far
  int64_t finished = 0;
  int64_t rejected = 0;  // refused at Gate 1
  std::string last_rejection;  // the message of the last-arrived rejected workload ("" = none)
  bool operator==(const WorkloadCounters&) const = default;
};

struct Scenario {
  std::string file;  // as given
  std::string name;
  std::string description;
  uint64_t seed = 0;
  SimTime horizon = SimTime::hours(24);
  model::Settings settings;
  KueueOptions kueue;
  OperatorTimings timings;
  DeviceManagerOptions device_manager;
  model::ClusterState cluster;  // Nodes, Devices, Namespaces, Settings, InstanceTypes, ... as given
  // cluster.nodes[].podsOutsideKueue: Pods bound and Running from the start, not Kueue's, their
  // cards already charged in cluster.devices (the device plugin's allocation), in generator order.
  std::vector<model::Pod> pods_outside_kueue;
  std::vector<WorkloadSpec> workloads;
  std::vector<TraceWorkload> trace_workloads;
  std::vector<TraceSource> traces;  // referenced traces (extension of the loaded shape)
  std::vector<TimelineAction> timeline;  // sorted by `at`, stable
  std::vector<Expectation> expectations;
  std::string content_hash;  // FNV-64 hex over the bytes of every file read
};

}  // namespace chaintwin::sim
