#include <catch2/catch.hpp>

#include "model/stage4/plan.h"

using namespace chaintwin::model;

namespace {

ResourceFlavor flavor(const std::string& name, const std::string& topology = "gpustack-fnv64-x") {
  ResourceFlavor rf;
  rf.metadata.name = name;
  rf.spec.topology_name = topology;
  return rf;
}

Plan plan_of(WriteVerb verb, Object o) {
  Plan p;
  p.writes.push_back({verb, std::move(o), "test", "because"});
  return p;
}

}  // namespace

TEST_CASE("a created object gets generation 1, a uid and a resourceVersion", "[plan]") {
  const auto s = apply_plan(ClusterState{}, plan_of(WriteVerb::kCreate, flavor("a")), "t0");
  REQUIRE(s.ok());
  const auto& rf = s->resource_flavors.at("a");
  CHECK(rf.metadata.generation == 1);
  CHECK(rf.metadata.resource_version == "1");
  CHECK_FALSE(rf.metadata.uid.empty());
  CHECK(rf.metadata.creation_timestamp == "t0");
}

TEST_CASE("an update bumps the generation only when the spec changes", "[plan]") {
  auto s = apply_plan(ClusterState{}, plan_of(WriteVerb::kCreate, flavor("a")), "t0");
  REQUIRE(s.ok());
  ResourceFlavor labelled = s->resource_flavors.at("a");
  labelled.metadata.labels["x"] = "y";
  s = apply_plan(*s, plan_of(WriteVerb::kUpdate, labelled), "t1");
  REQUIRE(s.ok());
  CHECK(s->resource_flavors.at("a").metadata.generation == 1);
  CHECK(s->resource_flavors.at("a").metadata.labels.at("x") == "y");
  s = apply_plan(*s, plan_of(WriteVerb::kUpdate, flavor("a", "gpustack-other")), "t2");
  REQUIRE(s.ok());
  CHECK(s->resource_flavors.at("a").metadata.generation == 2);
}

TEST_CASE("a status update leaves the spec alone and a spec update leaves the status alone", "[plan]") {
  ClusterQueue cq;
  cq.metadata.name = "q";
  auto s = apply_plan(ClusterState{}, plan_of(WriteVerb::kCreate, cq), "t0");
  REQUIRE(s.ok());
  ClusterQueue with_status = s->cluster_queues.at("q");
  with_status.status.admitted_workloads = 3;
  with_status.spec.stop_policy = StopPolicy::kHold;
  s = apply_plan(*s, plan_of(WriteVerb::kUpdateStatus, with_status), "t1");
  REQUIRE(s.ok());
  CHECK(s->cluster_queues.at("q").status.admitted_workloads == 3);
  CHECK_FALSE(s->cluster_queues.at("q").spec.stop_policy.has_value());
  ClusterQueue held = s->cluster_queues.at("q");
  held.spec.stop_policy = StopPolicy::kHold;
  held.status.admitted_workloads = 0;
  s = apply_plan(*s, plan_of(WriteVerb::kUpdate, held), "t2");
  REQUIRE(s.ok());
  CHECK(s->cluster_queues.at("q").status.admitted_workloads == 3);
  CHECK(s->cluster_queues.at("q").stop_policy() == StopPolicy::kHold);
}

TEST_CASE("a finalizer keeps a deleted object terminating until the last finalizer goes", "[plan]") {
  ResourceFlavor rf = flavor("a");
  rf.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
  auto s = apply_plan(ClusterState{}, plan_of(WriteVerb::kCreate, rf), "t0");
  s = apply_plan(*s, plan_of(WriteVerb::kDelete, rf), "t1");
  REQUIRE(s.ok());
  REQUIRE(s->resource_flavors.count("a") == 1);
  CHECK(s->resource_flavors.at("a").metadata.deletion_timestamp == "t1");
  ResourceFlavor released = s->resource_flavors.at("a");
  released.metadata.finalizers.clear();
  s = apply_plan(*s, plan_of(WriteVerb::kUpdate, released), "t2");
  REQUIRE(s.ok());
  CHECK(s->resource_flavors.count("a") == 0);
}

