#include <functional>
#include <optional>
#include <string>

#include <catch2/catch.hpp>

#include "model/api/rfc3339.h"
#include "model/stage4/topology_source_reconciler.h"

using namespace chaintwin::model;

namespace {

const std::string kZone = "topology.gpustack.ai/zone";
const std::string kRack = "topology.gpustack.ai/rack";
constexpr int64_t kT0 = 1767225600;  // 2026-01-01T00:00:00Z
constexpr int64_t kMinute = 60;

Node node(const std::string& name, StringMap labels = {}) {
  Node n;
  n.metadata.name = name;
  n.metadata.labels = std::move(labels);
  n.metadata.labels["pool"] = "gpu";
  return n;
}

TopologySource config_map_source(const std::string& name, std::vector<std::string> levels = {kZone, kRack}) {
  TopologySource s;
  s.metadata.name = name;
  s.metadata.uid = "uid-" + name;
  s.metadata.generation = 1;
  s.node_selector.match_labels = {{"pool", "gpu"}};
  s.levels = std::move(levels);
  s.arm = "configMap";
  s.config_map = TopologySourceConfigMap{{"gpustack-system", name}, "snapshot.yaml", 10 * kMinute * 1'000'000};
  return s;
}

TopologySource webhook_source(const std::string& name) {
  TopologySource s = config_map_source(name);
  s.arm = "webhook";
  s.config_map.reset();
  s.webhook = TopologySourceWebhook{};
  s.webhook->url = "https://inventory.example.test/snapshot";
  s.webhook->poll_interval_us = kMinute * 1'000'000;
  s.webhook->timeout_us = 10'000'000;
  s.webhook->max_staleness_us = 5 * kMinute * 1'000'000;
  s.webhook->bearer_token_secret_ref = TopologySourceObjectReference{"gpustack-system", "token"};
  return s;
}

TopologyRead snapshot(std::string revision, std::map<std::string, StringMap> nodes) {
  TopologyRead r;
  r.snapshot = TopologySnapshot{};
  r.snapshot->revision = std::move(revision);
  r.snapshot->nodes = std::move(nodes);
  return r;
}

TopologyRead good(std::string revision = "r1") {
  return snapshot(std::move(revision), {{"a", {{kZone, "z1"}, {kRack, "k1"}}}, {"b", {{kZone, "z1"}, {kRack, "k2"}}}});
}

TopologyRead two_parents() {
  return snapshot("r2", {{"a", {{kZone, "z1"}, {kRack, "k1"}}}, {"b", {{kZone, "z2"}, {kRack, "k1"}}}});
}

TopologyRead failure(std::string reason, std::string message) {
  TopologyRead r;
  r.failure_reason = std::move(reason);
  r.failure_message = std::move(message);
  return r;
}

ClusterState cluster(TopologySource source) {
  ClusterState s;
  s.nodes["a"] = node("a");
  s.nodes["b"] = node("b");
  s.topology_sources[source.metadata.name] = std::move(source);
  return s;
}

// One reconcile of `name` at kT0 + seconds, applied.
ClusterState reconciled(const ClusterState& s, const std::string& name, const TopologyRead& read, int64_t seconds,
                        Plan* out = nullptr) {
  Plan plan = reconcile_topology_source(s, name, read, format_rfc3339(kT0 + seconds));
  auto next = apply_plan(s, plan, format_rfc3339(kT0 + seconds));
  REQUIRE(next.ok());
  if (out != nullptr) *out = plan;
  return *next;
}

std::string reading(const TopologySource& s, const char* type) {
  const Condition* c = find_condition(s.conditions, type);
  return c == nullptr ? "(absent)" : c->status + "/" + c->reason;
}

std::string message(const TopologySource& s, const char* type) {
  const Condition* c = find_condition(s.conditions, type);
  return c == nullptr ? "(absent)" : c->message;
}

}  // namespace

