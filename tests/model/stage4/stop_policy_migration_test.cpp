#include <catch2/catch.hpp>

#include "model/stage4/stop_policy_migration.h"
#include "tests/model/stage4/node_queue_fixtures.h"

using namespace chaintwin::model;
namespace fx = chaintwin::model::queue_fixtures;

TEST_CASE("a saved stop policy round-trips, none is saved as unset, and garbage is refused", "[node_queue]") {
  const std::optional<StopPolicy> policies[] = {std::nullopt, StopPolicy::kNone, StopPolicy::kHold,
                                                StopPolicy::kHoldAndDrain};
  for (const auto& p : policies) {
    const auto decoded = decode_stop_policy(encode_stop_policy(p));
    REQUIRE(decoded.ok());
    CHECK(*decoded == p);
  }
  CHECK(encode_stop_policy(std::nullopt) == "unset");
  CHECK_FALSE(decode_stop_policy("").ok());
  CHECK_FALSE(decode_stop_policy("hold").ok());
}

TEST_CASE("only an empty, unmigrating queue with policy None is put on the marked Hold", "[node_queue]") {
  struct Row {
    const char* what;
    size_t groups;
    std::optional<StopPolicy> policy;
    const char* phase;
    bool held;
  };
  const Row rows[] = {
      {"empty and None", 0, StopPolicy::kNone, "", true},
      {"empty and unset", 0, std::nullopt, "", true},
      {"admin Hold", 0, StopPolicy::kHold, "", false},
      {"draining", 0, StopPolicy::kHoldAndDrain, "", false},
      {"groups present", 1, StopPolicy::kNone, "", false},
      {"migrating", 0, StopPolicy::kNone, "switched", false},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    std::vector<ResourceGroup> groups;
    if (row.groups) groups.push_back(fx::cpu_resource_group("f", 4));
    auto cq = fx::instance_type_queue("generic", false, groups);
    cq.spec.stop_policy = row.policy;
    if (*row.phase) cq.metadata.annotations["topology.gpustack.ai/migration-phase"] = row.phase;
    const auto held = hold_empty_cluster_queue(cq);
    REQUIRE(held.has_value() == row.held);
    if (held) {
      CHECK(held->spec.stop_policy == StopPolicy::kHold);
      CHECK(held->metadata.annotations.at("topology.gpustack.ai/empty-plan-hold") == "true");
    }
  }
}

TEST_CASE("an unknown migration phase or saved policy is refused as InvalidMigrationState", "[node_queue]") {
  auto cq = fx::instance_type_queue("generic", false, {fx::cpu_resource_group("old", 4)});
  cq.metadata.annotations["topology.gpustack.ai/migration-phase"] = "paused";
  cq.metadata.annotations["topology.gpustack.ai/migration-stop-policy"] = "None";
  auto d = migrate_resource_groups(cq, cq, {});
  REQUIRE(d.refusal);
  CHECK(d.refusal->reason == "InvalidMigrationState");
  CHECK(d.requeue_after_seconds == 30);  // a queue in migration is retried
  cq.metadata.annotations["topology.gpustack.ai/migration-phase"] = "draining";
  cq.metadata.annotations["topology.gpustack.ai/migration-stop-policy"] = "Maybe";
  d = migrate_resource_groups(cq, cq, {});
  REQUIRE(d.refusal);
  CHECK(d.refusal->reason == "InvalidMigrationState");
}

TEST_CASE("a migrating queue someone released is held again before anything else", "[node_queue]") {
  auto cq = fx::instance_type_queue("generic", false, {fx::cpu_resource_group("old", 4)});
  cq.metadata.annotations["topology.gpustack.ai/migration-phase"] = "draining";
  cq.metadata.annotations["topology.gpustack.ai/migration-stop-policy"] = "None";
  cq.spec.stop_policy = StopPolicy::kNone;
  const auto d = migrate_resource_groups(cq, cq, {});
  CHECK(d.action == "migration-hold");
  REQUIRE(d.update);
  CHECK(d.update->spec.stop_policy == StopPolicy::kHoldAndDrain);
  CHECK(d.update->spec.resource_groups == cq.spec.resource_groups);
  CHECK(d.requeue_after_seconds == 5);
}
