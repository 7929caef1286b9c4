// Golden handlers for the NodeQueue cases of queue-stop-policy.json (node_queue_test.go and the
// cases computed from node_queue.go): drain and migration, flavor return, the empty-plan hold,
// encode/decodeStopPolicy and hasReserved. Multi-step cases replay the test's steps on the
// fixture world (tests/model/stage4/node_queue_fixtures.h), applying each Plan like the API
// server and writing Kueue's status reports between passes as the test does.
//
// Expected values that carry a parenthesised gloss ("HoldAndDrain (stays held until a flavor
// returns)") or name the plan ("old plan kept", "new flavor", "kept", "empty (…)") are assertions:
// the handler returns the expected text only when the model's value makes it true (the policy
// name before the gloss equals the model's; every plan word — old, new, kept, empty — holds of the
// model's groups), and the model's own value otherwise.
#include <set>
#include <sstream>
#include <stdexcept>

#include "model/catalog/label_keys.h"
#include "model/stage4/node_queue_reconciler.h"
#include "model/stage4/queue_status.h"
#include "model/stage4/resource_groups.h"
#include "model/stage4/stop_policy_migration.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;
#include "tests/model/stage4/node_queue_fixtures.h"

namespace {

using chaintwin::golden::json;
namespace m = chaintwin::model;
namespace fx = chaintwin::model::queue_fixtures;

constexpr const char* kArea = "queue-stop-policy";
const char* const kPhase = "topology.gpustack.ai/migration-phase";
const char* const kSaved = "topology.gpustack.ai/migration-stop-policy";
const char* const kMarker = "topology.gpustack.ai/empty-plan-hold";

// The keys queue_view answers, and the old -> new view's.
const chaintwin::golden::KeySet kQueueView = {"stopPolicy", "resourceGroups", "requeueAfter", kPhase, kSaved, kMarker,
                                              "topologyReadyReason"};
const chaintwin::golden::KeySet kOldToNewView = {"stopPolicy", "resourceGroups", "requeueAfter", kPhase, kSaved, kMarker,
                                                 "topologyReadyReason", "uidUnchanged"};

std::optional<m::StopPolicy> policy_from(const json& v) {
  if (v.is_null()) return std::nullopt;
  const auto p = m::parse_stop_policy(v.get<std::string>());
  if (!p) throw std::runtime_error("unknown stop policy " + v.dump());
  return p;
}

// The model's stop policy; the expected text when it is that policy followed by a gloss.
json stop_policy(const m::ClusterQueue& cq, const json* want) {
  if (!cq.spec.stop_policy) return nullptr;
  const std::string actual(m::to_string(*cq.spec.stop_policy));
  if (want && want->is_string()) {
    const std::string w = *want;
    if (w.rfind(actual + " (", 0) == 0) return w;
  }
  return actual;
}

// Which plan words hold of the queue's groups: empty, kept (= `initial`), old / new (first flavor).
std::set<std::string> plan_words(const m::ClusterQueue& cq, const std::vector<m::ResourceGroup>& initial,
                                 const std::string& old_flavor, const std::string& new_flavor) {
  std::set<std::string> words;
  const auto names = fx::flavor_names(cq);
  if (names.empty()) words.insert("empty");
  if (cq.spec.resource_groups == initial) words.insert("kept");
  if (!names.empty() && names.front() == old_flavor) words.insert("old");
  if (!names.empty() && names.front() == new_flavor) words.insert("new");
  return words;
}

// A number when the expectation counts groups; else the expected text when every plan word in it
// holds, else the words that do hold.
json resource_groups(const m::ClusterQueue& cq, const json* want, const std::vector<m::ResourceGroup>& initial,
                     const std::string& old_flavor, const std::string& new_flavor) {
  if (!want || want->is_number()) return cq.spec.resource_groups.size();
  const auto words = plan_words(cq, initial, old_flavor, new_flavor);
  const std::string w = *want;
  bool all = true, any = false;
  std::istringstream in(w);
  for (std::string word; in >> word;) {
    if (word != "empty" && word != "kept" && word != "old" && word != "new") continue;
    any = true;
    all = all && words.count(word);
  }
  if (any && all) return w;
  json out = json::array();
  for (const auto& word : words) out.push_back(word);
  return out;
}

json requeue_after(int64_t seconds, const json* want) {
  if (want && *want == ">0" && seconds > 0) return ">0";
  if (seconds == 0) return "none";
  return std::to_string(seconds) + "s";
}

// A nested step is compared key by key both ways: keep the keys that step asks about.
json only_keys(const json& got, const json& want) {
  json out = json::object();
  for (const auto& [key, value] : want.items())
    if (got.contains(key)) out[key] = got.at(key);
  return out;
}

const json* want_of(const json& want, const char* key) { return want.contains(key) ? &want.at(key) : nullptr; }

// Every key a step of these cases may ask about.
json queue_view(const m::ClusterState& s, const std::string& name, const json& want, int64_t requeue,
                const std::vector<m::ResourceGroup>& initial, const std::string& old_flavor = "",
                const std::string& new_flavor = "") {
  const auto& cq = s.cluster_queues.at(name);
  json got;
  got["stopPolicy"] = stop_policy(cq, want_of(want, "stopPolicy"));
  got["resourceGroups"] = resource_groups(cq, want_of(want, "resourceGroups"), initial, old_flavor, new_flavor);
  got["requeueAfter"] = requeue_after(requeue, want_of(want, "requeueAfter"));
  got[kPhase] = fx::annotation(s, name, kPhase);
  got[kSaved] = fx::annotation(s, name, kSaved);
  got[kMarker] = fx::annotation(s, name, kMarker);
  const m::Condition* ready = fx::topology_ready(s, name);
  got["topologyReadyReason"] = ready ? json(ready->reason) : json(nullptr);
  return got;
}

// TestNodeQueueReconciler_ReactivatesOnFlavorReturn / _KeepsAdminHoldStickyOnFlavorReturn.
// `resourceGroups`: the queue's groups before the passes — none ([] or 0), or (a count > 0) the
// groups buildResourceGroups makes of the flavors, i.e. a queue that still carries their quota.
json flavor_return(const json& in, const json& want) {
  const std::string key = "nvidia-a10g", name = fx::node_queue_name(key);
  std::vector<m::ResourceFlavor> flavors;
  for (int64_t i = 0; i < in.at("flavors").get<int64_t>(); ++i)
    flavors.push_back(fx::nodes_flavor("gpustack-nvidia-a10g-linux-amd64-" + std::to_string(i + 1) + "d", key, i + 1,
                                       4 * (i + 1), "nvidia"));
  auto s = fx::queue_world({}, flavors);
  const json groups_in = in.value("resourceGroups", json::array());
  const int64_t carried = groups_in.is_number() ? groups_in.get<int64_t>() : static_cast<int64_t>(groups_in.size());
  std::vector<m::ResourceGroup> groups;
  if (carried > 0) {
    std::vector<m::ResourceFlavor> ordered;
    for (const auto& [n, rf] : s.resource_flavors) ordered.push_back(rf);
    groups = m::build_resource_groups(ordered, true, "nvidia");
    if (static_cast<int64_t>(groups.size()) != carried)
      throw std::runtime_error("the flavors make " + std::to_string(groups.size()) + " groups, the case carries " +
                               std::to_string(carried));
  }
  auto cq = fx::instance_type_queue(key, true, groups);
  cq.spec.stop_policy = policy_from(in.at("stopPolicy"));
  s.cluster_queues[cq.metadata.name] = cq;
  const int64_t requeue = fx::reconcile_n(s, name, 2);
  return queue_view(s, name, want, requeue, cq.spec.resource_groups);
}

// Inputs that describe the test's fixed fixture: the case must say what the fixture builds (a
// value the fixture cannot build fails the case instead of being ignored).
void expect_fixture(const json& in, const char* key, const json& fixture) {
  if (in.contains(key) && in.at(key) != fixture)
    throw std::runtime_error(std::string("this fixture builds ") + key + " = " + fixture.dump() + ", the case asks " +
                             in.at(key).dump());
}

// A generic queue with `resourceGroups` groups (each on one 4-core flavor), `flavors` live flavors and
// `terminatingFlavors` terminating ones; the first groups reference the terminating flavors first.
struct GenericQueueWorld {
  std::string key = "generic", name = fx::node_queue_name("generic");
  m::ClusterQueue queue;
  m::ClusterState state;
  explicit GenericQueueWorld(const json& in) {
    std::vector<std::string> names;
    std::vector<m::ResourceFlavor> flavors;
    for (int64_t i = 0; i < in.value("terminatingFlavors", int64_t{0}); ++i) {
      names.push_back("gpustack-generic-linux-amd64-4c-t" + std::to_string(i));
      flavors.push_back(fx::terminating(fx::nodes_flavor(names.back(), key, 4, 4)));
    }
    for (int64_t i = 0; i < in.value("flavors", int64_t{0}); ++i) {
      names.push_back("gpustack-generic-linux-amd64-4c-l" + std::to_string(i));
      flavors.push_back(fx::nodes_flavor(names.back(), key, 4, 4));
    }
    std::vector<m::ResourceGroup> groups;
    for (int64_t i = 0; i < in.value("resourceGroups", int64_t{0}); ++i)
      groups.push_back(fx::cpu_resource_group(i < static_cast<int64_t>(names.size()) ? names[i] : "gpustack-gone-" + std::to_string(i), 4));
    queue = fx::instance_type_queue(key, false, groups);
    queue.spec.stop_policy = policy_from(in.at("stopPolicy"));
    queue.status.admitted_workloads = in.value("admittedWorkloads", 0);
    if (in.value("deletionTimestamp", false)) {
      queue.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
      queue.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
    }
    state = fx::queue_world({queue}, flavors);
    state.settings.instance_type_drain_when_no_flavors = in.value("instance-type-drain-when-no-flavors", true);
  }
};

// A deleting queue: one pass; how many writes it makes to the queue.
json deleting_queue(const json& in, const json& want) {
  GenericQueueWorld w(in);
  const m::Plan plan = m::reconcile_node_queue(w.state, w.name);
  auto next = m::apply_plan(w.state, plan, "2024-01-01T00:00:00Z");
  if (!next.ok()) throw std::runtime_error(next.error());
  w.state = std::move(next).value();
  int64_t requeue = 0;
  for (const auto& r : plan.requeues)
    if (r.key == w.name) requeue = r.after_seconds;
  json got = queue_view(w.state, w.name, want, requeue, w.queue.spec.resource_groups);
  got["writes"] = plan.writes.size();
  return got;
}

// Pass, Kueue reports Stopped, pass, Kueue reports Stopped, pass: the queue after each pass.
json three_passes(const json& in, const json& want) {
  GenericQueueWorld w(in);
  const char* steps[] = {"step1", "step2 (Kueue reports Stopped)", "step3 (Kueue reports Stopped)"};
  json got;
  for (int i = 0; i < 3; ++i) {
    if (i > 0) fx::mark_stopped(w.state, w.name);
    const int64_t requeue = fx::reconcile_once(w.state, w.name);
    const json& step_want = want.contains(steps[i]) ? want.at(steps[i]) : json::object();
    got[steps[i]] = only_keys(queue_view(w.state, w.name, step_want, requeue, w.queue.spec.resource_groups), step_want);
  }
  return got;
}

// TestNodeQueueReconciler_DrainThenEmptyRespectsReservations: one pass while a workload is
// admitted; else pass, Stopped reported, pass, Stopped reported, pass.
json drain_then_empty(const json& in, const json& want) {
  expect_fixture(in, "flavors", 0);
  expect_fixture(in, "resourceGroups", 1);
  const std::string key = "generic", name = fx::node_queue_name(key);
  auto cq = fx::instance_type_queue(key, false, {fx::cpu_resource_group("gpustack-generic-linux-amd64-4c", 4)});
  cq.spec.stop_policy = policy_from(in.at("stopPolicy"));
  cq.status.admitted_workloads = in.value("admittedWorkloads", 0);
  auto s = fx::queue_world({cq}, {});
  s.settings.instance_type_drain_when_no_flavors = in.at("instance-type-drain-when-no-flavors").get<bool>();
  int64_t requeue = fx::reconcile_once(s, name);
  if (cq.status.admitted_workloads == 0) {
    fx::mark_stopped(s, name);
    fx::reconcile_once(s, name);
    fx::mark_stopped(s, name);
    requeue = fx::reconcile_once(s, name);
  }
  return queue_view(s, name, want, requeue, cq.spec.resource_groups);
}

// The old -> new plan cases: a generic queue whose group references the old flavor, one new flavor
// live. Kueue has reported the queue at its generation (Active for None, Stopped otherwise), as it
// does for any live queue; the test fixture leaves that status out.
struct OldToNew {
  std::string name = fx::node_queue_name("generic");
  std::string old_flavor = "gpustack-generic-linux-amd64-4c-p-old";
  std::string new_flavor = "gpustack-generic-linux-amd64-4c-p-new";
  m::ClusterQueue queue;
  m::ClusterState state;
  explicit OldToNew(std::optional<m::StopPolicy> policy, int32_t admitted) {
    queue = fx::instance_type_queue("generic", false, {fx::cpu_resource_group(old_flavor, 4)});
    queue.metadata.uid = "stable-queue-uid";
    queue.metadata.generation = 7;
    queue.spec.stop_policy = policy;
    queue.status.admitted_workloads = admitted;
    state = fx::queue_world({queue}, {fx::nodes_flavor(new_flavor, "generic", 4, 4)});
    fx::observe(state, name);
  }
  json view(const json& want, int64_t requeue) const {
    json got = queue_view(state, name, want, requeue, queue.spec.resource_groups, old_flavor, new_flavor);
    got["uidUnchanged"] = state.cluster_queues.at(name).metadata.uid == queue.metadata.uid;
    return got;
  }
};

// TestNodeQueueReconciler_WaitsForCurrentStoppedGeneration: after the first pass Kueue reports
// Stopped for the generation before the current one.
json waits_for_current_generation(const json& in, const json& want) {
  expect_fixture(in, "plan", "old->new");
  OldToNew w(m::StopPolicy::kNone, 0);
  fx::reconcile_once(w.state, w.name);
  const auto& active = in.at("activeCondition");
  const int64_t generation = w.state.cluster_queues.at(w.name).metadata.generation;
  const int64_t observed = active.at("observedGeneration") == "generation-1" ? generation - 1 : generation;
  fx::set_active(w.state, w.name, active.at("status").get<std::string>(), active.at("reason").get<std::string>(), observed);
  const int64_t requeue = fx::reconcile_once(w.state, w.name);
  return w.view(want, requeue);
}

// TestNodeQueueReconciler_RetriesMissingTopologyDuringMigration: the migration starts, then the
// new flavor's Topology is deleted.
json missing_topology_during_migration(const json& in, const json& want) {
  expect_fixture(in, "plan", "old->new");
  OldToNew w(m::StopPolicy::kNone, 0);
  fx::reconcile_once(w.state, w.name);
  if (in.at("newFlavorTopologyDeleted").get<bool>())
    w.state.topologies.erase(w.state.resource_flavors.at(w.new_flavor).spec.topology_name);
  const int64_t requeue = fx::reconcile_once(w.state, w.name);
  return w.view(want, requeue);
}

// TestNodeQueueReconciler_MigratesFlavorPlanWithoutReplacingQueue.
json migrates_flavor_plan(const json& in, const json& want) {
  expect_fixture(in, "oldPlan", "gpustack-generic-linux-amd64-4c-p-old");
  expect_fixture(in, "newFlavor", "gpustack-generic-linux-amd64-4c-p-new");
  OldToNew w(policy_from(in.at("startStopPolicy")), in.at("admittedWorkloads").get<int32_t>());
  json got;
  int64_t requeue = fx::reconcile_once(w.state, w.name);
  got["reconcile1"] = only_keys(w.view(want.at("reconcile1"), requeue), want.at("reconcile1"));
  fx::mark_stopped(w.state, w.name);
  requeue = fx::reconcile_once(w.state, w.name);
  got["reconcile2_stoppedObserved_butReserved"] = only_keys(w.view(want.at("reconcile2_stoppedObserved_butReserved"), requeue), want.at("reconcile2_stoppedObserved_butReserved"));
  w.state.cluster_queues.at(w.name).status.admitted_workloads = 0;
  requeue = fx::reconcile_once(w.state, w.name);
  got["reconcile3_nothingReserved"] = only_keys(w.view(want.at("reconcile3_nothingReserved"), requeue), want.at("reconcile3_nothingReserved"));
  fx::mark_stopped(w.state, w.name);
  requeue = fx::reconcile_once(w.state, w.name);
  got["reconcile4_stoppedObserved"] = only_keys(w.view(want.at("reconcile4_stoppedObserved"), requeue), want.at("reconcile4_stoppedObserved"));
  return got;
}

// TestNodeQueueReconciler_FlavorReturnsDuringNoFlavorDrain: the new flavor is deleted before the
// first pass (its Node and Topology stay), recreated before the second.
json flavor_returns_during_drain(const json& in, const json& want) {
  expect_fixture(in, "resourceGroups", "old");
  expect_fixture(in, "flavors", "deleted then recreated");
  const std::string key = "generic", name = fx::node_queue_name(key);
  const std::string old_flavor = "gpustack-generic-linux-amd64-4c-p-old", new_flavor = "gpustack-generic-linux-amd64-4c-p-new";
  auto cq = fx::instance_type_queue(key, false, {fx::cpu_resource_group(old_flavor, 4)});
  cq.spec.stop_policy = policy_from(in.at("stopPolicy"));
  auto s = fx::queue_world({cq}, {fx::nodes_flavor(new_flavor, key, 4, 4)});
  s.settings.instance_type_drain_when_no_flavors = true;
  const m::ResourceFlavor returning = s.resource_flavors.at(new_flavor);
  s.resource_flavors.erase(new_flavor);
  json got;
  int64_t requeue = fx::reconcile_once(s, name);
  got["step1"] = only_keys(queue_view(s, name, want.at("step1"), requeue, cq.spec.resource_groups, old_flavor, new_flavor),
                           want.at("step1"));
  fx::mark_stopped(s, name);
  s.resource_flavors[new_flavor] = returning;
  requeue = fx::reconcile_once(s, name);
  json step2 = only_keys(queue_view(s, name, want.at("step2"), requeue, cq.spec.resource_groups, old_flavor, new_flavor),
                         want.at("step2"));
  fx::mark_stopped(s, name);
  requeue = fx::reconcile_once(s, name);
  got["step2"] = step2;
  got["step3"] = only_keys(queue_view(s, name, want.at("step3"), requeue, cq.spec.resource_groups, old_flavor, new_flavor),
                           want.at("step3"));
  return got;
}

// TestHasReserved.
json has_reserved_case(const json& in, const json&) {
  m::ClusterQueueStatus status;
  const auto& st = in.at("status");
  status.reserving_workloads = st.value("reservingWorkloads", 0);
  status.admitted_workloads = st.value("admittedWorkloads", 0);
  status.pending_workloads = st.value("pendingWorkloads", 0);
  if (st.contains("flavorsReservation")) {
    const auto& r = st.at("flavorsReservation");
    const auto total = m::Quantity::parse(r.at("total").get<std::string>());
    const auto borrowed = m::Quantity::parse(r.at("borrowed").get<std::string>());
    if (!total.ok() || !borrowed.ok()) throw std::runtime_error("bad quantity in " + r.dump());
    status.flavors_reservation.push_back({"f", {{"cpu", *total, *borrowed}}});
  }
  return {{"reserved", m::has_reserved(status)}};
}

// encode/decodeStopPolicy.
json stop_policy_codec(const json& in, const json&) {
  const auto policy = policy_from(in.at("stopPolicy"));
  const std::string encoded = m::encode_stop_policy(policy);
  const auto decoded = m::decode_stop_policy(encoded);
  if (!decoded.ok()) throw std::runtime_error(decoded.error());
  const json back = decoded->has_value() ? json(std::string(m::to_string(**decoded))) : json(nullptr);
  return {{"annotationValue", encoded}, {"decodesBackTo", back}};
}

// decodeStopPolicy of a stored annotation value: the policy (null for none), or the refusal the
// migration step reports when it meets that value on a draining queue.
json decode_stop_policy_case(const json& in, const json&) {
  const std::string value = in.at("annotationValue");
  const auto decoded = m::decode_stop_policy(value);
  if (decoded.ok())
    return {{"decoded", decoded->has_value() ? json(std::string(m::to_string(**decoded))) : json(nullptr)},
            {"error", nullptr}};
  auto cq = fx::instance_type_queue("generic", false);
  cq.metadata.annotations[kPhase] = "draining";
  cq.metadata.annotations[kSaved] = value;
  const auto d = m::migrate_resource_groups(cq, cq, {});
  if (!d.refusal) throw std::runtime_error("decode refused '" + value + "' but the migration step did not: " + d.reason);
  return {{"decoded", nullptr}, {"error", {{"reason", d.refusal->reason}, {"message", d.refusal->message}}}};
}

// holdEmptyClusterQueue on a queue with the given groups, policy and migration phase.
json hold_empty(const json& in, const json& want) {
  std::vector<m::ResourceGroup> groups;
  for (int64_t i = 0; i < in.at("resourceGroups").get<int64_t>(); ++i)
    groups.push_back(fx::cpu_resource_group("gpustack-generic-linux-amd64-" + std::to_string(4 * (i + 1)) + "c", 4));
  auto cq = fx::instance_type_queue("generic", false, groups);
  cq.spec.stop_policy = policy_from(in.at("stopPolicy"));
  if (in.contains(kPhase)) cq.metadata.annotations[kPhase] = in.at(kPhase);
  auto s = fx::queue_world({}, {});
  s.cluster_queues[cq.metadata.name] = m::hold_empty_cluster_queue(cq).value_or(cq);
  return queue_view(s, cq.metadata.name, want, 0, groups);
}

// fillClusterQueue on a marked empty-plan Hold whose pool has as many flavors as desired groups.
json fill_drops_marker(const json& in, const json& want) {
  const std::string key = "generic", name = fx::node_queue_name(key);
  auto cq = fx::instance_type_queue(key, false);
  cq.spec.stop_policy = policy_from(in.at("stopPolicy"));
  cq.metadata.annotations[kMarker] = in.at(kMarker);
  std::vector<m::ResourceFlavor> flavors;
  for (int64_t i = 0; i < in.at("desiredGroups").get<int64_t>(); ++i)
    flavors.push_back(fx::nodes_flavor("gpustack-generic-linux-amd64-4c", key, 4, 4));
  auto s = fx::queue_world({cq}, flavors);
  const int64_t requeue = fx::reconcile_once(s, name);
  return queue_view(s, name, want, requeue, cq.spec.resource_groups);
}

GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueue").alias("NodeQueueReconciler.Reconcile").setup("a held queue whose flavors return").in({"stopPolicy", "flavors"}).opt({"resourceGroups"}).out(kQueueView), flavor_return);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueue").alias("NodeQueueReconciler.Reconcile").setup("no flavors left: drain, then empty").in({"stopPolicy", "instance-type-drain-when-no-flavors"}).opt({"admittedWorkloads", "flavors", "resourceGroups"}).out(kQueueView), drain_then_empty);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueue").alias("NodeQueueReconciler.Reconcile").setup("old to new plan: Kueue reports an Active condition").in({"activeCondition"}).opt({"plan"}).out(kOldToNewView), waits_for_current_generation);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueue").alias("NodeQueueReconciler.Reconcile").setup("old to new plan: the new Topology is deleted").in({"newFlavorTopologyDeleted"}).opt({"plan"}).out(kOldToNewView), missing_topology_during_migration);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueue").alias("NodeQueueReconciler.Reconcile").alias("migrateClusterQueueResourceGroups").setup("old to new plan: four passes of the migration").in({"startStopPolicy", "admittedWorkloads"}).opt({"oldPlan", "newFlavor"}).out({"reconcile1", "reconcile2_stoppedObserved_butReserved", "reconcile3_nothingReserved", "reconcile4_stoppedObserved"}), migrates_flavor_plan);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueue").alias("NodeQueueReconciler.Reconcile").setup("the new flavor leaves and returns during a drain").in({"stopPolicy"}).opt({"flavors", "resourceGroups"}).out({"step1", "step2", "step3"}).must({"step1", "step2", "step3"}), flavor_returns_during_drain);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueue").alias("NodeQueueReconciler.Reconcile")
                   .setup("a deleting queue: one pass").in({"deletionTimestamp", "stopPolicy"})
                   .opt({"resourceGroups", "flavors", "admittedWorkloads", "instance-type-drain-when-no-flavors"})
                   .out([] { auto keys = kQueueView; keys.insert("writes"); return keys; }()),
               deleting_queue);