TEST_CASE("a valid snapshot is published as one NodeFeature per described node and the source is Ready",
          "[topology_source]") {
  Plan plan;
  const ClusterState s = reconciled(cluster(config_map_source("inv")), "inv", good(), 0, &plan);
  const TopologySource& ts = s.topology_sources.at("inv");
  CHECK(reading(ts, "Ready") == "True/Observed");
  CHECK(message(ts, "Ready") == "topology snapshot is published through NodeFeatures");
  CHECK(reading(ts, "Valid") == "True/Observed");
  CHECK(reading(ts, "OwnershipConflict") == "False/NoConflict");
  CHECK(ts.status.last_successful_revision == "r1");
  CHECK(ts.status.last_successful_refresh_time == "2026-01-01T00:00:00Z");
  CHECK(ts.status.selected_nodes == 2);
  CHECK(ts.status.mutated_nodes == 2);
  CHECK(ts.status.source_kind == "ConfigMap");
  CHECK(plan.requeues.empty());  // a ConfigMap source is reconciled on change, not polled
  const std::string name = topology_source_node_feature_name("uid-inv", "a");
  CHECK(name.rfind("gpustack-topology-", 0) == 0);
  CHECK(name.size() == std::string("gpustack-topology-").size() + 16);
  const NodeFeature& f = s.node_features.at("gpustack-system/" + name);
  CHECK(f.labels == StringMap{{kZone, "z1"}, {kRack, "k1"}});
  CHECK(f.node_name() == "a");
  CHECK(f.metadata.labels.at("topology.gpustack.ai/source-uid") == "uid-inv");
  REQUIRE(f.metadata.owner_references.size() == 1);
  CHECK(f.metadata.owner_references[0].controller);
  CHECK(owned_node_features(s, ts).size() == 2);
}

TEST_CASE("the last valid NodeFeatures stay until maxStaleness after the last successful read, then go",
          "[topology_source]") {
  struct Row {
    const char* what;
    std::function<TopologyRead()> read;
    int64_t at_seconds;  // after the successful read at 0
    std::string ready, valid;
    size_t features;
    std::optional<int64_t> requeue_seconds;
  };
  const Row rows[] = {
      {"a read failure inside maxStaleness keeps them (Stale)",
       [] { return failure("ConfigMapReadFailed", R"(configmaps "inv" not found)"); }, 4 * kMinute, "False/Stale",
       "False/ConfigMapReadFailed", 2, 6 * kMinute},
      {"a rejected revision inside maxStaleness keeps them (Stale)", two_parents, 9 * kMinute, "False/Stale",
       "False/SnapshotInvalid", 2, kMinute},
      {"a missing key one second before expiry keeps them",
       [] { return failure("SnapshotKeyMissing", R"(ConfigMap key "snapshot.yaml" is missing)"); },
       10 * kMinute - 1, "False/Stale", "False/SnapshotKeyMissing", 2, 1},
      {"a read failure at maxStaleness removes them (Expired)",
       [] { return failure("ConfigMapReadFailed", R"(configmaps "inv" not found)"); }, 10 * kMinute,
       "False/Expired", "False/ConfigMapReadFailed", 0, std::nullopt},
      {"a rejected revision after maxStaleness removes them (Expired)", two_parents, 30 * kMinute, "False/Expired",
       "False/SnapshotInvalid", 0, std::nullopt},
      {"a new valid revision replaces them", [] { return good("r9"); }, 30 * kMinute, "True/Observed",
       "True/Observed", 2, std::nullopt},
  };
  const ClusterState published = reconciled(cluster(config_map_source("inv")), "inv", good(), 0);
  for (const auto& r : rows) {
    INFO(r.what);
    Plan plan;
    const ClusterState s = reconciled(published, "inv", r.read(), r.at_seconds, &plan);
    const TopologySource& ts = s.topology_sources.at("inv");
    CHECK(reading(ts, "Ready") == r.ready);
    CHECK(reading(ts, "Valid") == r.valid);
    CHECK(reading(ts, "OwnershipConflict") == "False/NoConflict");
    CHECK(owned_node_features(s, ts).size() == r.features);
    if (r.requeue_seconds) {
      REQUIRE(plan.requeues.size() == 1);
      CHECK(plan.requeues[0].after_seconds == *r.requeue_seconds);
    } else {
      CHECK(plan.requeues.empty());
    }
  }
}

