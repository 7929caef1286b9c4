// Issue 17, part 2, "queue stop policy": who holds a ClusterQueue and when it is released — the
// empty-plan Hold handed from NodeQueue to syncInactive, the fill that never reactivates a queue
// still carrying quota, the unconditional drain of a deleting queue, the queue whose every flavor
// is terminating, and the codec of the saved stop policy. Expected values are worked out by hand
// from the reference section named above each table (operator-code-rules.md §3.d "Stop policy",
// §5 item 5; operator-domain.md §4.4, §4.5, §10.8–10.10; kueue-semantics.md §1.3) and checked
// against node_queue.go and instance_type.go.
#include <catch2/catch.hpp>

#include "model/catalog/label_keys.h"
#include "model/stage4/instance_type_reconciler.h"
#include "model/stage4/node_queue_reconciler.h"
#include "model/stage4/stop_policy_migration.h"
#include "tests/model/stage4/node_queue_fixtures.h"

using namespace chaintwin::model;
namespace k = chaintwin::model::keys;
namespace fx = chaintwin::model::queue_fixtures;

namespace {

const std::string kMarker(k::kEmptyPlanHold);
const std::string kPhase(k::kMigrationPhase);
const std::string kSaved(k::kMigrationStopPolicy);
const std::string kFlavor = "gpustack-generic-linux-amd64-4c";

std::string policy_name(const std::optional<StopPolicy>& p) { return p ? std::string(to_string(*p)) : "<unset>"; }

InstanceType type_with(bool inactive) {
  InstanceType it;
  it.metadata.name = fx::node_queue_name("generic");
  it.spec.inactive = inactive;
  return it;
}

}  // namespace

// operator-code-rules.md §3.d: "in a plain fill: … marker present and new groups non-empty → drop the
// marker (the Hold itself is released by syncInactive)"; syncInactive @f130444c "while marked, do
// nothing; else … Hold+!Inactive → None". operator-domain.md §4.4: "after the marker is gone the Hold
// is treated as admin's (released only if not inactive)"; §10.9. The @0ae3355d test instead drops the
// marker from syncInactive itself when Inactive=true (operator-code-rules.md §5 item 5); the twin
// follows the code, so the marker is cleared by the fill and the Hold adopted after it.
TEST_CASE("syncInactive adopts the empty-plan Hold of a queue once the fill has cleared its marker", "[queue_stop][issue17]") {
  struct Row {
    const char* name;
    bool inactive;
    bool sync_writes_while_marked;
    StopPolicy after_fill;
    bool marker_after_fill;
    StopPolicy after_adoption;
  };
  const std::vector<Row> rows = {
      {"inactive type: the Hold is adopted and kept", true, false, StopPolicy::kHold, false, StopPolicy::kHold},
      {"active type: the Hold is adopted and released", false, false, StopPolicy::kHold, false, StopPolicy::kNone},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    const std::string name = fx::node_queue_name("generic");
    auto cq = fx::instance_type_queue("generic", false);
    cq.spec.stop_policy = StopPolicy::kHold;
    cq.metadata.annotations[kMarker] = "true";
    auto s = fx::queue_world({cq}, {fx::nodes_flavor(kFlavor, "generic", 4, 4)});
    const auto it = type_with(r.inactive);

    // 1. While marked, syncInactive neither releases nor mirrors the Hold.
    CHECK(sync_inactive(it, s.cluster_queues.at(name)).writes() == r.sync_writes_while_marked);
    // 2. The update that fills the groups drops the marker and leaves the Hold.
    fx::reconcile_once(s, name);
    const auto& filled = s.cluster_queues.at(name);
    CHECK(filled.stop_policy() == r.after_fill);
    CHECK(filled.metadata.annotations.count(kMarker) == (r.marker_after_fill ? 1u : 0u));
    CHECK(fx::flavor_names(filled) == std::vector<std::string>{kFlavor});
    // 3. The unmarked Hold is now the type's: kept when Inactive, released when not.
    const auto sync = sync_inactive(it, filled);
    const auto& adopted = sync.queue ? *sync.queue : filled;
    CHECK(adopted.stop_policy() == r.after_adoption);
    CHECK_FALSE(sync.instance_type);  // the Hold is never mirrored into spec.inactive
    CHECK(adopted.metadata.annotations.count(kMarker) == 0);
    if (sync.queue) CHECK_FALSE(sync_inactive(it, *sync.queue).writes());  // one write, then stable
  }
}

