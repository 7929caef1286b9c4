#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/stage3/pool_identity.h"
#include "model/stage4/node_queue_entrance_reconciler.h"

using namespace chaintwin::model;

namespace {

ClusterQueue operator_queue(const std::string& name, const std::string& uid = "") {
  ClusterQueue cq;
  cq.metadata.name = name;
  cq.metadata.uid = uid;
  cq.metadata.labels = {{"resource.gpustack.ai/type", "instancetypes"}};
  return cq;
}

Namespace ns(const std::string& name) {
  Namespace n;
  n.metadata.name = name;
  return n;
}

ClusterState cluster(std::vector<ClusterQueue> queues, std::vector<std::string> namespaces) {
  ClusterState s;
  for (auto& q : queues) s.cluster_queues[q.metadata.name] = q;
  for (const auto& n : namespaces) s.namespaces[n] = ns(n);
  return s;
}

std::vector<std::string> keys_of(const Plan& plan, WriteVerb verb) {
  std::vector<std::string> out;
  for (const auto& w : plan.writes) {
    if (w.verb != verb) continue;
    const auto& m = metadata_of(w.object);
    out.push_back(local_queue_key(m.namespace_, m.name));
  }
  return out;
}

ClusterState applied(const ClusterState& s, const Plan& p) {
  auto next = apply_plan(s, p, "t1");
  REQUIRE(next.ok());
  return *next;
}

const std::string kA10g = "gpustack--nvidia-a10g-linux-amd64";
const std::string kA10gEntrance = "gpustack-fnv64-c4680bb149644f1c";

}  // namespace

TEST_CASE("only the system namespace and kube-system are reserved", "[node_queue_entrance]") {
  struct Row {
    const char* ns;
    bool reserved;
  };
  for (const Row& r : {Row{"gpustack-system", true}, Row{"kube-system", true}, Row{"kube-public", false},
                       Row{"kube-node-lease", false}, Row{"default", false}, Row{"team-a", false},
                       Row{"gpustack-system-2", false}}) {
    INFO(r.ns);
    CHECK(is_reserved_namespace(r.ns) == r.reserved);
  }
}

TEST_CASE("each operator cluster queue gets a hashed local queue in every user namespace", "[node_queue_entrance]") {
  ClusterQueue foreign;
  foreign.metadata.name = "admin-queue";
  auto s = cluster({operator_queue(kA10g, "uid-1"), foreign},
                   {"default", "team-a", "kube-system", "gpustack-system", "kube-public"});
  Namespace leaving = ns("team-gone");
  leaving.metadata.deletion_timestamp = "t0";
  s.namespaces["team-gone"] = leaving;

  const Plan plan = reconcile_node_queue_entrance(s);
  CHECK(keys_of(plan, WriteVerb::kCreate) ==
        std::vector<std::string>{"default/" + kA10gEntrance, "kube-public/" + kA10gEntrance, "team-a/" + kA10gEntrance});
  CHECK(plan.writes.size() == 3);
  const auto& lq = std::get<LocalQueue>(plan.writes.front().object);
  CHECK(lq.metadata.name == format_local_queue_name(kA10g));
  CHECK(lq.metadata.name.size() == 31);
  CHECK(lq.metadata.annotations == StringMap{{"schedule.gpustack.ai/queue", kA10g}});
  CHECK(lq.cluster_queue == kA10g);
  REQUIRE(lq.metadata.owner_references.size() == 1);
  CHECK(lq.metadata.owner_references[0] ==
        OwnerReference{"kueue.x-k8s.io/v1beta2", "ClusterQueue", kA10g, "uid-1", true});
  CHECK(plan.writes.front().controller == "NodeQueueEntrance");

  const auto after = applied(s, plan);
  CHECK(after.local_queues.size() == 3);
  CHECK(reconcile_node_queue_entrance(after).empty());
}

