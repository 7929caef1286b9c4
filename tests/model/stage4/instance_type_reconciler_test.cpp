// The InstanceType controller as a pure reconciler: queue creation and alignment, the
// Inactive <-> stop-policy sync (@f130444c), the status write and the teardown sequence.
#include <catch2/catch.hpp>

#include "model/stage3/pool_identity.h"
#include "model/stage4/instance_type_reconciler.h"
#include "tests/model/stage4/instance_type_fixtures.h"

namespace {

using namespace chaintwin::test;
namespace m = chaintwin::model;

const std::string kName = "gpustack--nvidia-a10g-linux-amd64";

m::ClusterState one_type(bool with_finalizer = true) {
  m::ClusterState s;
  auto it = make_type(kName, true, "nvidia-a10g", "generic");
  if (!with_finalizer) it.metadata.finalizers.clear();
  s.instance_types[kName] = it;
  return s;
}

m::ClusterState apply(const m::ClusterState& s, const m::Plan& plan, const std::string& now = "t1") {
  auto next = m::apply_plan(s, plan, now);
  REQUIRE(next.ok());
  return *next;
}

std::vector<m::WriteVerb> verbs(const m::Plan& p) {
  std::vector<m::WriteVerb> out;
  for (const auto& w : p.writes) out.push_back(w.verb);
  return out;
}

std::string annotation(const m::ClusterQueue& cq, std::string_view key) {
  const auto it = cq.metadata.annotations.find(std::string(key));
  return it == cq.metadata.annotations.end() ? "" : it->second;
}

// A queue with one resource group (filled) or none.
m::ClusterQueue queue_for(const m::InstanceType& it, m::StopPolicy policy, bool groups, const m::StringMap& ann = {}) {
  auto cq = m::new_cluster_queue_for(it, false);
  cq.metadata.annotations = ann;
  cq.spec.stop_policy = policy;
  if (groups) cq.spec.resource_groups.push_back({{"credits.gpustack.ai/nvidia"}, {{"rf", {}}}});
  return cq;
}

}  // namespace

TEST_CASE("the first pass locks the type, creates its queue held and marked, and fills the status") {
  const auto s = one_type(false);
  const auto plan = m::reconcile_instance_type(s);
  REQUIRE(verbs(plan) == std::vector<m::WriteVerb>{m::WriteVerb::kUpdate, m::WriteVerb::kCreate,
                                                   m::WriteVerb::kUpdateStatus});
  const auto next = apply(s, plan);
  const auto& it = next.instance_types.at(kName);
  CHECK(it.metadata.finalizers == std::vector<std::string>{std::string(k::kControlledFinalizer)});
  const auto& cq = next.cluster_queues.at(kName);
  CHECK(cq.stop_policy() == m::StopPolicy::kHold);
  CHECK(annotation(cq, k::kEmptyPlanHold) == "true");
  CHECK(annotation(cq, k::kTasQueue).empty());  // the NodeQueue reconciler stamps it when it fills the groups
  CHECK(cq.metadata.labels == m::StringMap{{std::string(k::kAcceleratable), "true"},
                                           {std::string(k::kOs), "linux"},
                                           {std::string(k::kArch), "amd64"},
                                           {acc("nvidia-a10g"), "true"},
                                           {std::string(k::kResourceType), "instancetypes"}});
  CHECK(cq.spec.cohort_name.empty());
  CHECK(cq.spec.resource_groups.empty());
  CHECK(cq.spec.preemption.reclaim_within_cohort == "Never");
  CHECK(cq.spec.preemption.borrow_within_cohort_policy == "Never");
  CHECK(cq.spec.preemption.within_cluster_queue == "LowerPriority");
  CHECK_FALSE(cq.spec.preemption.max_priority_threshold);
  CHECK(cq.spec.flavor_fungibility.when_can_borrow == "TryNextFlavor");
  CHECK(cq.spec.flavor_fungibility.when_can_preempt == "MayStopSearch");
  CHECK(cq.spec.flavor_fungibility.preference.empty());
  CHECK(it.status.phase == "Inactive");
  CHECK(it.status.entrance == "gpustack-fnv64-c4680bb149644f1c");
  CHECK(m::reconcile_instance_type(next).empty());  // converged: the marked Hold is not ours to release
}

TEST_CASE("the aware queue also carries the CPU key, the generic sentinel never becomes a label") {
  auto it = make_type("gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64", true, "nvidia-a10g", "amd-epyc-7r32");
  CHECK(m::new_cluster_queue_for(it, true).metadata.labels.count(gen("amd-epyc-7r32")) == 1);
  CHECK(m::new_cluster_queue_for(it, false).metadata.labels.count(gen("amd-epyc-7r32")) == 0);
  auto cpu = make_type("gpustack--generic-linux-amd64", false, "", "generic");
  CHECK(m::new_cluster_queue_for(cpu, true).metadata.labels.count(gen("generic")) == 0);
}