// operator-code-rules.md §3.d: "in a plain fill: HoldAndDrain + no groups → None (reactivation)";
// node_queue.go fillClusterQueue reactivates "only a queue WE drained to empty"; operator-domain.md
// §4.5 and the shipped cases TestNodeQueueReconciler_ReactivatesOnFlavorReturn /
// KeepsAdminHoldStickyOnFlavorReturn.
TEST_CASE("a fill reactivates only a queue drained to empty, never a held queue that still carries quota",
          "[queue_stop][issue17]") {
  struct Row {
    const char* name;
    std::optional<StopPolicy> policy;
    bool has_groups;
    std::string after;
  };
  const std::vector<Row> rows = {
      {"HoldAndDrain with quota stays held", StopPolicy::kHoldAndDrain, true, "HoldAndDrain"},
      {"admin Hold with quota stays held", StopPolicy::kHold, true, "Hold"},
      {"HoldAndDrain drained to empty is reactivated", StopPolicy::kHoldAndDrain, false, "None"},
      {"admin Hold without quota stays held", StopPolicy::kHold, false, "Hold"},
      {"None stays None", StopPolicy::kNone, true, "None"},
      {"an unset policy stays unset", std::nullopt, true, "<unset>"},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    const std::string name = fx::node_queue_name("generic");
    std::vector<ResourceGroup> groups;
    if (r.has_groups) groups = {fx::cpu_resource_group(kFlavor, 4)};
    auto cq = fx::instance_type_queue("generic", false, groups);
    cq.metadata.annotations[std::string(k::kTasQueue)] = "true";
    cq.spec.stop_policy = r.policy;
    auto s = fx::queue_world({cq}, {fx::nodes_flavor(kFlavor, "generic", 4, 4)});
    CHECK(fx::reconcile_once(s, name) == 0);
    const auto& after = s.cluster_queues.at(name);
    CHECK(policy_name(after.spec.stop_policy) == r.after);
    CHECK(fx::flavor_names(after) == std::vector<std::string>{kFlavor});
    CHECK(after.metadata.annotations.count(kPhase) == 0);
    CHECK(reconcile_node_queue(s, name).writes.empty());
  }
}

// operator-code-rules.md §3.d: "CQ deleting → HoldAndDrain (unconditional; no-op if already)";
// operator-domain.md §4.5 table row 1, §10.10; kueue-semantics.md §1.3 (Kueue never evicts on
// delete). Unconditional: flavors, the drain setting and a migration in progress do not matter.
TEST_CASE("a deleting queue is driven to HoldAndDrain unconditionally and a draining one is left alone",
          "[queue_stop][issue17]") {
  struct Row {
    const char* name;
    std::optional<StopPolicy> policy;
    bool live_flavor;
    bool drain_setting;
    std::string phase;  // migration-phase annotation, "" = none
    bool writes;
  };
  const std::vector<Row> rows = {
      {"None, flavors live", StopPolicy::kNone, true, true, "", true},
      {"unset, flavors live", std::nullopt, true, true, "", true},
      {"admin Hold", StopPolicy::kHold, true, true, "", true},
      {"None, no flavors, drain setting off", StopPolicy::kNone, false, false, "", true},
      {"None, in a migration (switched)", StopPolicy::kNone, true, true, "switched", true},
      {"already HoldAndDrain", StopPolicy::kHoldAndDrain, true, true, "", false},
      {"already HoldAndDrain, drain setting off", StopPolicy::kHoldAndDrain, false, false, "", false},
      {"already HoldAndDrain, migrating", StopPolicy::kHoldAndDrain, true, true, "draining", false},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    auto cq = fx::instance_type_queue("generic", false, {fx::cpu_resource_group(kFlavor, 4)});
    cq.spec.stop_policy = r.policy;
    cq.metadata.deletion_timestamp = "t";
    cq.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
    cq.status.admitted_workloads = 2;
    if (!r.phase.empty()) {
      cq.metadata.annotations[kPhase] = r.phase;
      cq.metadata.annotations[kSaved] = "None";
    }
    std::vector<ResourceFlavor> flavors;
    if (r.live_flavor) flavors.push_back(fx::nodes_flavor(kFlavor, "generic", 4, 4));
    auto s = fx::queue_world({cq}, flavors);
    s.settings.instance_type_drain_when_no_flavors = r.drain_setting;
    const auto decision = decide_node_queue(s, s.cluster_queues.at(cq.metadata.name));
    CHECK(decision.action == "drain-deleting");
    CHECK(decision.requeue_after_seconds == 0);
    CHECK_FALSE(decision.topology_ready);
    const Plan p = reconcile_node_queue(s, cq.metadata.name);
    REQUIRE(p.writes.size() == (r.writes ? 1u : 0u));
    if (!r.writes) continue;
    const auto& written = *object_if<ClusterQueue>(p.writes[0].object);
    CHECK(written.spec.stop_policy == StopPolicy::kHoldAndDrain);
    // Only the stop policy moves: groups and annotations are as they were.
    ClusterQueue expected = s.cluster_queues.at(cq.metadata.name);
    expected.spec.stop_policy = StopPolicy::kHoldAndDrain;
    CHECK(written.spec == expected.spec);
    CHECK(written.metadata.annotations == expected.metadata.annotations);
  }
}

