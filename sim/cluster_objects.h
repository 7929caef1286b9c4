// Turns the objects read from files into the model's view of a cluster: Nodes, their Devices
// records and the operator Settings, each checked and decoded. Every refusal names the file,
// the line, the object and the field: `cluster.yaml:41: Devices/node-a: spec.groups[0].manufacturer:
// unknown manufacturer 'acme' (known: ...)`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/devices.h"
#include "model/node.h"
#include "model/result.h"
#include "model/settings.h"
#include "sim/kube_documents.h"

namespace chaintwin::sim {

struct ClusterObjects {
  std::map<std::string, model::Node> nodes;       // by name
  std::map<std::string, model::Devices> devices;  // by name (= the Node's name)
  model::Settings settings;
  std::map<std::string, int> ignored_kinds;       // kinds stage 3 does not read, with counts
};

// Decodes and checks `objects`, starting from `settings` (Setting objects override it).
model::Result<ClusterObjects> read_cluster_objects(const std::vector<SourceObject>& objects,
                                                   const model::Settings& settings);

// "file:line: Kind/name: " + the message, where the message may start with a field path
// (`spec.groups[0].id: ...`) whose line is looked up in the object.
std::string locate_error(const SourceObject& object, const std::string& message);

}  // namespace chaintwin::sim
