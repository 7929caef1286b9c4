// gate_path(): a small state machine over the event-log lines of one Workload and its Pods.
#include "sim/explain/gate_path.h"

#include <algorithm>
#include <set>

namespace chaintwin::sim {

std::string node_in_message(const std::string& message) {
  static const std::string kOn = " on node ";
  const size_t at = message.find(kOn);
  if (at == std::string::npos) return "";
  const size_t start = at + kOn.size();
  size_t end = start;
  while (end < message.size() && message[end] != ';' && message[end] != ' ' && message[end] != ',' && message[end] != ':')
    ++end;
  return message.substr(start, end - start);
}

namespace {

// The time at each gate and running, summed over the visits up to `now`.
void count_time(GatePath& path, SimTime now) {
  path.time_at.clear();
  path.running_for = SimTime();
  for (const GateVisit& v : path.visits) {
    const SimTime end = v.to ? *v.to : now;
    if (v.running) path.running_for = path.running_for + (end - v.from);
    else path.time_at[v.gate] = path.time_at[v.gate] + (end - v.from);
  }
}

bool is_queue_message(const std::string& m) {
  return (m.rfind("LocalQueue ", 0) == 0 || m.rfind("ClusterQueue ", 0) == 0) &&
         (m.find(" doesn't exist") != std::string::npos || m.find(" is inactive") != std::string::npos);
}

std::string reason_kind(const std::string& m) {
  if (is_queue_message(m)) return "queue";
  if (m.find("insufficient unused quota") != std::string::npos) return "quota";
  if (m.find("doesn't allow to fit") != std::string::npos || m.find("topology") != std::string::npos) return "topology";
  if (m.find("Pending the preemption") != std::string::npos) return "preemption";
  return "other";
}

}  // namespace

GatePath gate_path(const std::vector<EventRecord>& events, const std::string& workload_key, SimTime now,
                   int32_t pods_wanted) {
  GatePath out;
  const std::string wl_object = "Workload " + workload_key;
  const std::string pod_prefix = "Pod " + workload_key + "-";
  std::set<std::string> running_pods;
  const auto close = [&](SimTime at, const std::string& outcome) {
    if (out.visits.empty() || out.visits.back().to) return;
    out.visits.back().to = at;
    out.visits.back().outcome = outcome;
  };
  const auto open = [&](model::Gate gate, SimTime at, bool running = false) {
    GateVisit v;
    v.gate = gate;
    v.running = running;
    v.from = at;
    out.visits.push_back(std::move(v));
  };
  const auto at_gate = [&](model::Gate gate) {
    return !out.visits.empty() && !out.visits.back().to && !out.visits.back().running && out.visits.back().gate == gate;
  };
  for (const EventRecord& e : events) {
    if (now < e.at) break;
    const bool mine = e.object == wl_object;
    const bool my_pod = !mine && e.object.rfind(pod_prefix, 0) == 0;
    if (!mine && !my_pod) continue;
    if (my_pod) {
      if (e.kind == "PodRunning") {
        running_pods.insert(e.object);
        if (static_cast<int32_t>(running_pods.size()) >= pods_wanted &&
            (at_gate(model::Gate::kGate4) || at_gate(model::Gate::kGate5))) {
          close(e.at, "passed");
          open(model::Gate::kGate4, e.at, true);
        }
      } else if (e.kind == "PodPending" || e.kind == "PodFailed") {
        if (!out.visits.empty() && !out.visits.back().to && !out.visits.back().running) {
          out.visits.back().gate = e.kind == "PodFailed" ? model::Gate::kGate5 : model::Gate::kGate4;
          out.visits.back().last_reason = e.message;
        }
      }
      continue;
    }
    if (e.kind == "arrival") {
      out.arrived = e.at;
      open(model::Gate::kGate1, e.at);
      close(e.at, "passed");
      open(model::Gate::kGate2, e.at);
    } else if (e.kind == "rejected") {
      out.arrived = e.at;
      out.rejected = true;
      open(model::Gate::kGate1, e.at);
      out.visits.back().last_reason = e.message;
      close(e.at, "refused: " + e.message);
    } else if (e.kind == "Pending") {
      ++out.reason_changes;
      ++out.reasons[reason_kind(e.message)];
      if (!out.visits.empty() && !out.visits.back().to && !out.visits.back().running) {
        const bool queue = is_queue_message(e.message);
        if (queue && out.visits.back().gate == model::Gate::kGate2) out.visits.back().gate = model::Gate::kQueue;
        if (!queue && out.visits.back().gate == model::Gate::kQueue) {
          close(e.at, "passed");
          open(model::Gate::kGate2, e.at);
        }
        out.visits.back().last_reason = e.message;
      }
    } else if (e.kind == "QuotaReserved") {
      close(e.at, "passed");
      open(model::Gate::kGate3, e.at);
    } else if (e.kind == "check") {
      if (e.message.find(" Retry") != std::string::npos) {
        ++out.retries;
        const std::string msg = e.message.substr(std::min(e.message.size(), e.message.find(": ") + 2));
        if (const std::string node = node_in_message(msg); !node.empty()) ++out.retries_by_node[node];
        if (at_gate(model::Gate::kGate3)) out.visits.back().last_reason = msg;
        if (at_gate(model::Gate::kGate3)) out.visits.back().outcome = "Retry: " + msg;
      }
    } else if (e.kind == "Requeued") {
      if (at_gate(model::Gate::kGate3)) {
        const std::string outcome = out.visits.back().outcome.empty() ? "requeued" : out.visits.back().outcome;
        close(e.at, outcome);
      } else {
        close(e.at, "requeued");
      }
      open(model::Gate::kGate2, e.at);
    } else if (e.kind == "Admitted") {
      close(e.at, "passed");
      open(model::Gate::kGate4, e.at);
      running_pods.clear();
    } else if (e.kind == "Evicted" || e.kind == "QuotaReleased" || e.kind == "Deactivated") {
      // A Retry's eviction and release, and a finished Workload's release, are told elsewhere.
      const bool after_retry = e.message.rfind("AdmissionCheck:", 0) == 0 && at_gate(model::Gate::kGate3);
      if (after_retry || (e.kind == "QuotaReleased" && e.message.rfind("Finished:", 0) == 0)) continue;
      if (e.kind == "QuotaReleased" && (at_gate(model::Gate::kGate2) || at_gate(model::Gate::kQueue))) continue;
      if (e.kind == "Evicted") ++out.evictions;
      close(e.at, e.kind + ": " + e.message);
      running_pods.clear();
      if (e.kind != "Deactivated") open(model::Gate::kGate2, e.at);
    } else if (e.kind == "Finished") {
      close(e.at, "finished");
      break;
    }
  }
  count_time(out, now);
  return out;
}

void settle_open_visit(GatePath& path, const model::WaitingPlace& place, SimTime now) {
  if (place.standing != model::WorkloadStanding::kWaiting || path.visits.empty()) return;
  GateVisit& open = path.visits.back();
  if (open.to || open.running || open.gate == place.gate) return;
  open.gate = place.gate;
  count_time(path, now);
}

}  // namespace chaintwin::sim
