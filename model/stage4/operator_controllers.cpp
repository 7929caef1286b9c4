#include "model/stage4/operator_controllers.h"

#include <utility>

#include "model/kueue/kueue_status_reconciler.h"
#include "model/stage3/stage3.h"
#include "model/stage4/admission_check_reconciler.h"
#include "model/stage4/chain_graph.h"
#include "model/stage4/instance_reconciler.h"
#include "model/stage4/instance_type_reconciler.h"
#include "model/stage4/node_flavor_reconciler.h"
#include "model/stage4/node_queue_entrance_reconciler.h"
#include "model/stage4/node_queue_reconciler.h"
#include "model/stage4/node_topology_reconciler.h"

namespace chaintwin::model {

Plan reconcile_node_profile(const ClusterState& state) {
  Plan plan;
  for (const auto& [name, node] : state.nodes) {
    if (node.metadata.deletion_timestamp) continue;
    const NodeStage3 s = derive_node_stage3(node, state.devices_of(name), state.settings);
    if (s.worker_label_patch || s.fit_label_patch) {
      Node labelled = node;
      labelled.metadata.labels = s.node_after.metadata.labels;
      std::string why = s.worker_label_patch ? "presence labels from the worker's NodeFeature" : "";
      if (s.fit_label_patch) why += std::string(why.empty() ? "" : "; ") + "per-card fit labels from the Devices ledger";
      plan.writes.push_back({WriteVerb::kUpdate, std::move(labelled), "NodeProfile", std::move(why)});
    }
    if (s.capacity_patch) {
      Node counted = node;
      counted.status = s.node_after.status;
      plan.writes.push_back({WriteVerb::kUpdateStatus, std::move(counted), "NodeProfile", "capacity counting keys"});
    }
  }
  return plan;
}

std::vector<Controller> operator_controllers() {
  // What each reconciler reads, through every helper (StateParts; a fixpoint skips a controller
  // none of whose parts moved, and --verify runs it anyway). The Settings and the Instances' Pods
  // are never written by a controller, so naming them costs no skip; they are named where read.
  using P = StateParts;
  std::vector<Controller> all{
      {"Kueue", [](const ClusterState& s) { return reconcile_kueue(s); }, {"NodeQueue", "NodeFlavor", "AdmissionCheck", "NodeTopology"},
       P::whole<ResourceFlavor, Topology, ClusterQueue, AdmissionCheck>() | P::settings()},
      {"NodeQueueEntrance", [](const ClusterState& s) { return reconcile_node_queue_entrance(s); }, {"InstanceType", "NodeQueue"},
       P::whole<Namespace, LocalQueue>() | P::without_status<ClusterQueue>() | P::settings()},
      {"NodeQueue", [](const ClusterState& s) { return reconcile_node_queue(s); }, {"NodeFlavor", "InstanceType", "AdmissionCheck"},
       P::whole<ClusterQueue, ResourceFlavor, Topology, Node, AdmissionCheck>() | P::settings()},
      {"AdmissionCheck", [](const ClusterState& s) { return reconcile_admission_checks(s); }, {},
       P::whole<AdmissionCheck>() | P::settings()},
      {"InstanceType", [](const ClusterState& s) { return reconcile_instance_type(s); }, {"NodeFlavor"},
       P::whole<InstanceType, ClusterQueue, ResourceFlavor, Node, Devices>() | P::settings()},
      // Of the InstanceTypes, NodeFlavor reads only whether one exists (a derived type is kept).
      {"NodeFlavor", [](const ClusterState& s) { return reconcile_node_flavor(s); }, {"NodeTopology", "NodeProfile"},
       P::whole<Node, ResourceFlavor, Topology>() | P::without_status<InstanceType>() | P::settings()},
      {"NodeTopology", [](const ClusterState& s) { return reconcile_node_topology(s); }, {"NodeProfile"},
       P::whole<Node, TopologySource, Topology, Devices>() | P::settings()},
      {"NodeProfile", [](const ClusterState& s) { return reconcile_node_profile(s); }, {},
       P::whole<Node, Devices>() | P::settings()},
  };
  const auto order = reconcile_order(all);
  if (!order.ok()) return all;  // cannot happen: the table above is acyclic (a unit test pins it)
  std::vector<Controller> sorted;
  for (const auto& name : *order)
    for (const auto& c : all)
      if (c.name == name) sorted.push_back(c);
  // The Instance controller reads the queues' stop policy and the types (written by the
  // controllers above) and feeds none of them, so it goes last. It is appended after the sort so
  // that the order of the others stays what it was before it existed.
  sorted.push_back({std::string(kInstanceController), [](const ClusterState& s) { return reconcile_instances(s); },
                    {"InstanceType", "NodeQueue", "Kueue"},
                    StateParts::whole<Instance>() | StateParts::without_status<InstanceType, ClusterQueue>() |
                        StateParts::instance_pods() | StateParts::settings()});
  return sorted;
}

}  // namespace chaintwin::model
