// Where a Workload's spec.priority comes from (Kueue v0.14.8 pkg/util/priority:
// GetPriorityFromWorkloadPriorityClass, GetPriorityFromPriorityClass, getDefaultPriorityClass),
// and the two class objects as the API server accepts them.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "model/workload/priority_class_codec.h"

namespace chaintwin::model {
namespace {

WorkloadPriorityClass wpc(const std::string& name, int32_t value) {
  WorkloadPriorityClass c;
  c.metadata.name = name;
  c.value = value;
  return c;
}

PriorityClass pc(const std::string& name, int32_t value, bool global_default = false) {
  PriorityClass c;
  c.metadata.name = name;
  c.value = value;
  c.global_default = global_default;
  return c;
}

}  // namespace

TEST_CASE("A Workload's priority comes from its WorkloadPriorityClass, else its PriorityClass, else the global default",
          "[priority-class]") {
  const std::map<std::string, WorkloadPriorityClass> workload_classes = {{"urgent", wpc("urgent", 1000)}};
  const std::map<std::string, PriorityClass> no_default = {{"batch", pc("batch", 10)}};
  const std::map<std::string, PriorityClass> two_defaults = {
      {"a-high", pc("a-high", 50, true)}, {"b-low", pc("b-low", 7, true)}, {"batch", pc("batch", 10)}};
  struct Row {
    const char* what;
    std::string workload_class, pod_class;
    const std::map<std::string, PriorityClass>* pod_classes;
    ResolvedPriority expected;
  };
  const std::vector<Row> rows = {
      {"the WorkloadPriorityClass wins", "urgent", "batch", &no_default,
       {1000, "kueue.x-k8s.io/workloadpriorityclass", "urgent"}},
      {"the named PriorityClass", "", "batch", &no_default, {10, "scheduling.k8s.io/priorityclass", "batch"}},
      {"no class and no default: 0", "", "", &no_default, {0, "", ""}},
      {"no class: the global default, the lowest of two", "", "", &two_defaults,
       {7, "scheduling.k8s.io/priorityclass", "b-low"}},
      {"a named class is taken over the global default", "", "batch", &two_defaults,
       {10, "scheduling.k8s.io/priorityclass", "batch"}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const auto got = resolve_priority(r.workload_class, r.pod_class, workload_classes, *r.pod_classes);
    REQUIRE(got.ok());
    CHECK(*got == r.expected);
  }
  CHECK(resolve_priority("nope", "", workload_classes, no_default).error() ==
        "workloadpriorityclasses.kueue.x-k8s.io \"nope\" not found");
  CHECK(resolve_priority("", "nope", workload_classes, no_default).error() ==
        "priorityclasses.scheduling.k8s.io \"nope\" not found");
}

TEST_CASE("Priority class objects are refused as the API server refuses them", "[priority-class]") {
  using nlohmann::json;
  struct Row {
    const char* what;
    json document;
    std::string error;  // empty: accepted
  };
  const std::vector<Row> rows = {
      {"a PriorityClass", {{"apiVersion", "scheduling.k8s.io/v1"}, {"kind", "PriorityClass"}, {"metadata", {{"name", "p"}}}, {"value", 10}, {"globalDefault", true}}, ""},
      {"no value", {{"apiVersion", "scheduling.k8s.io/v1"}, {"kind", "PriorityClass"}, {"metadata", {{"name", "p"}}}}, "value: Required value"},
      {"a user class above 10^9", {{"apiVersion", "scheduling.k8s.io/v1"}, {"kind", "PriorityClass"}, {"metadata", {{"name", "p"}}}, {"value", 2000000000}},
       "value: Forbidden: maximum allowed value of a user defined priority is 1000000000"},
      {"a system class above 10^9", {{"apiVersion", "scheduling.k8s.io/v1"}, {"kind", "PriorityClass"}, {"metadata", {{"name", "system-node-critical"}}}, {"value", 2000001000}}, ""},
      {"a value past int32", {{"apiVersion", "scheduling.k8s.io/v1"}, {"kind", "PriorityClass"}, {"metadata", {{"name", "system-x"}}}, {"value", 3000000000}}, "value"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    const auto c = decode_priority_class(r.document);
    CHECK(c.ok() == r.error.empty());
    if (!c.ok()) CHECK_THAT(c.error(), Catch::Contains(r.error));
    if (c.ok()) CHECK(decode_priority_class(encode_priority_class(*c)).value() == *c);
  }
  const auto w = decode_workload_priority_class(
      {{"apiVersion", "kueue.x-k8s.io/v1beta1"}, {"kind", "WorkloadPriorityClass"}, {"metadata", {{"name", "u"}}}, {"value", -3}});
  REQUIRE(w.ok());
  CHECK(w->value == -3);
  CHECK(decode_workload_priority_class(encode_workload_priority_class(*w)).value() == *w);
  CHECK_FALSE(decode_workload_priority_class({{"kind", "WorkloadPriorityClass"}, {"metadata", {{"name", "u"}}}}).ok());
}

}  // namespace chaintwin::model
