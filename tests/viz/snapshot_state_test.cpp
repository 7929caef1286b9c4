#include <catch2/catch.hpp>

#include "model/workload/workload.h"
#include "viz/snapshot_state.h"

using namespace chaintwin;

namespace {

model::Workload workload(const std::string& name, std::vector<model::Condition> conditions, bool reserved) {
  model::Workload w;
  w.metadata.name = name;
  w.metadata.namespace_ = "team-a";
  w.queue_name = "lq";
  w.status.conditions = std::move(conditions);
  if (reserved) w.status.admission = model::Admission{"cq", {}};
  return w;
}

}  // namespace

TEST_CASE("a Workload read from a cluster shows what Kueue last said about it", "[viz][snapshot-state]") {
  model::WorkloadState state;
  const std::string waiting = "couldn't assign flavors to pod set main: insufficient quota";
  state.workloads["team-a/waiting"] =
      workload("waiting", {{"QuotaReserved", "False", "Pending", waiting, 0}}, false);
  state.workloads["team-a/running"] =
      workload("running", {{"QuotaReserved", "True", "QuotaReserved", "Quota reserved", 0}, {"Admitted", "True", "Admitted", "", 0}}, true);
  state.workloads["team-a/new"] = workload("new", {}, false);
  viz::Snapshot snap;
  viz::fill_cluster_state(snap, model::ClusterState{}, state);
  REQUIRE(snap.workloads.size() == 3);
  for (const auto& r : snap.workloads) {
    INFO(r.key);
    if (r.key == "team-a/waiting") {
      CHECK(r.phase == viz::WorkloadPhase::kPending);
      CHECK(r.reason == waiting);
    } else if (r.key == "team-a/running") {
      CHECK(r.phase == viz::WorkloadPhase::kAdmitted);
      CHECK(r.reason.empty());
    } else {
      CHECK(r.phase == viz::WorkloadPhase::kPending);
      CHECK(r.reason.empty());  // nothing said yet
    }
  }
}
