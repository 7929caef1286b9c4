#include "model/stage4/chain_graph.h"

#include <algorithm>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/reverse_graph.hpp>
#include <boost/graph/topological_sort.hpp>

#include "model/catalog/label_keys.h"
#include "model/stage3/pool_identity.h"

namespace chaintwin::model {
namespace {

bool node_labels_satisfy(const StringMap& node_labels, const StringMap& selector) {
  for (const auto& [k, v] : selector) {
    const auto it = node_labels.find(k);
    if (it == node_labels.end() || it->second != v) return false;
  }
  return !selector.empty();
}

template <typename G>
std::vector<size_t> reachable(const G& g, size_t start) {
  std::vector<boost::default_color_type> colours(boost::num_vertices(g));
  std::vector<size_t> seen;
  struct Recorder : boost::default_bfs_visitor {
    std::vector<size_t>* out;
    void discover_vertex(typename boost::graph_traits<G>::vertex_descriptor v, const G&) const { out->push_back(v); }
  } rec;
  rec.out = &seen;
  boost::breadth_first_search(g, start,
                              boost::visitor(rec).color_map(boost::make_iterator_property_map(
                                  colours.begin(), boost::get(boost::vertex_index, g))));
  return seen;
}

}  // namespace

std::string_view to_string(ChainVertexKind k) {
  switch (k) {
    case ChainVertexKind::kNode: return "Node";
    case ChainVertexKind::kDevices: return "Devices";
    case ChainVertexKind::kTopology: return "Topology";
    case ChainVertexKind::kResourceFlavor: return "ResourceFlavor";
    case ChainVertexKind::kInstanceType: return "InstanceType";
    case ChainVertexKind::kClusterQueue: return "ClusterQueue";
    case ChainVertexKind::kLocalQueue: return "LocalQueue";
    case ChainVertexKind::kAdmissionCheck: return "AdmissionCheck";
  }
  return "?";
}

std::string_view to_string(ChainEdgeKind k) {
  switch (k) {
    case ChainEdgeKind::kContributes: return "contributes to";
    case ChainEdgeKind::kTopologyOf: return "is the topology of";
    case ChainEdgeKind::kFillsQuota: return "fills the quota of";
    case ChainEdgeKind::kBacks: return "backs";
    case ChainEdgeKind::kReportsTo: return "reports to";
    case ChainEdgeKind::kDrivesStatus: return "drives the status of";
    case ChainEdgeKind::kEntrance: return "is entered through";
    case ChainEdgeKind::kChecks: return "gates";
  }
  return "?";
}

std::string ChainVertex::label() const { return std::string(to_string(kind)) + "/" + name; }

size_t ChainGraph::add(const ChainVertex& v) {
  const auto it = index_.find(v);
  if (it != index_.end()) return it->second;
  const size_t id = boost::add_vertex(v, graph_);
  index_.emplace(v, id);
  return id;
}

bool ChainGraph::contains(const ChainVertex& v) const { return index_.count(v) != 0; }

ChainGraph ChainGraph::build(const ClusterState& state) {
  ChainGraph g;
  using K = ChainVertexKind;
  auto edge = [&](const ChainVertex& a, ChainEdgeKind kind, const ChainVertex& b) {
    boost::add_edge(g.add(a), g.add(b), kind, g.graph_);
  };
  // Vertices first, in a stable order, so vertex ids do not depend on edge discovery.
  for (const auto& [n, _] : state.nodes) g.add({K::kNode, n});
  for (const auto& [n, _] : state.devices) g.add({K::kDevices, n});
  for (const auto& [n, _] : state.topologies) g.add({K::kTopology, n});
  for (const auto& [n, _] : state.resource_flavors) g.add({K::kResourceFlavor, n});
  for (const auto& [n, _] : state.instance_types) g.add({K::kInstanceType, n});
  for (const auto& [n, _] : state.cluster_queues) g.add({K::kClusterQueue, n});
  for (const auto& [n, _] : state.local_queues) g.add({K::kLocalQueue, n});
  for (const auto& [n, _] : state.admission_checks) g.add({K::kAdmissionCheck, n});

  // Node → ResourceFlavor; Topology → ResourceFlavor.
  for (const auto& [rf_name, rf] : state.resource_flavors) {
    for (const auto& [node_name, node] : state.nodes)
      if (node_labels_satisfy(node.metadata.labels, rf.spec.node_labels))
        edge({K::kNode, node_name}, ChainEdgeKind::kContributes, {K::kResourceFlavor, rf_name});
    if (!rf.spec.topology_name.empty() && state.topologies.count(rf.spec.topology_name))
      edge({K::kTopology, rf.spec.topology_name}, ChainEdgeKind::kTopologyOf, {K::kResourceFlavor, rf_name});
  }
  // ResourceFlavor → ClusterQueue, AdmissionCheck → ClusterQueue, InstanceType ↔ ClusterQueue.
  for (const auto& [cq_name, cq] : state.cluster_queues) {
    for (const auto& group : cq.spec.resource_groups)
      for (const auto& fq : group.flavors)
        if (state.resource_flavors.count(fq.name))
          edge({K::kResourceFlavor, fq.name}, ChainEdgeKind::kFillsQuota, {K::kClusterQueue, cq_name});
    for (const auto& check : cq.spec.admission_checks)
      if (state.admission_checks.count(check))
        edge({K::kAdmissionCheck, check}, ChainEdgeKind::kChecks, {K::kClusterQueue, cq_name});
    if (state.instance_types.count(cq_name)) {
      edge({K::kInstanceType, cq_name}, ChainEdgeKind::kBacks, {K::kClusterQueue, cq_name});
      edge({K::kClusterQueue, cq_name}, ChainEdgeKind::kReportsTo, {K::kInstanceType, cq_name});
    }
  }
  // ClusterQueue → LocalQueue.
  for (const auto& [key, lq] : state.local_queues)
    if (state.cluster_queues.count(lq.cluster_queue))
      edge({K::kClusterQueue, lq.cluster_queue}, ChainEdgeKind::kEntrance, {K::kLocalQueue, key});
  // Devices → InstanceType: the node's flavors feed the type's queue (by the queue's selector).
  for (const auto& [it_name, it] : state.instance_types) {
    const auto cq = state.cluster_queues.find(it_name);
    if (cq == state.cluster_queues.end()) continue;
    for (const auto& [rf_name, rf] : state.resource_flavors) {
      if (!flavor_feeds_queue(rf.metadata.labels, cq->second.metadata.labels)) continue;
      for (const auto& [node_name, node] : state.nodes)
        if (state.devices.count(node_name) && node_labels_satisfy(node.metadata.labels, rf.spec.node_labels))
          edge({K::kDevices, node_name}, ChainEdgeKind::kDrivesStatus, {K::kInstanceType, it_name});
    }
  }
  return g;
}

std::vector<std::tuple<ChainVertex, ChainEdgeKind, ChainVertex>> ChainGraph::edges() const {
  std::vector<std::tuple<ChainVertex, ChainEdgeKind, ChainVertex>> out;
  for (auto [it, end] = boost::edges(graph_); it != end; ++it)
    out.emplace_back(graph_[boost::source(*it, graph_)], graph_[*it], graph_[boost::target(*it, graph_)]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<ChainVertex> ChainGraph::walk(const ChainVertex& start, bool forward) const {
  const auto it = index_.find(start);
  if (it == index_.end()) return {};
  const std::vector<size_t> ids =
      forward ? reachable(graph_, it->second) : reachable(boost::make_reverse_graph(graph_), it->second);
  std::vector<ChainVertex> out;
  for (size_t id : ids)
    if (id != it->second) out.push_back(graph_[id]);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<ChainVertex> ChainGraph::downstream(const ChainVertex& from) const { return walk(from, true); }
std::vector<ChainVertex> ChainGraph::upstream(const ChainVertex& to) const { return walk(to, false); }

Result<std::vector<std::string>> reconcile_order(const std::vector<Controller>& controllers) {
  using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  G g(controllers.size());
  std::map<std::string, size_t> id;
  for (size_t i = 0; i < controllers.size(); ++i) id[controllers[i].name] = i;
  for (size_t i = 0; i < controllers.size(); ++i)
    for (const auto& dep : controllers[i].reads_from) {
      const auto it = id.find(dep);
      if (it == id.end()) return err("controller " + controllers[i].name + " reads from unknown controller " + dep);
      boost::add_edge(it->second, i, g);
    }
  std::vector<size_t> reversed;
  try {
    boost::topological_sort(g, std::back_inserter(reversed));
  } catch (const boost::not_a_dag&) {
    return err("the controllers' reads_from form a cycle");
  }
  std::vector<std::string> order;
  for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) order.push_back(controllers[*it].name);
  return order;
}

}  // namespace chaintwin::model
