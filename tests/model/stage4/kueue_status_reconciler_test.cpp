#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/kueue/kueue_status_reconciler.h"

using namespace chaintwin::model;

namespace {

const std::string kFinalizer = "kueue.x-k8s.io/resource-in-use";

Quantity q(const char* text) { return Quantity::parse(text).value(); }

ResourceFlavor flavor(const std::string& name, const std::string& topology = "gpustack-hostname") {
  ResourceFlavor rf;
  rf.metadata.name = name;
  rf.spec.topology_name = topology;
  return rf;
}

AdmissionCheck check(const std::string& name, bool active) {
  AdmissionCheck ac;
  ac.metadata.name = name;
  ac.controller_name = "worker.gpustack.ai/node-devices";
  ac.conditions = {{"Active", active ? "True" : "False", "Ready", "", 0}};
  return ac;
}

// A queue over flavors f1, f2 checked by a and b, all present and Active, generation 4.
ClusterState healthy() {
  ClusterState s;
  Topology t;
  t.metadata.name = "gpustack-hostname";
  t.levels = {"kubernetes.io/hostname"};
  s.topologies[t.metadata.name] = t;
  s.resource_flavors["f1"] = flavor("f1");
  s.resource_flavors["f2"] = flavor("f2");
  s.admission_checks["a"] = check("a", true);
  s.admission_checks["b"] = check("b", true);
  ClusterQueue cq;
  cq.metadata.name = "q";
  cq.metadata.generation = 4;
  cq.spec.resource_groups = {{{"credits.gpustack.ai/nvidia"},
                              {{"f1", {{"credits.gpustack.ai/nvidia", q("1600k"), std::nullopt, std::nullopt}}},
                               {"f2", {{"credits.gpustack.ai/nvidia", q("3200k"), std::nullopt, std::nullopt}}}}}};
  cq.spec.admission_checks = {"b", "a"};
  s.cluster_queues["q"] = cq;
  return s;
}

ClusterState applied(const ClusterState& s, const Plan& p) {
  auto next = apply_plan(s, p, "t1");
  REQUIRE(next.ok());
  return *next;
}

// Runs Kueue until it has nothing left to write.
ClusterState settle(ClusterState s) {
  for (int pass = 0; pass < 5; ++pass) {
    const Plan p = reconcile_kueue(s);
    if (p.empty()) return s;
    s = applied(s, p);
  }
  FAIL("Kueue did not settle");
  return s;
}

}  // namespace