TEST_CASE("re-pointing a type's group prunes the stale feature-key label and keeps foreign labels") {
  auto s = one_type();
  auto cq = queue_for(s.instance_types.at(kName), m::StopPolicy::kNone, true);
  cq.metadata.labels["team"] = "ml";
  s.cluster_queues[kName] = cq;
  s.instance_types.at(kName).spec.accelerator_group = "nvidia-l4";
  const auto aligned = m::aligned_cluster_queue(cq, s.instance_types.at(kName), false);
  REQUIRE(aligned.has_value());
  CHECK(aligned->metadata.labels.count(acc("nvidia-a10g")) == 0);
  CHECK(aligned->metadata.labels.at(acc("nvidia-l4")) == "true");
  CHECK(aligned->metadata.labels.at("team") == "ml");
  CHECK_FALSE(m::aligned_cluster_queue(*aligned, s.instance_types.at(kName), false).has_value());
}

TEST_CASE("a queue an admin deleted is waited for while terminating, then recreated") {
  auto s = one_type();
  auto cq = queue_for(s.instance_types.at(kName), m::StopPolicy::kHoldAndDrain, true);
  cq.metadata.deletion_timestamp = "t0";
  cq.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
  s.cluster_queues[kName] = cq;
  auto plan = m::reconcile_instance_type(s);
  CHECK(plan.writes.empty());
  REQUIRE(plan.requeues.size() == 1);
  CHECK(plan.requeues[0].after_seconds == 15);
  s.cluster_queues.erase(kName);  // Kueue removed it
  plan = m::reconcile_instance_type(s);
  REQUIRE(plan.writes.size() >= 1);
  CHECK(plan.writes[0].verb == m::WriteVerb::kCreate);
  CHECK(m::object_if<m::ClusterQueue>(plan.writes[0].object)->stop_policy() == m::StopPolicy::kHold);
}

TEST_CASE("syncInactive follows the @f130444c table, one write per pass") {
  struct Row {
    const char* name;
    m::StopPolicy start;
    bool inactive, groups;
    m::StringMap annotations;
    bool writes_queue, writes_type;
    m::StopPolicy policy_after;
    std::string marker_after, saved_after;
  };
  const std::string phase(k::kMigrationPhase), saved(k::kMigrationStopPolicy), marker(k::kEmptyPlanHold);
  const std::vector<Row> rows = {
      {"active stays active", m::StopPolicy::kNone, false, true, {}, false, false, m::StopPolicy::kNone, "", ""},
      {"inactive holds", m::StopPolicy::kNone, true, true, {}, true, false, m::StopPolicy::kHold, "", ""},
      {"held inactive is stable", m::StopPolicy::kHold, true, true, {}, false, false, m::StopPolicy::kHold, "", ""},
      {"cleared inactive releases", m::StopPolicy::kHold, false, true, {}, true, false, m::StopPolicy::kNone, "", ""},
      {"cleared inactive on an empty queue marks", m::StopPolicy::kHold, false, false, {}, true, false,
       m::StopPolicy::kHold, "true", ""},
      {"draining is not downgraded", m::StopPolicy::kHoldAndDrain, true, true, {}, false, false,
       m::StopPolicy::kHoldAndDrain, "", ""},
      {"draining backfills inactive", m::StopPolicy::kHoldAndDrain, false, true, {}, false, true,
       m::StopPolicy::kHoldAndDrain, "", ""},
      // The @0ae3355d test expects Inactive=true to drop the marker here ("adopts the marked
      // hold"); the code @f130444c leaves a marked Hold untouched whatever Inactive says.
      {"a marked hold is left alone even when inactive", m::StopPolicy::kHold, true, false, {{marker, "true"}}, false,
       false, m::StopPolicy::kHold, "true", ""},
      {"a marked hold is not mirrored into inactive", m::StopPolicy::kHold, false, false, {{marker, "true"}}, false,
       false, m::StopPolicy::kHold, "true", ""},
      {"migrating: inactive rewrites saved None to Hold", m::StopPolicy::kHoldAndDrain, true, true,
       {{phase, "draining"}, {saved, "None"}}, true, false, m::StopPolicy::kHoldAndDrain, "", "Hold"},
      {"migrating: inactive rewrites saved unset to Hold", m::StopPolicy::kHoldAndDrain, true, true,
       {{phase, "switched"}, {saved, "unset"}}, true, false, m::StopPolicy::kHoldAndDrain, "", "Hold"},
      {"migrating: cleared inactive rewrites saved Hold to None", m::StopPolicy::kHoldAndDrain, false, true,
       {{phase, "draining"}, {saved, "Hold"}}, true, false, m::StopPolicy::kHoldAndDrain, "", "None"},
      {"migrating: nothing is mirrored", m::StopPolicy::kHoldAndDrain, false, true,
       {{phase, "draining"}, {saved, "None"}}, false, false, m::StopPolicy::kHoldAndDrain, "", "None"},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    auto it = make_type(kName, true, "nvidia-a10g", "generic");
    it.spec.inactive = r.inactive;
    const auto cq = queue_for(it, r.start, r.groups, r.annotations);
    const auto sync = m::sync_inactive(it, cq);
    CHECK(sync.queue.has_value() == r.writes_queue);
    CHECK(sync.instance_type.has_value() == r.writes_type);
    const auto& after = sync.queue ? *sync.queue : cq;
    CHECK(after.stop_policy() == r.policy_after);
    CHECK(annotation(after, k::kEmptyPlanHold) == r.marker_after);
    CHECK(annotation(after, k::kMigrationStopPolicy) == r.saved_after);
    if (sync.instance_type) CHECK(sync.instance_type->spec.inactive);
  }
}

