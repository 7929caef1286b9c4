#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/kueue/kueue_status_reconciler.h"
#include "model/stage3/pool_identity.h"
#include "model/stage4/admission_check_reconciler.h"
#include "model/stage4/node_queue_entrance_reconciler.h"

using namespace chaintwin::model;

namespace {

ClusterState applied(const ClusterState& s, const Plan& p) {
  auto next = apply_plan(s, p, "t1");
  REQUIRE(next.ok());
  return *next;
}

AdmissionCheck check(const std::string& name, const std::string& controller, std::vector<Condition> conditions = {}) {
  AdmissionCheck ac;
  ac.metadata.name = name;
  ac.controller_name = controller;
  ac.conditions = std::move(conditions);
  return ac;
}

}  // namespace

TEST_CASE("the node-devices check matches the golden constants", "[admission_check]") {
  std::ifstream in(std::string(CHAINTWIN_SOURCE_DIR) + "/tests/golden/cases/flavors.json");
  REQUIRE(in.good());
  const auto constants = nlohmann::json::parse(in).at("constants").at("admissionChecks").at("nodeDevices");
  CHECK(constants.at("name") == std::string(kNodeDevicesAdmissionCheck));
  CHECK(constants.at("controllerName") == std::string(kNodeDevicesControllerName));
  CHECK(constants.at("retryAfterSeconds") == kNodeDevicesRetryAfterSeconds);
}

TEST_CASE("both checks are created when missing, then marked Active by their controllers", "[admission_check]") {
  const Plan create = reconcile_admission_checks(ClusterState{});
  REQUIRE(create.writes.size() == 2);
  for (const auto& w : create.writes) CHECK(w.verb == WriteVerb::kCreate);
  const auto& devices = std::get<AdmissionCheck>(create.writes[0].object);
  CHECK(devices.metadata.name == "gpustack-node-devices");
  CHECK(devices.controller_name == "worker.gpustack.ai/node-devices");
  CHECK_FALSE(devices.retry_delay_minutes.has_value());
  CHECK(devices.conditions.empty());
  CHECK(devices.metadata.labels.at("app.kubernetes.io/part-of") == "gpustack-operator");
  const auto& joint = std::get<AdmissionCheck>(create.writes[1].object);
  CHECK(joint.metadata.name == "gpustack-model-deployment-joint");
  CHECK(joint.controller_name == "worker.gpustack.ai/model-deployment-joint");

  const auto created = applied(ClusterState{}, create);
  const Plan activate = reconcile_admission_checks(created);
  REQUIRE(activate.writes.size() == 2);
  const auto active = applied(created, activate);
  const auto& d = active.admission_checks.at("gpustack-node-devices");
  CHECK(d.active());
  CHECK(d.conditions == std::vector<Condition>{
                            {"Active", "True", "Ready", "the node-devices admission check controller is running", 0}});
  CHECK(active.admission_checks.at("gpustack-model-deployment-joint").conditions.at(0).message ==
        "the model deployment joint admission check controller is running");
  CHECK(reconcile_admission_checks(active).empty());
}

TEST_CASE("activation touches only owned checks that are not already Active", "[admission_check]") {
  struct Row {
    const char* name;
    AdmissionCheck check;
    bool written;
  };
  const Row rows[] = {
      {"an owned check that is False is reactivated",
       check("gpustack-node-devices", "worker.gpustack.ai/node-devices", {{"Active", "False", "Down", "", 0}}), true},
      {"an owned check with no condition is activated",
       check("gpustack-model-deployment-joint", "worker.gpustack.ai/model-deployment-joint"), true},
      {"an owned check already True under another reason is left alone",
       check("gpustack-node-devices", "worker.gpustack.ai/node-devices", {{"Active", "True", "ByHand", "", 0}}), false},
      {"a check renamed to another controller is someone else's",
       check("gpustack-node-devices", "example.com/other"), false},
      {"an owned controller name on a differently named check is activated too",
       check("my-devices-check", "worker.gpustack.ai/node-devices"), true},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    ClusterState s;
    s.admission_checks[r.check.metadata.name] = r.check;
    for (const char* n : {"gpustack-node-devices", "gpustack-model-deployment-joint"})
      if (s.admission_checks.count(n) == 0)
        s.admission_checks[n] = check(n, n == std::string("gpustack-node-devices") ? "worker.gpustack.ai/node-devices"
                                                                                   : "worker.gpustack.ai/model-deployment-joint",
                                      {{"Active", "True", "Ready", "", 0}});
    const Plan plan = reconcile_admission_checks(s);
    CHECK(plan.writes.size() == (r.written ? 1u : 0u));
    if (r.written) {
      CHECK(plan.writes[0].verb == WriteVerb::kUpdateStatus);
      const auto& ac = std::get<AdmissionCheck>(plan.writes[0].object);
      CHECK(ac.metadata.name == r.check.metadata.name);
      CHECK(ac.active());
      CHECK(ac.conditions.size() == 1);
    }
  }
}

TEST_CASE("a terminating check is not recreated while it still exists", "[admission_check]") {
  ClusterState s;
  for (const auto& [n, c] : {std::pair{"gpustack-node-devices", "worker.gpustack.ai/node-devices"},
                              std::pair{"gpustack-model-deployment-joint", "worker.gpustack.ai/model-deployment-joint"}}) {
    auto ac = check(n, c, {{"Active", "True", "Ready", "", 0}});
    ac.metadata.deletion_timestamp = "t0";
    ac.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
    s.admission_checks[n] = ac;
  }
  CHECK(reconcile_admission_checks(s).empty());
  s.admission_checks.erase("gpustack-node-devices");
  const Plan plan = reconcile_admission_checks(s);
  REQUIRE(plan.writes.size() == 1);
  CHECK(plan.writes[0].verb == WriteVerb::kCreate);
}

TEST_CASE("a queue that references the checks turns Active once they exist and are Active", "[admission_check]") {
  ClusterState s;
  Namespace team;
  team.metadata.name = "team-a";
  s.namespaces["team-a"] = team;
  ClusterQueue cq;
  cq.metadata.name = "gpustack--generic-linux-amd64";
  cq.metadata.labels = {{"resource.gpustack.ai/type", "instancetypes"}};
  cq.spec.admission_checks = {"gpustack-model-deployment-joint", "gpustack-node-devices"};
  s.cluster_queues[cq.metadata.name] = cq;

  std::vector<std::string> reasons;  // the Active reason Kueue reported after each pass
  int pass = 0;
  for (; pass < 6; ++pass) {
    Plan plan = reconcile_kueue(s);
    plan.append(reconcile_admission_checks(s));
    plan.append(reconcile_node_queue_entrance(s));
    if (plan.empty()) break;
    s = applied(s, plan);
    const Condition* active = find_condition(s.cluster_queues.at(cq.metadata.name).status.conditions, "Active");
    reasons.push_back(active == nullptr ? "" : active->reason);
  }
  CHECK(pass == 3);
  CHECK(reasons == std::vector<std::string>{"AdmissionCheckNotFound", "AdmissionCheckInactive", "Ready"});
  CHECK(s.local_queues.count("team-a/" + format_local_queue_name(cq.metadata.name)) == 1);
  CHECK(s.admission_checks.at("gpustack-node-devices").metadata.finalizers ==
        std::vector<std::string>{"kueue.x-k8s.io/resource-in-use"});
}