TEST_CASE("a terminating cluster queue gets no new local queues", "[node_queue_entrance]") {
  auto cq = operator_queue(kA10g);
  cq.metadata.deletion_timestamp = "t0";
  CHECK(reconcile_node_queue_entrance(cluster({cq}, {"default"})).empty());
}

TEST_CASE("a drifted local queue is put back, keeping its labels and finalizers", "[node_queue_entrance]") {
  auto s = cluster({operator_queue(kA10g, "uid-1")}, {"team-a"});
  s = applied(s, reconcile_node_queue_entrance(s));
  auto& lq = s.local_queues.at("team-a/" + kA10gEntrance);
  lq.metadata.labels["owner"] = "alice";
  lq.metadata.finalizers = {"example.com/keep"};
  lq.metadata.annotations["extra"] = "x";
  lq.metadata.owner_references.push_back({"v1", "ConfigMap", "cm", "uid-9", false});

  const Plan plan = reconcile_node_queue_entrance(s);
  REQUIRE(plan.writes.size() == 1);
  CHECK(plan.writes[0].verb == WriteVerb::kUpdate);
  const auto& fixed = std::get<LocalQueue>(plan.writes[0].object);
  CHECK(fixed.metadata.labels.at("owner") == "alice");
  CHECK(fixed.metadata.finalizers == std::vector<std::string>{"example.com/keep"});
  CHECK(fixed.metadata.annotations == StringMap{{"schedule.gpustack.ai/queue", kA10g}});
  CHECK(fixed.metadata.owner_references.size() == 1);
  CHECK(reconcile_node_queue_entrance(applied(s, plan)).empty());
}

TEST_CASE("orphaned local queues are garbage-collected and a user's own queue stays", "[node_queue_entrance]") {
  auto base = cluster({operator_queue(kA10g, "uid-1"), operator_queue("gone", "uid-2")}, {"team-a", "team-b"});
  base = applied(base, reconcile_node_queue_entrance(base));
  LocalQueue mine;
  mine.metadata.name = "my-queue";
  mine.metadata.namespace_ = "team-a";
  mine.cluster_queue = "gone";
  base.local_queues["team-a/my-queue"] = mine;
  const std::string gone_lq = format_local_queue_name("gone");

  SECTION("the controlling cluster queue is gone") {
    base.cluster_queues.erase("gone");
    const Plan plan = reconcile_node_queue_entrance(base);
    CHECK(keys_of(plan, WriteVerb::kDelete) == std::vector<std::string>{"team-a/" + gone_lq, "team-b/" + gone_lq});
    CHECK(keys_of(plan, WriteVerb::kCreate).empty());
    CHECK(plan.writes[0].controller == "GarbageCollector");
    const auto after = applied(base, plan);
    CHECK(after.local_queues.count("team-a/my-queue") == 1);
    CHECK(reconcile_node_queue_entrance(after).empty());
  }
  SECTION("the controlling cluster queue was recreated under a new uid") {
    base.cluster_queues.at("gone").metadata.uid = "uid-3";
    const Plan plan = reconcile_node_queue_entrance(base);
    CHECK(keys_of(plan, WriteVerb::kDelete) == std::vector<std::string>{"team-a/" + gone_lq, "team-b/" + gone_lq});
    CHECK(keys_of(plan, WriteVerb::kCreate) == std::vector<std::string>{"team-a/" + gone_lq, "team-b/" + gone_lq});
    const auto after = applied(base, plan);
    CHECK(after.local_queues.at("team-b/" + gone_lq).metadata.owner_references[0].uid == "uid-3");
    CHECK(reconcile_node_queue_entrance(after).empty());
  }
  SECTION("the namespace is gone") {
    base.namespaces.erase("team-b");
    const Plan plan = reconcile_node_queue_entrance(base);
    CHECK(keys_of(plan, WriteVerb::kDelete) ==
          std::vector<std::string>{"team-b/" + gone_lq, "team-b/" + kA10gEntrance});
    CHECK(reconcile_node_queue_entrance(applied(base, plan)).empty());
  }
}
