#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

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

TEST_CASE("a Pod of one container requests what the container does, each amount rounded up to a milli",
          "[kueue][transform]") {
  struct Row {
    const char* what;
    ResourceList requests;
    std::map<std::string, int64_t> milli;  // the effective requests, in milli-units
  };
  const Row rows[] = {
      {"nothing", {}, {}},
      {"whole units", {{"cpu", Quantity::from_int(2)}, {"nvidia.com/gpu", Quantity::from_int(1)}},
       {{"cpu", 2000}, {"nvidia.com/gpu", 1000}}},
      {"a fraction of a milli rounds up", {{"cpu", Quantity::parse("0.0005").value()}}, {{"cpu", 1}}},
      {"a zero request is kept", {{"memory", Quantity::from_int(0)}}, {{"memory", 0}}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    PodTemplate one;
    one.containers = {Container{"main", r.requests, false}};
    const ResourceList got = pod_effective_requests(one);
    std::map<std::string, int64_t> milli;
    for (const auto& [name, q] : got) milli[name] = q.milli_value_ceil();
    CHECK(milli == r.milli);
    // The same as the general fold gives it: a second, empty container changes nothing.
    PodTemplate two = one;
    two.containers.push_back(Container{"empty", {}, false});
    CHECK(pod_effective_requests(two) == got);
    // The visitor gives the same entries, in the same order, on either path.
    for (const PodTemplate* pod : {&one, &two}) {
      std::vector<std::pair<std::string, int64_t>> visited;
      each_effective_request(*pod, [&](const std::string& name, int64_t v) { visited.emplace_back(name, v); });
      CHECK(visited == std::vector<std::pair<std::string, int64_t>>(r.milli.begin(), r.milli.end()));
    }
  }
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
  cluster.local_queues["ns/lq"] = LocalQueue{ObjectMeta{}, "cq", {}};
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

TEST_CASE("a LocalQueue pointed at another ClusterQueue takes all its Workloads along at the next refresh",
          "[kueue][queue_manager]") {
  ClusterState cluster;
  cluster.cluster_queues["cq1"].metadata.name = "cq1";
  cluster.cluster_queues["cq2"].metadata.name = "cq2";
  cluster.local_queues["ns/lq"] = LocalQueue{ObjectMeta{}, "cq1", {}};
  QueueManager queues;
  const auto workload = [](const std::string& name) {
    Workload wl;
    wl.metadata.name = name;
    wl.metadata.namespace_ = "ns";
    wl.queue_name = "lq";
    return wl;
  };
  queues.add(cluster, workload("a"));
  // Retargeted before a refresh: a Workload added now already resolves to cq2, "a" still sits on cq1.
  cluster.local_queues["ns/lq"].cluster_queue = "cq2";
  queues.add(cluster, workload("b"));
  CHECK(queues.pending("cq1") == 1);
  CHECK(queues.pending("cq2") == 1);
  queues.refresh(cluster);
  CHECK(queues.pending("cq1") == 0);
  CHECK(queues.pending("cq2") == 2);
  CHECK(queues.cluster_queue_of("ns/a") == "cq2");
  // A popped head counts as pending where it belongs, and moves back with its LocalQueue.
  REQUIRE(queues.pop("cq2"));
  CHECK(queues.pending_by_queue() == std::map<std::string, int32_t>{{"cq2", 2}});
  cluster.local_queues["ns/lq"].cluster_queue = "cq1";
  queues.refresh(cluster);
  CHECK(queues.pending_by_queue() == std::map<std::string, int32_t>{{"cq1", 2}});
  CHECK(queues.heap_order("cq1").size() == 2);  // the popped head went back to the heap
  // A LocalQueue that goes away leaves its Workloads unplaced.
  cluster.local_queues.erase("ns/lq");
  queues.refresh(cluster);
  CHECK(queues.unplaced().size() == 2);
  CHECK(queues.pending_by_queue().empty());

  // Pointed away and back between two refreshes: the Workload added in between still moves back.
  cluster.local_queues["ns/lq2"] = LocalQueue{ObjectMeta{}, "cq1", {}};
  Workload c = workload("c"), d = workload("d");
  c.queue_name = d.queue_name = "lq2";
  queues.add(cluster, c);
  cluster.local_queues["ns/lq2"].cluster_queue = "cq2";
  queues.add(cluster, d);
  cluster.local_queues["ns/lq2"].cluster_queue = "cq1";
  queues.refresh(cluster);
  CHECK(queues.cluster_queue_of("ns/c") == "cq1");
  CHECK(queues.cluster_queue_of("ns/d") == "cq1");
  CHECK(queues.pending("cq2") == 0);
}
