// where_waiting(): the gate a Workload is held at, read off its conditions, its admission checks,
// its place in Kueue's queues and, once admitted, its Pods (Gates 4 and 5 are decided again on the
// Node and a copy of its ledger, exactly as the runner decides them).
#include <algorithm>
#include <map>

#include "model/admission/device_allocator.h"
#include "model/admission/node_fit.h"
#include "model/admission/pods_for_admission.h"
#include "model/explain/explanation.h"
#include "model/kueue/scheduler/node_match.h"

namespace chaintwin::model {

std::string_view gate_id(Gate gate) {
  switch (gate) {
    case Gate::kGate1: return "gate1";
    case Gate::kQueue: return "queue";
    case Gate::kGate2: return "gate2";
    case Gate::kGate3: return "gate3";
    case Gate::kGate4: return "gate4";
    case Gate::kGate5: return "gate5";
  }
  return "?";
}

std::string_view gate_title(Gate gate) {
  switch (gate) {
    case Gate::kGate1: return "Gate 1 (the Pod webhook)";
    case Gate::kQueue: return "LocalQueue → ClusterQueue";
    case Gate::kGate2: return "Gate 2 (Kueue quota and topology)";
    case Gate::kGate3: return "Gate 3 (the gpustack-node-devices admission check)";
    case Gate::kGate4: return "Gate 4 (node fit)";
    case Gate::kGate5: return "Gate 5 (device allocation)";
  }
  return "?";
}

std::optional<Gate> gate_named(std::string_view id) {
  for (Gate g : {Gate::kGate1, Gate::kQueue, Gate::kGate2, Gate::kGate3, Gate::kGate4, Gate::kGate5})
    if (gate_id(g) == id) return g;
  return std::nullopt;
}

std::string_view workload_standing_name(WorkloadStanding standing) {
  switch (standing) {
    case WorkloadStanding::kWaiting: return "waiting";
    case WorkloadStanding::kRunning: return "running";
    case WorkloadStanding::kAdmitted: return "admitted";
    case WorkloadStanding::kFinished: return "finished";
    case WorkloadStanding::kAbsent: return "absent";
  }
  return "?";
}

namespace {

std::string condition_text(const Condition& c) { return c.type + "=" + c.status + " (" + c.reason + ")"; }

// The Pods bound to `node` that count for the scheduler.
std::vector<const Pod*> bound_pods(const WorkloadState& workloads, const std::string& node) {
  std::vector<const Pod*> out;
  for (const auto& [key, pod] : workloads.pods)
    if (pod.node_name == node) out.push_back(&pod);
  return out;
}

// Gates 4 and 5 for one Pod not yet running, decided as the runner decides them: the Node's fit
// against the Pods bound there, then Allocate on a copy of the ledger.
WaitingPlace pod_place(const ClusterState& cluster, const WorkloadState& workloads, const Pod& pod) {
  WaitingPlace out;
  out.standing = WorkloadStanding::kWaiting;
  out.gate = Gate::kGate4;
  out.node = pod.node_name;
  const std::string pod_key = object_key(pod.metadata);
  if (pod.node_name.empty()) {
    // A PodSet Kueue placed without a topology: the kube-scheduler picks the first Node that fits.
    size_t fitting = 0;
    for (const auto& [name, node] : cluster.nodes) {
      if (node.unschedulable || node.metadata.deletion_timestamp) continue;
      if (!matches_node_selector(pod.spec.node_selector, node.metadata.labels)) continue;
      if (!matches_required_affinity(pod.spec.required_node_affinity, node.metadata.labels, name)) continue;
      if (node_fits(node, bound_pods(workloads, name), pod).ok()) ++fitting;
    }
    out.condition = "Pod " + pod_key + " PodScheduled=False";
    out.reason = fitting == 0 ? "0/" + std::to_string(cluster.nodes.size()) + " nodes are available"
                              : "the Pod is being created and bound (" + std::to_string(fitting) + " Nodes fit)";
    return out;
  }
  const auto node = cluster.nodes.find(pod.node_name);
  if (node == cluster.nodes.end()) {
    out.condition = "Pod " + pod_key + " PodScheduled=False";
    out.reason = "node '" + pod.node_name + "' not found";
    return out;
  }
  if (auto fit = node_fits(node->second, bound_pods(workloads, pod.node_name), pod); !fit.ok()) {
    out.condition = "Pod " + pod_key + " PodScheduled=False";
    out.reason = fit.error();
    return out;
  }
  if (const Devices* devices = cluster.devices_of(pod.node_name)) {
    Devices trial = *devices;
    auto granted = allocate_pod(trial, pod, cluster.settings.device_plugin_sliced_allocate_gate);
    if (!granted.ok()) {
      out.gate = Gate::kGate5;
      out.condition = "Pod " + pod_key + " Failed (UnexpectedAdmissionError)";
      out.reason = "UnexpectedAdmissionError: " + granted.error();
      return out;
    }
  }
  out.condition = "Pod " + pod_key + " Pending";
  out.reason = "the Pod fits " + pod.node_name + " and its cards; it is being created and started";
  return out;
}

}  // namespace

WaitingPlace where_waiting(const ClusterState& cluster, const WorkloadState& workloads, const QueueManager& queues,
                           const std::string& workload_key, bool pods_read) {
  WaitingPlace out;
  const auto it = workloads.workloads.find(workload_key);
  if (it == workloads.workloads.end()) return out;  // kAbsent
  const Workload& wl = it->second;
  if (wl.finished()) {
    out.standing = WorkloadStanding::kFinished;
    return out;
  }
  out.standing = WorkloadStanding::kWaiting;
  if (!wl.quota_reserved()) {
    const std::string lq = local_queue_key(wl.metadata.namespace_, wl.queue_name);
    const auto l = cluster.local_queues.find(lq);
    const Condition* qr = find_condition(wl.status.conditions, kWorkloadQuotaReserved);
    if (l == cluster.local_queues.end() || !cluster.cluster_queues.count(l->second.cluster_queue) ||
        (qr != nullptr && qr->reason == "Inadmissible")) {
      out.gate = Gate::kQueue;
      out.condition = qr != nullptr ? condition_text(*qr) : "QuotaReserved=False (Inadmissible)";
      if (qr != nullptr && !qr->message.empty()) out.reason = qr->message;
      else if (l == cluster.local_queues.end()) out.reason = "LocalQueue " + wl.queue_name + " doesn't exist";
      else out.reason = "ClusterQueue " + l->second.cluster_queue + " doesn't exist";
      return out;
    }
    // Out of the queues after a Retry verdict (Kueue evicted it for the check, and the check's
    // controller puts it back after its retry delay): still Gate 3's.
    if (!queues.contains(workload_key)) {
      const Condition* ev = find_condition(wl.status.conditions, kWorkloadEvicted);
      if (ev != nullptr && ev->status == "True" && ev->reason == "AdmissionCheck") {
        out.gate = Gate::kGate3;
        out.condition = condition_text(*ev);
        out.reason = ev->message + " (a Retry verdict); back in the queue after the check's retry delay";
        return out;
      }
    }
    out.gate = Gate::kGate2;
    if (const Condition* rq = find_condition(wl.status.conditions, kWorkloadRequeued); rq != nullptr && rq->status == "False") {
      out.condition = condition_text(*rq);
      out.reason = rq->message;
      return out;
    }
    if (qr != nullptr) {
      out.condition = condition_text(*qr);
      out.reason = qr->message;
    } else {
      out.condition = "QuotaReserved (not set yet)";
      out.reason = "waiting for a scheduling cycle to nominate it";
    }
    return out;
  }
  if (!wl.admitted()) {
    out.gate = Gate::kGate3;
    for (const auto& check : wl.status.admission_checks) {
      if (check.state == CheckState::kReady) continue;
      out.condition = "AdmissionCheck " + check.name + "=" + std::string(to_string(check.state));
      out.reason = check.message.empty() ? "waiting for the check's controller to decide" : check.message;
      return out;
    }
    out.condition = "Admitted=False";
    out.reason = "every admission check is Ready; Admitted is being set";
    return out;
  }
  if (!pods_read) {
    out.standing = WorkloadStanding::kAdmitted;
    return out;
  }
  for (const Pod& pod : pods_for_admission(wl)) {
    const auto placed = workloads.pods.find(object_key(pod.metadata));
    if (placed != workloads.pods.end()) continue;  // created: it runs (or ran)
    return pod_place(cluster, workloads, pod);
  }
  out.standing = WorkloadStanding::kRunning;
  return out;
}

}  // namespace chaintwin::model
