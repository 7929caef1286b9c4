// Writing a plan variable's value into a scenario document by field path.
#include <catch2/catch.hpp>

#include "sim/plan/field_patch.h"

using chaintwin::sim::plan::apply_patch;
using chaintwin::sim::plan::FieldPatch;
using nlohmann::json;

namespace {

json document() {
  return json::parse(R"({
    "cluster": {"nodes": [{"namePrefix": "cpu-", "count": 2}, {"name": "h100-0", "accelerators": {"count": 8}}]},
    "settings": {},
    "workloads": [{"name": "chat", "podSets": [{"request": {"sliced": {"memoryPercentage": 25}}}]}]
  })");
}

}  // namespace

TEST_CASE("a field path writes where it points: by entry name, by index, by quoted key, merging mappings", "[plan]") {
  struct Case {
    std::string path;
    json value;
    std::string pointer;  // JSON pointer of what to read back
    json want;
  };
  const std::vector<Case> cases{
      {"cluster.nodes[cpu-].count", 5, "/cluster/nodes/0/count", 5},
      {"cluster.nodes[h100-0].count", 3, "/cluster/nodes/1/count", 3},
      {"cluster.nodes[1].accelerators", json{{"product", "NVIDIA H100 80GB HBM3"}}, "/cluster/nodes/1/accelerators",
       json{{"count", 8}, {"product", "NVIDIA H100 80GB HBM3"}}},
      {"settings[\"workload-fit-affinity\"]", false, "/settings/workload-fit-affinity", false},
      {"workloads[chat].podSets[0].request", json{{"partitioned", "1g.10gb"}, {"sliced", nullptr}},
       "/workloads/0/podSets/0/request", json{{"partitioned", "1g.10gb"}}},
      {"horizon", "12h", "/horizon", "12h"},
      {"kueue.schedulingCycleCost", "2ms", "/kueue/schedulingCycleCost", "2ms"},
  };
  for (const auto& c : cases) {
    INFO(c.path);
    json doc = document();
    REQUIRE(apply_patch(doc, FieldPatch{c.path, c.value}).ok());
    CHECK(doc.at(json::json_pointer(c.pointer)) == c.want);
  }
}

TEST_CASE("a field path that points nowhere is refused with what is there", "[plan]") {
  struct Case {
    std::string path;
    std::string message;
  };
  const std::vector<Case> cases{
      {"cluster.nodes[a100-].count", "has no entry named 'a100-' (entries: cpu-, h100-0)"},
      {"cluster.nodes[7].count", "has 2 entries (no [7])"},
      {"cluster.nodes.count", "is not a mapping"},
      {"settings[0]", "is not a list"},
      {"cluster..nodes", "empty field name"},
      {"cluster.nodes[", "is not closed"},
      {"", "empty"},
  };
  for (const auto& c : cases) {
    INFO(c.path);
    json doc = document();
    const auto s = apply_patch(doc, FieldPatch{c.path, 1});
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.error(), Catch::Contains(c.message));
  }
}
