#include <catch2/catch.hpp>

#include "model/api/setting_codec.h"

using chaintwin::model::apply_setting_object;
using chaintwin::model::Settings;
using nlohmann::json;

TEST_CASE("a Setting object overrides one setting and leaves the others at their defaults", "[settings]") {
  Settings s;
  const json obj = {{"apiVersion", "gpustack.ai/v1"}, {"kind", "Setting"},
                    {"metadata", {{"name", "instance-type-mixed-on-node"}, {"namespace", "gpustack-system"}}},
                    {"spec", {{"value", "false"}}}};
  REQUIRE(apply_setting_object(s, obj).ok());
  CHECK_FALSE(s.instance_type_mixed_on_node);
  CHECK(s.instance_type_derived_from_node);
  CHECK_FALSE(s.node_management_manual);
}

TEST_CASE("the value the API reports in status is read when no spec value is written", "[settings]") {
  Settings s;
  REQUIRE(apply_setting_object(s, {{"metadata", {{"name", "node-management-manual"}}}, {"status", {{"value", "true"}}}}).ok());
  CHECK(s.node_management_manual);
}

TEST_CASE("bad Setting objects are refused naming the field", "[settings]") {
  Settings s;
  struct Row {
    json obj;
    const char* message;
  };
  const Row rows[] = {
      {{{"metadata", {{"name", "no-such-setting"}}}, {"spec", {{"value", "true"}}}},
       "metadata.name: unknown setting 'no-such-setting' (known: node-management-manual, instance-type-mixed-on-node, "
       "instance-type-derived-from-node, instance-type-drain-when-no-flavors, instance-type-aware-cpu-manufacturer, "
       "workload-fit-affinity, instance-general-resources-overcommit, instance-persistent-volume-placement, "
       "model-artifact-delivery-mode)"},
      {{{"metadata", {{"name", "model-artifact-delivery-mode"}}}, {"spec", {{"value", "Disk"}}}},
       "spec.value: setting 'model-artifact-delivery-mode' must be \"Engine\" or \"Node\", got 'Disk'"},
      {{{"metadata", {{"name", "GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS"}}}, {"spec", {{"value", "false"}}}},
       "spec.value: 'GPUSTACK_LEDGER_RELEASE_TERMINATED_PODS' is a deploy-time environment variable, not a Setting: "
       "the operator reads it once at startup (set it in the scenario's settings block)"},
      {{{"metadata", {{"name", "workload-fit-affinity"}}}, {"spec", {{"value", "maybe"}}}},
       "spec.value: setting 'workload-fit-affinity' must be \"true\" or \"false\", got 'maybe'"},
      {{{"metadata", {{"name", "workload-fit-affinity"}}}},
       "spec.value: Setting 'workload-fit-affinity' has no value (expected spec.value or status.value)"},
      {{{"spec", {{"value", "true"}}}},
       "metadata.name: a Setting needs its name (the setting's key, e.g. instance-type-mixed-on-node)"},
  };
  for (const auto& row : rows) {
    const auto st = apply_setting_object(s, row.obj);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error() == row.message);
  }
}