TEST_CASE("writes the API server would refuse are refused with the reason", "[plan]") {
  auto s = apply_plan(ClusterState{}, plan_of(WriteVerb::kCreate, flavor("a")), "t0");
  const auto again = apply_plan(*s, plan_of(WriteVerb::kCreate, flavor("a")), "t1");
  REQUIRE_FALSE(again.ok());
  CHECK(again.error() == "create by test: ResourceFlavor a already exists");
  const auto missing = apply_plan(ClusterState{}, plan_of(WriteVerb::kUpdate, flavor("b")), "t1");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error() == "update by test: ResourceFlavor b not found");
}

TEST_CASE("local queues are kept per namespace", "[plan]") {
  LocalQueue a, b;
  a.metadata.name = b.metadata.name = "gpustack-fnv64-0000000000000000";
  a.metadata.namespace_ = "team-a";
  b.metadata.namespace_ = "team-b";
  Plan p = plan_of(WriteVerb::kCreate, a);
  p.append(plan_of(WriteVerb::kCreate, b));
  const auto s = apply_plan(ClusterState{}, p, "t0");
  REQUIRE(s.ok());
  CHECK(s->local_queues.size() == 2);
  CHECK(s->local_queues.count("team-b/gpustack-fnv64-0000000000000000") == 1);
}

TEST_CASE("applying by moving leaves the state copying leaves, and each write a receipt of kind and key", "[plan]") {
  // A sequence that exercises every verb: create, update (spec and labels), status update, a
  // namespaced kind, an Instance (its receipt keeps the spec), and a delete.
  ClusterQueue cq;
  cq.metadata.name = "q";
  cq.metadata.labels["a"] = "b";
  ClusterQueue cq_labelled = cq;
  cq_labelled.metadata.labels["c"] = "d";
  ClusterQueue cq_status = cq;
  cq_status.status.pending_workloads = 3;
  LocalQueue lq;
  lq.metadata.name = "lq";
  lq.metadata.namespace_ = "ns";
  lq.cluster_queue = "q";
  Instance inst;
  inst.metadata.name = "i";
  inst.metadata.namespace_ = "ns";
  inst.spec.stop = true;
  Plan plan;
  plan.writes = {{WriteVerb::kCreate, flavor("a"), "test", "create"},
                 {WriteVerb::kCreate, cq, "test", "create"},
                 {WriteVerb::kUpdate, cq_labelled, "test", "labels"},
                 {WriteVerb::kUpdateStatus, cq_status, "test", "status"},
                 {WriteVerb::kCreate, lq, "test", "create"},
                 {WriteVerb::kCreate, inst, "test", "create"},
                 {WriteVerb::kDelete, flavor("a"), "test", "delete"}};
  const auto copied = apply_plan(ClusterState{}, plan, "t0");
  REQUIRE(copied.ok());
  ClusterState moved;
  Plan receipts = plan;
  REQUIRE(apply_plan_moving(moved, receipts, "t0").ok());
  CHECK(moved == *copied);
  REQUIRE(receipts.writes.size() == plan.writes.size());
  for (std::size_t i = 0; i < plan.writes.size(); ++i) {
    INFO(i);
    CHECK(receipts.writes[i].verb == plan.writes[i].verb);
    CHECK(receipts.writes[i].reason == plan.writes[i].reason);
    CHECK(kind_of(receipts.writes[i].object) == kind_of(plan.writes[i].object));
    CHECK(metadata_of(receipts.writes[i].object).name == metadata_of(plan.writes[i].object).name);
    CHECK(metadata_of(receipts.writes[i].object).namespace_ == metadata_of(plan.writes[i].object).namespace_);
  }
  CHECK(std::get<Instance>(receipts.writes[5].object).spec.stop);
  CHECK((*object_if<ClusterQueue>(receipts.writes[2].object)).metadata.labels.empty());  // a receipt, not the object
}

