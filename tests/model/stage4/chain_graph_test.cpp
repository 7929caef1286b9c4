#include <catch2/catch.hpp>

#include "model/stage4/chain_graph.h"

using namespace chaintwin::model;
using K = ChainVertexKind;

namespace {

ClusterState small_chain() {
  ClusterState s;
  Node a, b;
  a.metadata.name = "node-a";
  a.metadata.labels = {{"gpustack.ai/managed", "true"}, {"acceleratable.feature.gpustack.ai/nvidia-a10g", "true"}};
  b.metadata.name = "node-b";
  b.metadata.labels = {{"gpustack.ai/managed", "true"}};
  s.nodes = {{"node-a", a}, {"node-b", b}};
  Devices d;
  d.metadata.name = "node-a";
  s.devices["node-a"] = d;
  Topology t;
  t.metadata.name = "gpustack-fnv64-87bf574bea2a4f23";
  s.topologies[t.metadata.name] = t;
  ResourceFlavor rf;
  rf.metadata.name = "rf-a10g";
  rf.metadata.labels = {{"acceleratable.feature.gpustack.ai/nvidia-a10g", "true"}, {"feature.gpustack.ai/acceleratable", "true"}};
  rf.spec.node_labels = {{"gpustack.ai/managed", "true"}, {"acceleratable.feature.gpustack.ai/nvidia-a10g", "true"}};
  rf.spec.topology_name = t.metadata.name;
  s.resource_flavors[rf.metadata.name] = rf;
  ClusterQueue cq;
  cq.metadata.name = "gpustack--nvidia-a10g-linux-amd64";
  cq.metadata.labels = {{"acceleratable.feature.gpustack.ai/nvidia-a10g", "true"}, {"feature.gpustack.ai/acceleratable", "true"}};
  cq.spec.resource_groups.push_back({{"credits.gpustack.ai/nvidia"}, {{"rf-a10g", {}}}});
  cq.spec.admission_checks = {"gpustack-node-devices"};
  s.cluster_queues[cq.metadata.name] = cq;
  InstanceType it;
  it.metadata.name = cq.metadata.name;
  s.instance_types[it.metadata.name] = it;
  AdmissionCheck ac;
  ac.metadata.name = "gpustack-node-devices";
  s.admission_checks[ac.metadata.name] = ac;
  LocalQueue lq;
  lq.metadata.name = "gpustack-fnv64-c4680bb149644f1c";
  lq.metadata.namespace_ = "default";
  lq.cluster_queue = cq.metadata.name;
  s.local_queues[local_queue_key("default", lq.metadata.name)] = lq;
  return s;
}

}  // namespace

TEST_CASE("a node feeds its flavor, the flavor's queue, the queue's type and its local queues", "[graph]") {
  const auto g = ChainGraph::build(small_chain());
  const std::vector<ChainVertex> want{
      {K::kResourceFlavor, "rf-a10g"},
      {K::kInstanceType, "gpustack--nvidia-a10g-linux-amd64"},
      {K::kClusterQueue, "gpustack--nvidia-a10g-linux-amd64"},
      {K::kLocalQueue, "default/gpustack-fnv64-c4680bb149644f1c"},
  };
  auto sorted = want;
  std::sort(sorted.begin(), sorted.end());
  CHECK(g.downstream({K::kNode, "node-a"}) == sorted);
  CHECK(g.downstream({K::kNode, "node-b"}).empty());
  CHECK(g.downstream({K::kNode, "no-such-node"}).empty());
}

TEST_CASE("a local queue is fed by the nodes, ledgers, topology and checks behind its queue", "[graph]") {
  const auto g = ChainGraph::build(small_chain());
  const auto up = g.upstream({K::kLocalQueue, "default/gpustack-fnv64-c4680bb149644f1c"});
  for (const ChainVertex& v : {ChainVertex{K::kNode, "node-a"}, ChainVertex{K::kDevices, "node-a"},
                               ChainVertex{K::kTopology, "gpustack-fnv64-87bf574bea2a4f23"},
                               ChainVertex{K::kAdmissionCheck, "gpustack-node-devices"},
                               ChainVertex{K::kResourceFlavor, "rf-a10g"}}) {
    INFO(v.label());
    CHECK(std::find(up.begin(), up.end(), v) != up.end());
  }
  CHECK(std::find(up.begin(), up.end(), ChainVertex{K::kNode, "node-b"}) == up.end());
  CHECK(g.edge_count() == 8);
}

TEST_CASE("controllers run after the ones whose writes they read, and a cycle is refused", "[graph]") {
  auto noop = [](const ClusterState&) { return Plan{}; };
  const std::vector<Controller> cs{{"NodeQueue", noop, {"NodeFlavor", "InstanceType"}},
                                   {"NodeQueueEntrance", noop, {"InstanceType"}},
                                   {"InstanceType", noop, {"NodeFlavor"}},
                                   {"NodeFlavor", noop, {"NodeTopology"}},
                                   {"NodeTopology", noop, {}}};
  const auto order = reconcile_order(cs);
  REQUIRE(order.ok());
  auto pos = [&](const std::string& n) { return std::find(order->begin(), order->end(), n) - order->begin(); };
  CHECK(pos("NodeTopology") < pos("NodeFlavor"));
  CHECK(pos("NodeFlavor") < pos("InstanceType"));
  CHECK(pos("InstanceType") < pos("NodeQueue"));
  CHECK(pos("InstanceType") < pos("NodeQueueEntrance"));
  const auto cyclic = reconcile_order({{"A", noop, {"B"}}, {"B", noop, {"A"}}});
  REQUIRE_FALSE(cyclic.ok());
  CHECK(cyclic.error() == "the controllers' reads_from form a cycle");
  CHECK(reconcile_order({{"A", noop, {"Z"}}}).error() == "controller A reads from unknown controller Z");
}
