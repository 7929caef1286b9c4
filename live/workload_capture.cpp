#include "live/workload_capture.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/api/node_codec.h"

namespace chaintwin::live {
namespace {

using ojson = nlohmann::ordered_json;

ojson containers_of(const std::vector<model::Container>& containers) {
  ojson out = ojson::array();
  for (const auto& c : containers) {
    ojson x = {{"name", c.name}, {"requests", ojson::parse(model::encode_resource_list(c.requests).dump())}};
    if (c.restartable) x["restartable"] = true;
    out.push_back(std::move(x));
  }
  return out;
}

ojson pod_set_of(const model::PodSet& ps) {
  ojson x = {{"name", ps.name}, {"count", ps.count}};
  x["containers"] = containers_of(ps.template_.containers);
  if (!ps.template_.init_containers.empty()) x["initContainers"] = containers_of(ps.template_.init_containers);
  return x;
}

// The InstanceType a Workload queues for: the ClusterQueue it holds quota in, else the one its
// LocalQueue feeds; the operator names each ClusterQueue after its InstanceType.
std::string instance_type_of(const model::ClusterState& state, const model::Workload& w, std::string& why) {
  std::string cq;
  if (w.status.admission) {
    cq = w.status.admission->cluster_queue;
  } else {
    const auto lq = state.local_queues.find(model::local_queue_key(w.metadata.namespace_, w.queue_name));
    if (lq == state.local_queues.end()) {
      why = "its LocalQueue '" + w.queue_name + "' is not in namespace " + w.metadata.namespace_;
      return "";
    }
    cq = lq->second.cluster_queue;
  }
  if (state.instance_types.count(cq) == 0) {
    why = "its ClusterQueue '" + cq + "' fronts no InstanceType";
    return "";
  }
  return cq;
}

}  // namespace

CapturedWorkloads capture_workloads(const model::ClusterState& state, const model::WorkloadState& workloads,
                                    const std::string& run_time) {
  CapturedWorkloads out;
  // Holding quota first, then pending; each by creation time, then key.
  std::vector<const model::Workload*> order;
  for (const auto* kv : workloads.workloads.in_key_order())  // ties keep key order (stable sort)
    if (!kv->second.finished()) order.push_back(&kv->second);
  std::stable_sort(order.begin(), order.end(), [](const model::Workload* a, const model::Workload* b) {
    if (a->quota_reserved() != b->quota_reserved()) return a->quota_reserved();
    return a->metadata.creation_timestamp < b->metadata.creation_timestamp;
  });
  std::map<std::string, int> names;
  for (const model::Workload* w : order) ++names[w->metadata.name];
  int64_t at_ms = 0;
  for (const model::Workload* w : order) {
    const std::string key = model::object_key(w->metadata);
    std::string why;
    const std::string instance_type = instance_type_of(state, *w, why);
    if (instance_type.empty()) {
      out.left_out.push_back(key + ": " + why);
      continue;
    }
    ojson g;
    g["name"] = names[w->metadata.name] > 1 ? w->metadata.namespace_ + "." + w->metadata.name : w->metadata.name;
    g["namespace"] = w->metadata.namespace_;
    g["arrival"] = {{"at", ojson::array({std::to_string(at_ms++) + "ms"})}};
    g["duration"] = {{"fixed", run_time}};
    g["count"] = 1;
    g["instanceType"] = instance_type;
    if (w->priority != 0) g["priority"] = w->priority;
    for (const auto& ps : w->pod_sets)
      if (!ps.required_topology_level.empty()) {
        g["requiredTopologyLevel"] = ps.required_topology_level;
        break;
      }
    g["podSets"] = ojson::array();
    for (const auto& ps : w->pod_sets) g["podSets"].push_back(pod_set_of(ps));
    out.generators.push_back(std::move(g));
    ++(w->quota_reserved() ? out.holding : out.pending);
  }
  return out;
}

}  // namespace chaintwin::live