TEST_CASE("a stale source keeps its labels but says why, and its last good revision", "[topology_source]") {
  const ClusterState published = reconciled(cluster(config_map_source("inv")), "inv", good(), 0);
  const ClusterState s = reconciled(published, "inv", two_parents(), 2 * kMinute);
  const TopologySource& ts = s.topology_sources.at("inv");
  CHECK(message(ts, "Ready") == "retaining the last valid ConfigMap snapshot");
  CHECK(message(ts, "Valid") ==
        R"(topology snapshot level "topology.gpustack.ai/rack" value "k1" has conflicting parent tuples)");
  CHECK(message(ts, "OwnershipConflict") == "no contested labels were written");
  CHECK(ts.status.last_successful_revision == "r1");
  CHECK(ts.status.last_successful_refresh_time == "2026-01-01T00:00:00Z");
  CHECK(ts.status.mutated_nodes == 0);
  const ClusterState expired = reconciled(s, "inv", two_parents(), 10 * kMinute);
  CHECK(message(expired.topology_sources.at("inv"), "Ready") ==
        "the last valid ConfigMap snapshot expired and owned NodeFeatures were removed");
  CHECK(expired.topology_sources.at("inv").status.mutated_nodes == 2);
}

TEST_CASE("a source that never read a snapshot reports the read failure and writes nothing", "[topology_source]") {
  Plan plan;
  const ClusterState s =
      reconciled(cluster(config_map_source("inv")), "inv", failure("ConfigMapReadFailed", R"(configmaps "inv" not found)"),
                 0, &plan);
  const TopologySource& ts = s.topology_sources.at("inv");
  CHECK(reading(ts, "Ready") == "False/ConfigMapReadFailed");
  CHECK(message(ts, "Ready") == "ConfigMap snapshot is unavailable");
  CHECK(message(ts, "Valid") == R"(configmaps "inv" not found)");
  CHECK(s.node_features.empty());
  CHECK(plan.requeues.empty());
}

TEST_CASE("a webhook source polls every pollInterval, sooner when its kept snapshot expires first",
          "[topology_source]") {
  Plan plan;
  const ClusterState published = reconciled(cluster(webhook_source("hook")), "hook", good(), 0, &plan);
  REQUIRE(plan.requeues.size() == 1);
  CHECK(plan.requeues[0].after_seconds == 60);
  CHECK(published.topology_sources.at("hook").status.source_kind == "Webhook");
  const ClusterState stale =
      reconciled(published, "hook", failure("WebhookReadFailed", "topology webhook returned HTTP 503"), 4 * kMinute + 30,
                 &plan);
  CHECK(reading(stale.topology_sources.at("hook"), "Ready") == "False/Stale");
  CHECK(message(stale.topology_sources.at("hook"), "Ready") == "retaining the last valid webhook snapshot");
  REQUIRE(plan.requeues.size() == 1);
  CHECK(plan.requeues[0].after_seconds == 30);  // maxStaleness 5m − 4m30s < pollInterval 1m
  const ClusterState expired =
      reconciled(stale, "hook", failure("WebhookReadFailed", "topology webhook returned HTTP 503"), 5 * kMinute, &plan);
  CHECK(reading(expired.topology_sources.at("hook"), "Ready") == "False/Expired");
  CHECK(expired.node_features.empty());
  REQUIRE(plan.requeues.size() == 1);
  CHECK(plan.requeues[0].after_seconds == 60);
}

