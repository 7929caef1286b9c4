#include <catch2/catch.hpp>

#include "live/drift.h"
#include "model/stage4/operator_controllers.h"
#include "model/stage4/reconcile_loop.h"
#include "sim/scenario/default_scenario.h"
#include "sim/scenario/scenario_loader.h"

using namespace chaintwin;

namespace {
// The default scenario's cluster as the operator leaves it.
model::ClusterState settled_default() {
  auto s = sim::load_scenario_text(std::string(sim::data::kDefaultScenarioYaml), "default");
  REQUIRE(s.ok());
  auto c = model::converge(s->cluster, model::operator_controllers(), "2026-01-01T00:00:00Z");
  REQUIRE(c.ok());
  return c->state;
}
}  // namespace

TEST_CASE("shadow mode finds no drift where the operator has settled, and names each write where it has not",
          "[live][drift]") {
  const model::ClusterState settled = settled_default();
  auto none = live::compute_drift(settled, "2026-01-01T00:00:00Z");
  REQUIRE(none.ok());
  CHECK(none->rows.empty());
  CHECK(none->writes.empty());

  // A LocalQueue someone deleted: the operator recreates it.
  model::ClusterState lost = settled;
  REQUIRE_FALSE(lost.local_queues.empty());
  const std::string lq = lost.local_queues.begin()->first;
  lost.local_queues.erase(lost.local_queues.begin());
  auto one = live::compute_drift(lost, "2026-01-01T00:00:00Z");
  REQUIRE(one.ok());
  REQUIRE(one->rows.size() >= 1);
  REQUIRE(one->writes.size() == one->rows.size());
  CHECK(one->rows.front().kind == "LocalQueue");
  CHECK(one->rows.front().name == lq);
  CHECK(one->rows.front().verb == "create");
  CHECK(one->rows.front().controller == "NodeQueueEntrance");

  // A queue whose resource groups someone emptied: the operator fills them again.
  model::ClusterState emptied = settled;
  auto& cq = emptied.cluster_queues.begin()->second;
  cq.spec.resource_groups.clear();
  auto refill = live::compute_drift(emptied, "2026-01-01T00:00:00Z");
  REQUIRE(refill.ok());
  bool found = false;
  for (const auto& r : refill->rows) found = found || (r.kind == "ClusterQueue" && r.name == cq.metadata.name && r.verb == "update");
  CHECK(found);
  CHECK_THAT(live::drift_table(refill->rows), Catch::Contains("write(s) the operator would make"));
  CHECK(live::drift_table({}) == "no drift: the cluster is where the operator would leave it\n");
}