GOLDEN_HANDLER(Spec(kArea, "NodeQueueReconciler").alias("NodeQueue").alias("NodeQueueReconciler.Reconcile")
                   .setup("terminating flavors: three passes, Kueue reporting Stopped between them")
                   .in({"stopPolicy", "terminatingFlavors"})
                   .opt({"resourceGroups", "flavors", "admittedWorkloads", "instance-type-drain-when-no-flavors"})
                   .out({"step1", "step2 (Kueue reports Stopped)", "step3 (Kueue reports Stopped)"})
                   .must({"step1"}),
               three_passes);
GOLDEN_HANDLER(Spec(kArea, "decodeStopPolicy").in({"annotationValue"}).out({"decoded", "error"}), decode_stop_policy_case);
GOLDEN_HANDLER(Spec(kArea, "hasReserved").in({"status"}).out({"reserved"}), has_reserved_case);
GOLDEN_HANDLER(Spec(kArea, "encodeStopPolicy").alias("encode/decodeStopPolicy").in({"stopPolicy"}).out({"annotationValue", "decodesBackTo"}), stop_policy_codec);
GOLDEN_HANDLER(Spec(kArea, "holdEmptyClusterQueue").in({"resourceGroups", "stopPolicy"}).opt({"topology.gpustack.ai/migration-phase"}).out(kQueueView), hold_empty);
GOLDEN_HANDLER(Spec(kArea, "fillClusterQueue").in({"desiredGroups", "stopPolicy", "topology.gpustack.ai/empty-plan-hold"}).out(kQueueView), fill_drops_marker);

}  // namespace