TEST_CASE("writing sources that share a level and select the same nodes both step back", "[topology_source]") {
  struct Row {
    const char* what;
    TopologySource other;
    bool conflict;
  };
  TopologySource disjoint = config_map_source("other", {"topology.gpustack.ai/block"});
  TopologySource read_only = config_map_source("other");
  read_only.arm = "nodeLabels";
  read_only.config_map.reset();
  TopologySource zone_only = webhook_source("other");
  zone_only.levels = {kZone, "topology.gpustack.ai/block"};
  TopologySource elsewhere = config_map_source("other");
  elsewhere.node_selector.match_labels = {{"pool", "cpu"}};
  const Row rows[] = {
      {"another configMap source with the same levels", config_map_source("other"), true},
      {"a webhook source sharing only the zone level", zone_only, true},
      {"a writing source with no level in common", disjoint, false},
      {"a nodeLabels source with the same levels", read_only, false},
      {"a writing source selecting none of these nodes", elsewhere, false},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    ClusterState s = reconciled(cluster(config_map_source("inv")), "inv", good(), 0);
    s.topology_sources["other"] = r.other;
    Plan plan;
    const ClusterState after = reconciled(s, "inv", good("r2"), kMinute, &plan);
    const TopologySource& ts = after.topology_sources.at("inv");
    if (r.conflict) {
      CHECK(reading(ts, "Ready") == "False/OwnershipConflict");
      CHECK(message(ts, "Ready") == R"(writing sources "other" select the same Nodes and levels)");
      CHECK(reading(ts, "Valid") == "True/Observed");
      CHECK(message(ts, "Valid") == "topology snapshot is valid but cannot claim contested labels");
      CHECK(reading(ts, "OwnershipConflict") == "True/OverlappingSources");
      CHECK(ts.status.conflicted_nodes == 2);
      CHECK(ts.status.last_successful_revision == "r1");  // the contested revision is not recorded
      CHECK(after.node_features.empty());
      REQUIRE_FALSE(plan.requeues.empty());
      CHECK(plan.requeues[0].after_seconds == 60);
    } else {
      CHECK(reading(ts, "Ready") == "True/Observed");
      CHECK(reading(ts, "OwnershipConflict") == "False/NoConflict");
      CHECK(owned_node_features(after, ts).size() == 2);
    }
  }
}

TEST_CASE("a nodeLabels source only judges its nodes' labels and never writes", "[topology_source]") {
  TopologySource s = config_map_source("cloud", {"topology.kubernetes.io/region", "topology.kubernetes.io/zone"});
  s.arm = "nodeLabels";
  s.config_map.reset();
  ClusterState c = cluster(s);
  c.nodes["a"].metadata.labels["topology.kubernetes.io/region"] = "r1";
  c.nodes["a"].metadata.labels["topology.kubernetes.io/zone"] = "z1";
  const ClusterState ok = reconciled(c, "cloud", {}, 0);
  CHECK(reading(ok.topology_sources.at("cloud"), "Ready") == "True/Observed");
  CHECK(reading(ok.topology_sources.at("cloud"), "OwnershipConflict") == "False/ReadOnly");
  CHECK(ok.node_features.empty());
  c.nodes["b"].metadata.labels["topology.kubernetes.io/zone"] = "z2";  // a zone without a region
  const ClusterState bad = reconciled(c, "cloud", {}, 0);
  CHECK(reading(bad.topology_sources.at("cloud"), "Ready") == "False/InvalidHierarchy");
  CHECK(message(bad.topology_sources.at("cloud"), "Valid") ==
        R"(node "b" has level "topology.kubernetes.io/zone" without its parent)");
}

TEST_CASE("a NodeFeature of the wanted name that another owner controls is a reconcile error", "[topology_source]") {
  ClusterState s = cluster(config_map_source("inv"));
  NodeFeature foreign;
  foreign.metadata.namespace_ = "gpustack-system";
  foreign.metadata.name = topology_source_node_feature_name("uid-inv", "a");
  foreign.metadata.owner_references = {{"v1", "Other", "x", "uid-x", true}};
  s.node_features["gpustack-system/" + foreign.metadata.name] = foreign;
  const Plan plan = reconcile_topology_source(s, "inv", good(), format_rfc3339(kT0));
  CHECK(plan.writes.empty());
  REQUIRE(plan.requeues.size() == 1);
  CHECK(plan.requeues[0].reason.find("is not owned by TopologySource \"inv\"") != std::string::npos);
}

TEST_CASE("reconciling an unchanged source at the same instant writes nothing", "[topology_source]") {
  const ClusterState s = reconciled(cluster(config_map_source("inv")), "inv", good(), 0);
  const ClusterState again = reconciled(s, "inv", good(), 0);
  // mutatedNodes drops to 0 (the second reconcile changed no NodeFeature): one status write, no more.
  CHECK(again.topology_sources.at("inv").status.mutated_nodes == 0);
  CHECK(reconcile_topology_source(again, "inv", good(), format_rfc3339(kT0)).writes.empty());
}