// operator-code-rules.md §3.d: "no live flavors: … else if drain setting is false and reservations
// remain → requeue 60 s without holding; else start the migration to an empty plan"; §5 item 7;
// operator-domain.md §4.5 (terminating flavors are treated as absent), §10.7, §10.8. Every pass
// after the first waits for Kueue's Stopped report at the current generation.
TEST_CASE("when every flavor is terminating the queue is held, drops its flavor references and stays held empty",
          "[queue_stop][issue17]") {
  struct Row {
    const char* name;
    std::optional<StopPolicy> policy;
    bool drain_setting;
    std::string saved;
  };
  const std::vector<Row> rows = {
      {"None, drain on", StopPolicy::kNone, true, "None"},
      {"None, drain off, nothing reserved", StopPolicy::kNone, false, "None"},
      {"unset, drain on", std::nullopt, true, "unset"},
      {"admin Hold, drain on", StopPolicy::kHold, true, "Hold"},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    const std::string name = fx::node_queue_name("generic");
    auto cq = fx::instance_type_queue("generic", false,
                                      {[] {
                                        auto g = fx::cpu_resource_group(kFlavor, 4);
                                        g.flavors.push_back(fx::cpu_resource_group(kFlavor + "-b", 8).flavors[0]);
                                        return g;
                                      }()});
    cq.spec.stop_policy = r.policy;
    auto s = fx::queue_world({cq}, {fx::terminating(fx::nodes_flavor(kFlavor, "generic", 4, 4)),
                                    fx::terminating(fx::nodes_flavor(kFlavor + "-b", "generic", 8, 8))});
    s.settings.instance_type_drain_when_no_flavors = r.drain_setting;

    CHECK(fx::reconcile_once(s, name) == 5);  // hold first, even with nothing reserved
    CHECK(s.cluster_queues.at(name).stop_policy() == StopPolicy::kHoldAndDrain);
    CHECK(fx::annotation(s, name, kPhase) == "draining");
    CHECK(fx::annotation(s, name, kSaved) == r.saved);
    CHECK(fx::flavor_names(s.cluster_queues.at(name)).size() == 2);  // not yet dropped
    fx::mark_stopped(s, name);
    CHECK(fx::reconcile_once(s, name) == 5);
    CHECK(s.cluster_queues.at(name).spec.resource_groups.empty());  // both references dropped
    CHECK(fx::annotation(s, name, kPhase) == "switched");
    fx::mark_stopped(s, name);
    CHECK(fx::reconcile_once(s, name) == 0);
    const auto& emptied = s.cluster_queues.at(name);
    CHECK(emptied.stop_policy() == StopPolicy::kHoldAndDrain);  // never admits without groups
    CHECK(fx::annotation(s, name, kSaved) == r.saved);          // kept until a flavor returns
    CHECK(fx::topology_ready(s, name)->reason == "Ready");
    CHECK(reconcile_node_queue(s, name).writes.empty());
  }

  // Reserved quota with the drain setting off: waited out for 60 s, neither held nor emptied.
  const std::string name = fx::node_queue_name("generic");
  auto cq = fx::instance_type_queue("generic", false, {fx::cpu_resource_group(kFlavor, 4)});
  cq.status.reserving_workloads = 1;
  auto s = fx::queue_world({cq}, {fx::terminating(fx::nodes_flavor(kFlavor, "generic", 4, 4))});
  s.settings.instance_type_drain_when_no_flavors = false;
  CHECK(fx::reconcile_once(s, name) == 60);
  CHECK(s.cluster_queues.at(name).stop_policy() == StopPolicy::kNone);
  CHECK(fx::flavor_names(s.cluster_queues.at(name)) == std::vector<std::string>{kFlavor});
}

