// ClusterState: every object the chain reads or writes, as one immutable value. The simulator
// keeps one, the live mode mirrors the real cluster into one, and every reconciler is a pure
// function from a ClusterState to a Plan (model/stage4/plan.h).
#pragma once

#include <map>
#include <set>
#include <string>

#include "model/api/devices.h"
#include "model/api/instance.h"
#include "model/api/instance_type.h"
#include "model/keyed_table.h"
#include "model/kueue/kueue_objects.h"
#include "model/api/node.h"
#include "model/api/node_feature.h"
#include "model/api/settings.h"
#include "model/api/topology_source.h"
#include "model/api/node.h"
#include "model/api/settings.h"
#include "model/api/topology_source.h"

namespace chaintwin::model {

// Nodes and Devices are looked up by name on every event; the table keeps the map's name order and
// finds by hash (model/keyed_table.h).
using NodeTable = KeyedTable<Node>;
using DevicesTable = KeyedTable<Devices>;

struct ClusterState {
  Settings settings;
  NodeTable nodes;
  DevicesTable devices;  // by name = the Node's name
  std::map<std::string, Namespace> namespaces;
  std::map<std::string, TopologySource> topology_sources;
  // The NodeFeatures writing TopologySources reconcile, by "<namespace>/<name>" (model/api/node_feature.h).
  std::map<std::string, NodeFeature> node_features;
  std::map<std::string, Topology> topologies;
  std::map<std::string, ResourceFlavor> resource_flavors;
  std::map<std::string, InstanceType> instance_types;
  std::map<std::string, ClusterQueue> cluster_queues;
  std::map<std::string, Cohort> cohorts;  // Cohort objects (admins'); the operator writes none
  std::map<std::string, LocalQueue> local_queues;  // by "<namespace>/<name>"
  std::map<std::string, AdmissionCheck> admission_checks;
  std::map<std::string, Instance> instances;  // by "<namespace>/<name>"
  // The Instances whose backing Pod exists ("<namespace>/<name>"): what the Instance controller
  // reads of Pods. The simulator keeps it; the live mode does not read Pods (it stays empty).
  std::set<std::string> instance_pods;
  int64_t resource_version = 0;  // last resourceVersion handed out by apply_plan

  const Devices* devices_of(const std::string& node) const {
    const auto it = devices.find(node);
    return it == devices.end() ? nullptr : &it->second;
  }
  bool operator==(const ClusterState&) const = default;
};

inline std::string local_queue_key(const std::string& ns, const std::string& name) { return ns + "/" + name; }

}  // namespace chaintwin::model