TEST_CASE("a write's receipt keeps its verb, kind, key, controller and reason, and an Instance's spec", "[plan]") {
  Instance stopped;
  stopped.metadata.namespace_ = "team-a";
  stopped.metadata.name = "chat";
  stopped.spec.type = "h100";
  stopped.spec.stop = true;
  Node node;
  node.metadata.name = "n1";
  node.metadata.labels["a"] = "b";
  struct Row {
    const char* what;
    Write write;
    std::string_view kind;
    std::string namespace_, name;
    bool has_instance;
  };
  const std::vector<Row> rows = {
      {"a Node status", {WriteVerb::kUpdateStatus, node, "NodeCapacity", "counted"}, "Node", "", "n1", false},
      {"a ResourceFlavor created", {WriteVerb::kCreate, flavor("rf"), "NodeFlavor", "new pool"}, "ResourceFlavor", "",
       "rf", false},
      {"an Instance stopped", {WriteVerb::kUpdate, stopped, "Instance", "queue draining"}, "Instance", "team-a", "chat",
       true},
  };
  for (const auto& row : rows) {
    DYNAMIC_SECTION(row.what) {
      const WriteReceipt copied = receipt_of(row.write);
      Write moved_from = row.write;
      const WriteReceipt moved = receipt_of(std::move(moved_from));
      for (const WriteReceipt* r : {&copied, &moved}) {
        CHECK(r->verb == row.write.verb);
        CHECK(r->kind == row.kind);
        CHECK(r->namespace_ == row.namespace_);
        CHECK(r->name == row.name);
        CHECK(r->controller == row.write.controller);
        CHECK(r->reason == row.write.reason);
        REQUIRE(r->instance.has_value() == row.has_instance);
        if (row.has_instance) CHECK(*r->instance == stopped.spec);
      }
    }
  }
}

TEST_CASE("a boxed kind reads, compares and copies as the object it holds", "[plan]") {
  ClusterQueue cq;
  cq.metadata.name = "cq";
  cq.status.pending_workloads = 3;
  Write w{WriteVerb::kUpdateStatus, cq, "KueueStatus", "counted"};
  REQUIRE(object_if<ClusterQueue>(w.object) != nullptr);
  CHECK(object_if<ClusterQueue>(w.object)->status.pending_workloads == 3);
  CHECK(object_if<InstanceType>(w.object) == nullptr);
  CHECK(kind_of(w.object) == "ClusterQueue");
  CHECK(metadata_of(w.object).name == "cq");
  Write copy = w;
  CHECK(copy.object == w.object);
  CHECK(object_if<ClusterQueue>(copy.object) != object_if<ClusterQueue>(w.object));  // its own object
  Write moved = std::move(copy);
  CHECK(moved.object == w.object);
  // A moved-from box reads as a default object, not as nothing.
  REQUIRE(object_if<ClusterQueue>(copy.object) != nullptr);  // NOLINT: read after move on purpose
  CHECK(object_if<ClusterQueue>(copy.object)->metadata.name.empty());
  // So does one moved from by assignment, whatever it held before.
  Write assigned{WriteVerb::kUpdateStatus, cq, "", ""};
  Write source = w;
  assigned = std::move(source);
  CHECK(assigned.object == w.object);
  REQUIRE(object_if<ClusterQueue>(source.object) != nullptr);  // NOLINT: read after move on purpose
  CHECK(object_if<ClusterQueue>(source.object)->metadata.name.empty());
  cq.status.pending_workloads = 4;
  CHECK_FALSE(Write{WriteVerb::kUpdateStatus, cq, "", ""}.object == w.object);
  CHECK(sizeof(Write) < sizeof(InstanceType));  // the largest kinds are not held in place
}
