// Turns the objects read from files into the model's view of a cluster (a ClusterState): Nodes,
// their Devices records, the operator's Settings, Namespaces, TopologySources, InstanceTypes and
// the Kueue objects (ResourceFlavor, ClusterQueue, LocalQueue, AdmissionCheck, Topology), each
// checked and decoded. Every refusal names the file,
// the line, the object and the field: `cluster.yaml:41: Devices/node-a: spec.groups[0].manufacturer:
// unknown manufacturer 'acme' (known: ...)`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/api/devices.h"
#include "model/api/node.h"
#include "model/result.h"
#include "model/api/settings.h"
#include "model/cluster_state.h"
#include "model/workload/priority_class.h"
#include "sim/kube_documents.h"

namespace chaintwin::sim {

struct ClusterObjects : model::ClusterState {
  std::map<std::string, int> ignored_kinds;  // kinds the chain does not read, with counts
  // The priority classes a scenario's workloads may name (resolved into spec.priority at load).
  std::map<std::string, model::WorkloadPriorityClass> workload_priority_classes;
  std::map<std::string, model::PriorityClass> priority_classes;
};

// Decodes and checks `objects`, starting from `settings` (Setting objects override it).
model::Result<ClusterObjects> read_cluster_objects(const std::vector<SourceObject>& objects,
                                                   const model::Settings& settings);

// "file:line: Kind/name: " + the message, where the message may start with a field path
// (`spec.groups[0].id: ...`) whose line is looked up in the object.
std::string locate_error(const SourceObject& object, const std::string& message);

}  // namespace chaintwin::sim
