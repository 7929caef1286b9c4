#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "live/cluster_role.h"
#include "sim/kube_documents.h"

using namespace chaintwin;
using json = nlohmann::json;

namespace {
live::ClusterRole shipped(const std::string& name) {
  auto docs = sim::load_kubernetes_objects(std::string(CHAINTWIN_SOURCE_DIR) + "/docs/rbac/" + name + ".yaml");
  REQUIRE(docs.ok());
  REQUIRE(docs->size() == 1);
  auto role = live::decode_cluster_role(docs->front().object);
  REQUIRE(role.ok());
  return *role;
}

json with_rules(json rules) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "ClusterRole"}, {"metadata", {{"name", "r"}}},
          {"rules", std::move(rules)}};
}
}  // namespace

TEST_CASE("the shipped ClusterRoles allow what each mode does and nothing it does not", "[live][rbac]") {
  const live::ClusterRole shadow = shipped("chaintwin-shadow"), apply = shipped("chaintwin-apply");
  CHECK(shadow.name == "chaintwin-shadow");
  struct Row {
    const char* group;
    const char* resource;
    const char* verb;
    bool shadow, apply;
  };
  const std::vector<Row> rows = {
      {"", "nodes", "watch", true, true},
      {"", "nodes", "patch", false, true},
      {"", "nodes/status", "patch", false, true},
      {"", "nodes", "delete", false, false},
      {"", "pods", "list", false, false},
      {"worker.gpustack.ai", "instancetypes/status", "update", false, true},
      {"worker.gpustack.ai", "devices", "list", true, true},
      {"gpustack.ai", "settings", "update", false, false},
      {"kueue.x-k8s.io", "workloads", "watch", true, true},
      {"kueue.x-k8s.io", "workloads", "update", false, false},
      {"kueue.x-k8s.io", "clusterqueues", "create", false, true},
      {"kueue.x-k8s.io", "clusterqueues/status", "update", false, true},
      {"kueue.x-k8s.io", "localqueues", "delete", false, true},
      {"rbac.authorization.k8s.io", "clusterroles", "get", false, false},
  };
  for (const auto& r : rows) {
    INFO(r.group << " " << r.resource << " " << r.verb);
    CHECK(live::allows(shadow, r.group, r.resource, r.verb) == r.shadow);
    CHECK(live::allows(apply, r.group, r.resource, r.verb) == r.apply);
  }
}

TEST_CASE("a ClusterRole that cannot be modelled is refused with the field", "[live][rbac]") {
  struct Row {
    json document;
    const char* message;
  };
  const std::vector<Row> rows = {
      {{{"kind", "Role"}}, "expected a ClusterRole"},
      {with_rules(json::array({{{"verbs", "get"}}})), "rules[0].verbs: expected a list of strings"},
      {with_rules(json::array({{{"resources", {"nodes"}}, {"resourceNames", {"a"}}}})), "rules[0]: resourceNames"},
  };
  for (const auto& r : rows) {
    auto role = live::decode_cluster_role(r.document);
    REQUIRE_FALSE(role.ok());
    CHECK_THAT(role.error(), Catch::Matchers::Contains(r.message));
  }
  auto star = live::decode_cluster_role(with_rules(json::array({{{"apiGroups", {"*"}}, {"resources", {"*"}}, {"verbs", {"*"}}}})));
  REQUIRE(star.ok());
  CHECK(live::allows(*star, "anything", "at/all", "delete"));
}
