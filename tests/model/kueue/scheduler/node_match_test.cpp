#include <catch2/catch.hpp>

#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/node_match.h"
#include "model/kueue/scheduler/queue_manager.h"

using namespace chaintwin::model;

TEST_CASE("node affinity operators match labels as Kubernetes does", "[kueue][node_match]") {
  const StringMap labels{{"zone", "z1"}, {"free", "800000"}, {"word", "abc"}};
  struct Row {
    NodeSelectorRequirement r;
    bool want;
  };
  const std::vector<Row> rows{
      {{"zone", "In", {"z1", "z2"}}, true},      {{"zone", "In", {"z2"}}, false},
      {{"zone", "NotIn", {"z2"}}, true},         {{"missing", "NotIn", {"z2"}}, true},
      {{"zone", "Exists", {}}, true},            {{"missing", "DoesNotExist", {}}, true},
      {{"free", "Gt", {"799999"}}, true},        {{"free", "Gt", {"800000"}}, false},
      {{"free", "Lt", {"800001"}}, true},        {{"missing", "Gt", {"1"}}, false},
      {{"word", "Gt", {"1"}}, false},            {{"zone", "Bogus", {"z1"}}, false},
  };
  for (const auto& row : rows) {
    INFO(row.r.key << " " << row.r.op);
    CHECK(matches_requirement(row.r, labels) == row.want);
  }
  CHECK(matches_required_affinity({}, labels));
  CHECK_FALSE(matches_required_affinity({NodeSelectorTerm{}}, labels));  // an empty term matches nothing
}

TEST_CASE("a flavor is matched only on its resource group's label keys", "[kueue][node_match]") {
  const StringMap flavor{{"pool", "a"}};
  const std::set<std::string> keys{"pool"};
  CHECK(matches_flavor_labels({{"pool", "a"}, {"other", "x"}}, {}, keys, flavor));
  CHECK_FALSE(matches_flavor_labels({{"pool", "b"}}, {}, keys, flavor));
  // The fit pin names a key no flavor carries: the term loses it and matches every flavor.
  const NodeSelectorTerm pin{{{"sliced-max-free-units.fit.gpustack.ai/g", "Gt", {"799999"}}}, {}};
  CHECK(matches_flavor_labels({}, {pin}, keys, flavor));
  const NodeSelectorTerm wrong_pool{{{"pool", "In", {"b"}}}, {}};
  CHECK_FALSE(matches_flavor_labels({}, {wrong_pool}, keys, flavor));
}

TEST_CASE("only NoSchedule and NoExecute taints need a toleration", "[kueue][node_match]") {
  const Taint soft{"k", "v", "PreferNoSchedule"}, hard{"k", "v", "NoSchedule"};
  CHECK_FALSE(first_untolerated_taint({soft}, {}).has_value());
  CHECK(first_untolerated_taint({hard}, {}).has_value());
  CHECK_FALSE(first_untolerated_taint({hard}, {Toleration{"", "Exists", "", ""}}).has_value());
  CHECK_FALSE(first_untolerated_taint({hard}, {Toleration{"k", "Equal", "v", "NoSchedule"}}).has_value());
  CHECK(first_untolerated_taint({hard}, {Toleration{"k", "Equal", "w", ""}}).has_value());
  CHECK(taint_string(hard) == "k=v:NoSchedule");
}

TEST_CASE("a Pod's request is the larger of its containers' sum and its largest init container", "[kueue][transform]") {
  PodTemplate pod;
  pod.containers = {Container{"a", {{"cpu", Quantity::from_milli(300)}}, false},
                    Container{"b", {{"cpu", Quantity::from_milli(200)}}, false}};
  pod.init_containers = {Container{"i", {{"cpu", Quantity::from_int(1)}, {"memory", Quantity::from_int(64)}}, false}};
  const auto r = pod_effective_requests(pod);
  CHECK(resource_value("cpu", r.at("cpu")) == 1000);
  CHECK(resource_value("memory", r.at("memory")) == 64);
}

TEST_CASE("the queue manager keeps a Workload whose LocalQueue is missing and places it later", "[kueue][queue_manager]") {
  ClusterState cluster;
  QueueManager queues;
  Workload wl;
  wl.metadata.name = "w";
  wl.metadata.namespace_ = "ns";
  wl.queue_name = "lq";
  queues.add(cluster, wl);
  REQUIRE(queues.unplaced().size() == 1);
  CHECK(queues.unplaced()[0].second == "ns/lq");
  cluster.cluster_queues["cq"].metadata.name = "cq";
  cluster.local_queues["ns/lq"] = LocalQueue{ObjectMeta{}, "cq"};
  queues.refresh(cluster);
  CHECK(queues.unplaced().empty());
  CHECK(queues.pending("cq") == 1);
  CHECK(queues.cluster_queues() == std::vector<std::string>{"cq"});
  QueueManager copy = queues;
  CHECK(copy == queues);
  queues.remove("ns/w");
  CHECK(queues.pending("cq") == 0);
  CHECK_FALSE(copy == queues);
}