TEST_CASE("the Active condition names every cause, the first one as the reason", "[kueue_status]") {
  struct Row {
    const char* name;
    std::function<void(ClusterState&)> change;
    const char* status;
    const char* reason;
    std::string message;
  };
  const Row rows[] = {
      {"a healthy queue is ready", [](ClusterState&) {}, "True", "Ready", "Can admit new workloads"},
      {"Hold stops it", [](ClusterState& s) { s.cluster_queues["q"].spec.stop_policy = StopPolicy::kHold; }, "False",
       "Stopped", "Can't admit new workloads: is stopped."},
      {"HoldAndDrain stops it",
       [](ClusterState& s) { s.cluster_queues["q"].spec.stop_policy = StopPolicy::kHoldAndDrain; }, "False", "Stopped",
       "Can't admit new workloads: is stopped."},
      {"an explicit None does not", [](ClusterState& s) { s.cluster_queues["q"].spec.stop_policy = StopPolicy::kNone; },
       "True", "Ready", "Can admit new workloads"},
      {"a missing flavor", [](ClusterState& s) { s.resource_flavors.erase("f2"); }, "False", "FlavorNotFound",
       "Can't admit new workloads: references missing ResourceFlavor(s): f2."},
      {"a terminating flavor still counts as present",
       [](ClusterState& s) { s.resource_flavors["f2"].metadata.deletion_timestamp = "t0"; }, "True", "Ready",
       "Can admit new workloads"},
      {"missing checks are listed sorted",
       [](ClusterState& s) {
         s.admission_checks.clear();
       },
       "False", "AdmissionCheckNotFound", "Can't admit new workloads: references missing AdmissionCheck(s): a,b."},
      {"an inactive check", [](ClusterState& s) { s.admission_checks["b"] = check("b", false); }, "False",
       "AdmissionCheckInactive", "Can't admit new workloads: references inactive AdmissionCheck(s): b."},
      {"a check with no condition is inactive", [](ClusterState& s) { s.admission_checks["a"].conditions.clear(); },
       "False", "AdmissionCheckInactive", "Can't admit new workloads: references inactive AdmissionCheck(s): a."},
      {"a TAS flavor whose topology is missing", [](ClusterState& s) { s.topologies.clear(); }, "False",
       "TopologyNotFound",
       "Can't admit new workloads: there is no Topology \"gpustack-hostname\" for TAS flavor \"f1\", there is no "
       "Topology \"gpustack-hostname\" for TAS flavor \"f2\"."},
      {"a non-TAS flavor needs no topology",
       [](ClusterState& s) {
         s.topologies.clear();
         s.resource_flavors["f1"].spec.topology_name.clear();
         s.resource_flavors["f2"].spec.topology_name.clear();
       },
       "True", "Ready", "Can admit new workloads"},
      {"every cause at once, in Kueue's order",
       [](ClusterState& s) {
         s.cluster_queues["q"].spec.stop_policy = StopPolicy::kHold;
         s.resource_flavors.erase("f1");
         s.admission_checks.erase("b");
         s.admission_checks["a"] = check("a", false);
         s.topologies.clear();
       },
       "False", "Stopped",
       "Can't admit new workloads: is stopped, references missing ResourceFlavor(s): f1, references missing "
       "AdmissionCheck(s): b, references inactive AdmissionCheck(s): a, there is no Topology \"gpustack-hostname\" "
       "for TAS flavor \"f2\"."},
      {"no resource groups is not a cause",
       [](ClusterState& s) {
         s.cluster_queues["q"].spec.resource_groups.clear();
         s.resource_flavors.clear();
       },
       "True", "Ready", "Can admit new workloads"},
      {"a terminating queue", [](ClusterState& s) { s.cluster_queues["q"].metadata.deletion_timestamp = "t0"; },
       "False", "Terminating", "Can't admit new workloads; clusterQueue is terminating"},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    ClusterState s = healthy();
    r.change(s);
    const Condition c = cluster_queue_active_condition(s.cluster_queues.at("q"), s);
    CHECK(c.type == "Active");
    CHECK(c.status == r.status);
    CHECK(c.reason == r.reason);
    CHECK(c.message == r.message);
    CHECK(c.observed_generation == 4);
  }
}

TEST_CASE("Kueue protects every object with its finalizer and reports Active, then settles", "[kueue_status]") {
  ClusterState s = healthy();
  s.cluster_queues["q"].status.conditions = {{"TopologyReady", "True", "Ready", "", 4}};
  s.cluster_queues["q"].status.reserving_workloads = 2;
  s.cluster_queues["q"].status.admitted_workloads = 1;
  const Plan first = reconcile_kueue(s);
  // f1, f2, a, b, the topology and the queue get the finalizer; the queue gets a status write.
  int finalizer_writes = 0, status_writes = 0;
  for (const auto& w : first.writes) {
    CHECK(w.controller == "Kueue");
    if (w.verb == WriteVerb::kUpdate) ++finalizer_writes;
    if (w.verb == WriteVerb::kUpdateStatus) ++status_writes;
  }
  CHECK(finalizer_writes == 6);
  CHECK(status_writes == 1);
  const auto after = applied(s, first);
  for (const auto& [n, rf] : after.resource_flavors) CHECK(rf.metadata.finalizers == std::vector<std::string>{kFinalizer});
  CHECK(after.topologies.at("gpustack-hostname").metadata.finalizers == std::vector<std::string>{kFinalizer});
  CHECK(after.admission_checks.at("a").metadata.finalizers == std::vector<std::string>{kFinalizer});
  const auto& cq = after.cluster_queues.at("q");
  CHECK(cq.metadata.finalizers == std::vector<std::string>{kFinalizer});
  CHECK(cq.metadata.generation == 4);
  REQUIRE(cq.status.conditions.size() == 2);
  CHECK(cq.status.conditions[0].type == "TopologyReady");
  CHECK(cq.status.conditions[1] == Condition{"Active", "True", "Ready", "Can admit new workloads", 4});
  CHECK(cq.status.reserving_workloads == 2);
  CHECK(cq.status.admitted_workloads == 1);
  CHECK(reconcile_kueue(after).empty());
}