// operator-code-rules.md §3.d ("save stop policy in topology.gpustack.ai/migration-stop-policy
// (`unset` for nil)"); node_queue.go encodeStopPolicy / decodeStopPolicy: nil ↔ "unset", the three
// Kueue policies by their names (so None is kept as an explicit None, not as nil), anything else
// refused as InvalidMigrationState "ClusterQueue has unsupported saved stop policy %q".
TEST_CASE("the saved stop policy codec: None round-trips as None, nil as unset, a bogus value is refused",
          "[queue_stop][issue17]") {
  struct EncodeRow {
    std::optional<StopPolicy> policy;
    std::string encoded;
  };
  for (const auto& r : std::vector<EncodeRow>{{StopPolicy::kNone, "None"},
                                              {StopPolicy::kHold, "Hold"},
                                              {StopPolicy::kHoldAndDrain, "HoldAndDrain"},
                                              {std::nullopt, "unset"}}) {
    INFO(r.encoded);
    CHECK(encode_stop_policy(r.policy) == r.encoded);
    const auto back = decode_stop_policy(r.encoded);
    REQUIRE(back.ok());
    CHECK(back.value() == r.policy);
  }
  struct DecodeRow {
    std::string stored;
    std::string error;
  };
  for (const auto& r : std::vector<DecodeRow>{{"bogus", "ClusterQueue has unsupported saved stop policy \"bogus\""},
                                              {"", "ClusterQueue has unsupported saved stop policy \"\""},
                                              {"none", "ClusterQueue has unsupported saved stop policy \"none\""},
                                              {"Unset", "ClusterQueue has unsupported saved stop policy \"Unset\""}}) {
    INFO(r.stored);
    const auto back = decode_stop_policy(r.stored);
    REQUIRE_FALSE(back.ok());
    CHECK(back.error() == r.error);
  }

  // Restoring a saved None writes an explicit None; a saved unset removes the field. A bogus saved
  // value stops the migration with InvalidMigrationState (retried every 30 s), the queue untouched.
  struct RestoreRow {
    std::string saved;
    std::string restored;  // policy_name after the restore, or the refusal reason
  };
  for (const auto& r : std::vector<RestoreRow>{{"None", "None"}, {"unset", "<unset>"}, {"bogus", "InvalidMigrationState"}}) {
    INFO(r.saved);
    const std::string name = fx::node_queue_name("generic");
    auto cq = fx::instance_type_queue("generic", false, {fx::cpu_resource_group(kFlavor, 4)});
    cq.spec.stop_policy = StopPolicy::kHoldAndDrain;
    cq.metadata.annotations[kPhase] = "switched";
    cq.metadata.annotations[kSaved] = r.saved;
    auto s = fx::queue_world({cq}, {fx::nodes_flavor(kFlavor, "generic", 4, 4)});
    fx::mark_stopped(s, name);
    const int64_t requeue = fx::reconcile_once(s, name);
    const auto& after = s.cluster_queues.at(name);
    if (r.restored == "InvalidMigrationState") {
      CHECK(requeue == 30);
      CHECK(fx::topology_ready(s, name)->reason == "InvalidMigrationState");
      CHECK(fx::topology_ready(s, name)->message == "ClusterQueue has unsupported saved stop policy \"bogus\"");
      CHECK(after.stop_policy() == StopPolicy::kHoldAndDrain);
      CHECK(fx::annotation(s, name, kSaved) == "bogus");
      continue;
    }
    CHECK(requeue == 0);
    CHECK(policy_name(after.spec.stop_policy) == r.restored);
    CHECK(after.metadata.annotations.count(kPhase) == 0);
    CHECK(after.metadata.annotations.count(kSaved) == 0);
  }
}