TEST_CASE("a sync write ends the pass before the status is refreshed") {
  auto s = one_type();
  s.instance_types.at(kName).spec.inactive = true;
  s.cluster_queues[kName] = queue_for(s.instance_types.at(kName), m::StopPolicy::kNone, true);
  auto plan = m::reconcile_instance_type(s);
  REQUIRE(verbs(plan) == std::vector<m::WriteVerb>{m::WriteVerb::kUpdate});
  s = apply(s, plan);
  CHECK(s.cluster_queues.at(kName).stop_policy() == m::StopPolicy::kHold);
  plan = m::reconcile_instance_type(s);
  CHECK(verbs(plan) == std::vector<m::WriteVerb>{m::WriteVerb::kUpdateStatus});
  s = apply(s, plan);
  CHECK(m::reconcile_instance_type(s).empty());
}

TEST_CASE("deleting a type marks it Inactive, deletes its queue once, waits, then drops the finalizer") {
  auto s = one_type();
  auto cq = queue_for(s.instance_types.at(kName), m::StopPolicy::kNone, true);
  cq.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};  // Kueue holds it until drained
  s.cluster_queues[kName] = cq;
  s.instance_types.at(kName).status.phase = "Active";
  s = apply(s, {{{m::WriteVerb::kDelete, s.instance_types.at(kName), "admin", "delete"}}, {}}, "t-delete");
  REQUIRE(s.instance_types.at(kName).metadata.deletion_timestamp);

  auto plan = m::reconcile_instance_type(s);
  REQUIRE(verbs(plan) == std::vector<m::WriteVerb>{m::WriteVerb::kUpdateStatus, m::WriteVerb::kDelete});
  REQUIRE(plan.requeues.size() == 1);
  CHECK(plan.requeues[0].after_seconds == 15);
  s = apply(s, plan, "t2");
  const auto& it = s.instance_types.at(kName);
  CHECK(it.status.phase == "Inactive");
  CHECK(it.status.phase_message == "instance type is terminating");
  CHECK(it.status.entrance == m::format_local_queue_name(kName));
  CHECK(s.cluster_queues.at(kName).metadata.deletion_timestamp == std::optional<std::string>("t2"));

  plan = m::reconcile_instance_type(s);  // queue still terminating: no second delete, no second status
  CHECK(plan.writes.empty());
  REQUIRE(plan.requeues.size() == 1);
  CHECK(plan.requeues[0].after_seconds == 15);

  s.cluster_queues.erase(kName);  // Kueue drained and removed it
  plan = m::reconcile_instance_type(s);
  REQUIRE(verbs(plan) == std::vector<m::WriteVerb>{m::WriteVerb::kUpdate});
  CHECK(plan.requeues.empty());
  s = apply(s, plan, "t3");
  CHECK(s.instance_types.count(kName) == 0);  // the last finalizer gone, the type is removed
}

TEST_CASE("a type deleted before it was ever locked is left to the API server") {
  auto s = one_type(false);
  s.instance_types.at(kName).metadata.deletion_timestamp = "t0";
  s.instance_types.at(kName).metadata.finalizers = {"someone-else"};
  const auto plan = m::reconcile_instance_type(s);
  CHECK(plan.writes.empty());
  CHECK(plan.requeues.empty());
}

TEST_CASE("the status is written only when it changes") {
  auto s = one_type();
  s.cluster_queues[kName] = queue_for(s.instance_types.at(kName), m::StopPolicy::kNone, true);
  auto plan = m::reconcile_instance_type(s);
  REQUIRE(verbs(plan) == std::vector<m::WriteVerb>{m::WriteVerb::kUpdateStatus});
  s = apply(s, plan);
  CHECK(m::reconcile_instance_type(s).empty());
  s.cluster_queues.at(kName).status.conditions.push_back({"Active", "True", "Ready", "", 1});
  plan = m::reconcile_instance_type(s);
  REQUIRE(verbs(plan) == std::vector<m::WriteVerb>{m::WriteVerb::kUpdateStatus});
  CHECK(m::object_if<m::InstanceType>(plan.writes[0].object)->status.phase == "Active");
}