TEST_CASE("a spec change makes Kueue report the new generation", "[kueue_status]") {
  ClusterState s = settle(healthy());
  ClusterQueue held = s.cluster_queues.at("q");
  held.spec.stop_policy = StopPolicy::kHold;
  Plan edit;
  edit.writes.push_back({WriteVerb::kUpdate, held, "test", "hold"});
  s = applied(s, edit);
  REQUIRE(s.cluster_queues.at("q").metadata.generation == 5);
  const Plan plan = reconcile_kueue(s);
  REQUIRE(plan.writes.size() == 1);
  const auto& reported = *object_if<ClusterQueue>(plan.writes[0].object);
  const Condition* active = find_condition(reported.status.conditions, "Active");
  REQUIRE(active != nullptr);
  CHECK(active->reason == "Stopped");
  CHECK(active->observed_generation == 5);
}

TEST_CASE("a terminating queue is released only once it holds no workload", "[kueue_status]") {
  struct Row {
    const char* name;
    int32_t reserving;
    int32_t admitted;
    std::optional<StopPolicy> policy;
    bool released;
  };
  const Row rows[] = {
      {"still reserving", 1, 0, StopPolicy::kHold, false},
      {"still running", 1, 1, std::nullopt, false},
      {"drained by HoldAndDrain", 0, 0, StopPolicy::kHoldAndDrain, true},
      {"empty without a stop policy", 0, 0, std::nullopt, true},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    ClusterState s = settle(healthy());
    auto& cq = s.cluster_queues.at("q");
    cq.spec.stop_policy = r.policy;
    cq.status.reserving_workloads = r.reserving;
    cq.status.admitted_workloads = r.admitted;
    Plan del;
    del.writes.push_back({WriteVerb::kDelete, cq, "test", "delete"});
    s = applied(s, del);
    REQUIRE(s.cluster_queues.at("q").metadata.deletion_timestamp.has_value());
    const Plan plan = reconcile_kueue(s);
    if (!r.released) {
      CHECK(plan.empty());  // no finalizer removal and no status write while it drains
      continue;
    }
    REQUIRE(plan.writes.size() == 1);
    CHECK(plan.writes[0].verb == WriteVerb::kUpdate);
    CHECK(applied(s, plan).cluster_queues.count("q") == 0);
  }
}

TEST_CASE("a terminating queue kept by another finalizer reports Terminating", "[kueue_status]") {
  ClusterState s = settle(healthy());
  auto& cq = s.cluster_queues.at("q");
  cq.metadata.finalizers = {"example.com/keep"};
  cq.metadata.deletion_timestamp = "t0";
  const Plan plan = reconcile_kueue(s);
  REQUIRE(plan.writes.size() == 1);
  CHECK(plan.writes[0].verb == WriteVerb::kUpdateStatus);
  const auto& reported = *object_if<ClusterQueue>(plan.writes[0].object);
  CHECK(find_condition(reported.status.conditions, "Active")->reason == "Terminating");
}

TEST_CASE("a flavor, check or topology is released once nothing uses it", "[kueue_status]") {
  ClusterState s = settle(healthy());
  for (auto* meta : {&s.resource_flavors.at("f2").metadata, &s.admission_checks.at("b").metadata,
                     &s.topologies.at("gpustack-hostname").metadata})
    meta->deletion_timestamp = "t0";
  // Still referenced: the queue lists f2 and b, and the flavors name the topology.
  CHECK(cluster_queues_using_flavor(s, "f2") == std::vector<std::string>{"q"});
  CHECK(flavors_using_topology(s, "gpustack-hostname") == std::vector<std::string>{"f1", "f2"});
  CHECK(reconcile_kueue(s).empty());  // nothing is released and the queue stays ready

  // The operator drops f2 and b from the queue: Kueue lets them go.
  ClusterQueue narrowed = s.cluster_queues.at("q");
  narrowed.spec.resource_groups[0].flavors.pop_back();
  narrowed.spec.admission_checks = {"a"};
  Plan edit;
  edit.writes.push_back({WriteVerb::kUpdate, narrowed, "test", "narrow"});
  s = settle(applied(s, edit));
  CHECK(s.resource_flavors.count("f2") == 0);
  CHECK(s.admission_checks.count("b") == 0);
  CHECK(s.topologies.count("gpustack-hostname") == 1);  // f1 still names it
  CHECK(find_condition(s.cluster_queues.at("q").status.conditions, "Active")->status == "True");

  // Once the last flavor naming it is gone, the topology goes too.
  s.cluster_queues.clear();
  Plan drop;
  drop.writes.push_back({WriteVerb::kDelete, s.resource_flavors.at("f1"), "test", "delete"});
  s = settle(applied(s, drop));
  CHECK(s.resource_flavors.empty());
  CHECK(s.topologies.empty());
}
