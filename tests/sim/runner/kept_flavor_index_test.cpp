// KeptFlavorIndex (sim/runner/kept_flavor_index.h): NodeFlavor's view of the Nodes is built again
// exactly when a Node write was applied since it was built, and --verify's comparison with a
// rebuild catches an index kept past a Node change.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/stage4/node_flavor_reconciler.h"
#include "sim/runner/kept_flavor_index.h"
#include "tests/model/stage4/flavor_node_fixtures.h"

using namespace chaintwin;

namespace {

model::Node cpu_node(const std::string& name, int64_t cpu) { return model::testing::flavor_cpu_node(name, cpu); }

model::ClusterState cluster() {
  model::ClusterState s;
  for (auto n : {cpu_node("a", 4), cpu_node("b", 8), cpu_node("c", 4)}) s.nodes[n.metadata.name] = n;
  return s;
}

model::WriteReceipt node_write(const std::string& name) {
  model::Node n;
  n.metadata.name = name;
  return model::receipt_of(model::Write{model::WriteVerb::kUpdate, n, "NodeTopology", ""});
}

model::WriteReceipt flavor_write(const std::string& name) {
  model::ResourceFlavor f;
  f.metadata.name = name;
  return model::receipt_of(model::Write{model::WriteVerb::kCreate, f, "NodeFlavor", ""});
}

}  // namespace

TEST_CASE("only Node writes count towards rebuilding NodeFlavor's index", "[runner][incremental]") {
  struct Row {
    const char* what;
    std::vector<model::WriteReceipt> writes;
    std::size_t expected;
  };
  const std::vector<Row> rows = {
      {"no write", {}, 0},
      {"a ResourceFlavor", {flavor_write("f")}, 0},
      {"a Node", {node_write("a")}, 1},
      {"Nodes among other kinds", {node_write("a"), flavor_write("f"), node_write("b")}, 2},
  };
  for (const auto& row : rows) {
    SECTION(row.what) { CHECK(sim::node_writes_in(row.writes) == row.expected); }
  }
}

TEST_CASE("the kept index is the index of the state until a Node write is counted", "[runner][incremental]") {
  model::ClusterState s = cluster();
  sim::KeptFlavorIndex kept;
  const model::ScheduleFlavorIndex& first = kept.of(s, 0);
  CHECK(first == model::schedule_flavor_index(s));
  CHECK(first.size() == 2);  // the 4-core and the 8-core flavor
  CHECK(kept.differs_from_rebuild(s).empty());
  // The reconcile reading the kept index plans what the one building its own does.
  const model::Plan with_kept = model::reconcile_node_flavor(s, kept.of(s, 0));
  const model::Plan own = model::reconcile_node_flavor(s);
  REQUIRE(with_kept.writes.size() == own.writes.size());
  for (std::size_t i = 0; i < own.writes.size(); ++i) CHECK(write_summary(with_kept.writes[i]) == write_summary(own.writes[i]));

  SECTION("a Node changed without a counted write: --verify's rebuild tells") {
    s.nodes.at("c").metadata.labels["general.feature.gpustack.ai/generic.count"] = "16";
    CHECK(kept.of(s, 0).size() == 2);  // kept: the change was not counted
    CHECK_FALSE(kept.differs_from_rebuild(s).empty());
  }
  SECTION("a counted Node write rebuilds it") {
    s.nodes.at("c").metadata.labels["general.feature.gpustack.ai/generic.count"] = "16";
    CHECK(kept.of(s, 1).size() == 3);
    CHECK(kept.of(s, 1) == model::schedule_flavor_index(s));
    CHECK(kept.differs_from_rebuild(s).empty());
  }
  SECTION("a deleted Node, counted, leaves the index") {
    s.nodes.erase("b");
    CHECK(kept.of(s, 1).size() == 1);
    CHECK(kept.differs_from_rebuild(s).empty());
  }
}
