#include <catch2/catch.hpp>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage4/node_topology_reconciler.h"
#include "model/stage4/reconcile_error.h"

using namespace chaintwin::model;
namespace k = chaintwin::model::keys;

namespace {

const std::string kZone = "topology.kubernetes.io/zone";
const std::string kRegion = "topology.kubernetes.io/region";
const std::string kHost(k::kHostname);

Node node(const std::string& name, StringMap labels = {}) {
  Node n;
  n.metadata.name = name;
  n.metadata.labels = std::move(labels);
  n.metadata.labels[kHost] = name;
  return n;
}

TopologySource source(const std::string& name, StringMap match, std::vector<std::string> levels, bool ready = true) {
  TopologySource s;
  s.metadata.name = name;
  s.node_selector.match_labels = std::move(match);
  s.levels = std::move(levels);
  s.conditions.push_back({"Ready", ready ? "True" : "False", "x", "", 0});
  return s;
}

std::string profile_label(const ClusterState& s, const std::string& n) {
  const auto& labels = s.nodes.at(n).metadata.labels;
  const auto it = labels.find(std::string(k::kTopologyProfile));
  return it == labels.end() ? "" : it->second;
}

ClusterState applied(const ClusterState& s, const Plan& p) {
  auto next = apply_plan(s, p, "t");
  REQUIRE(next.ok());
  return *next;
}

}  // namespace

TEST_CASE("a node no TopologySource selects gets the hostname-only profile and its Topology", "[node_topology]") {
  ClusterState s;
  s.nodes["a"] = node("a");
  const auto next = applied(s, reconcile_node_topology(s));
  CHECK(profile_label(next, "a") == "fnv64-87bf574bea2a4f23");
  const auto& t = next.topologies.at("gpustack-fnv64-87bf574bea2a4f23");
  CHECK(t.levels == std::vector<std::string>{kHost});
  CHECK(t.metadata.labels.at(std::string(k::kResourceType)) == "topology");
}

TEST_CASE("a Ready source selecting the node gives its levels with hostname appended", "[node_topology]") {
  ClusterState s;
  s.nodes["a"] = node("a", {{"pool", "x"}, {kRegion, "r1"}, {kZone, "z1"}});
  s.topology_sources["src"] = source("src", {{"pool", "x"}}, {kRegion, kZone});
  const auto next = applied(s, reconcile_node_topology(s));
  CHECK(profile_label(next, "a") == "fnv64-570aeab478df5111");
  CHECK(next.topologies.at("gpustack-fnv64-570aeab478df5111").levels == std::vector<std::string>{kRegion, kZone, kHost});
}

TEST_CASE("levels are cut at the first level the node lacks", "[node_topology]") {
  const StringMap labels = {{kRegion, "r1"}, {"rack", "k1"}};  // no zone: rack is dropped too
  CHECK(topology_prefix(labels, {kRegion, kZone, "rack"}) == std::vector<std::string>{kRegion});
  CHECK(topology_prefix({{kRegion, ""}}, {kRegion}).empty());  // an empty value counts as missing
}

TEST_CASE("no Ready match or two matches fall back to the hostname-only hierarchy", "[node_topology]") {
  Node n = node("a", {{"pool", "x"}, {kZone, "z"}});
  std::map<std::string, TopologySource> sources;
  sources["unready"] = source("unready", {{"pool", "x"}}, {kZone}, false);
  CHECK(*resolve_node_topology_levels(n, sources) == std::vector<std::string>{kHost});
  sources["one"] = source("one", {{"pool", "x"}}, {kZone});
  CHECK(*resolve_node_topology_levels(n, sources) == std::vector<std::string>{kZone, kHost});
  sources["two"] = source("two", {}, {kZone});
  CHECK(*resolve_node_topology_levels(n, sources) == std::vector<std::string>{kHost});
}

TEST_CASE("ascending Topograph fabric tiers are reversed, other levels keep their place", "[node_topology]") {
  const std::string t1 = "fabric.topograph.run/tier-1", t2 = "fabric.topograph.run/tier-2",
                    t3 = "fabric.topograph.run/tier-3";
  CHECK(normalize_topology_levels({t1, t2, t3}) == std::vector<std::string>{t3, t2, t1});
  CHECK(normalize_topology_levels({t3, t2, t1}) == std::vector<std::string>{t3, t2, t1});
  CHECK(normalize_topology_levels({kZone, t1, t2, "rack"}) == std::vector<std::string>{kZone, t2, t1, "rack"});
  CHECK(normalize_topology_levels({t1, kZone, t2}) == std::vector<std::string>{t1, kZone, t2});
}

TEST_CASE("a malformed selector on a Ready source is an error and nothing is written", "[node_topology]") {
  ClusterState s;
  s.nodes["a"] = node("a");
  auto src = source("bad", {}, {kZone});
  src.node_selector.match_expressions.push_back({"pool", "Within", {"x"}});
  s.topology_sources["bad"] = src;
  const Plan p = reconcile_node_topology(s);
  CHECK(p.writes.empty());
  REQUIRE(p.requeues.size() == 1);
  CHECK(is_reconcile_error(p.requeues[0]));
}

TEST_CASE("a generated Topology with drifted levels is an error and the node keeps its old label", "[node_topology]") {
  ClusterState s;
  s.nodes["a"] = node("a");
  Topology drifted = generated_topology("fnv64-87bf574bea2a4f23", {kZone, kHost});
  s.topologies[drifted.metadata.name] = drifted;
  const Plan p = reconcile_node_topology(s);
  CHECK(p.writes.empty());
  REQUIRE(p.requeues.size() == 1);
  CHECK(p.requeues[0].reason ==
        "error: managed Topology \"gpustack-fnv64-87bf574bea2a4f23\" has immutable level drift");
}

TEST_CASE("two nodes with the same levels create the Topology once", "[node_topology]") {
  ClusterState s;
  s.nodes["a"] = node("a");
  s.nodes["b"] = node("b");
  const Plan p = reconcile_node_topology(s);
  int creates = 0;
  for (const auto& w : p.writes) creates += (w.verb == WriteVerb::kCreate) ? 1 : 0;
  CHECK(creates == 1);
  CHECK(p.writes.size() == 3);
}

TEST_CASE("the profile is mirrored onto the node's Devices and a converged state plans nothing", "[node_topology]") {
  ClusterState s;
  s.nodes["a"] = node("a");
  Devices d;
  d.metadata.name = "a";
  d.metadata.labels["device-manager/own"] = "x";
  s.devices["a"] = d;
  const auto next = applied(s, reconcile_node_topology(s));
  CHECK(next.devices.at("a").metadata.labels.at(std::string(k::kTopologyProfile)) == "fnv64-87bf574bea2a4f23");
  CHECK(next.devices.at("a").metadata.labels.at("device-manager/own") == "x");
  const Plan again = reconcile_node_topology(next);
  CHECK(again.writes.empty());
  CHECK(again.requeues.empty());
}

TEST_CASE("a deleting node is not given a profile", "[node_topology]") {
  ClusterState s;
  s.nodes["a"] = node("a");
  s.nodes["a"].metadata.deletion_timestamp = "t0";
  CHECK(reconcile_node_topology(s).writes.empty());
}

TEST_CASE("a node whose source changes gets the new profile and a new Topology", "[node_topology]") {
  ClusterState s;
  s.nodes["a"] = node("a", {{kZone, "z"}});
  s = applied(s, reconcile_node_topology(s));
  s.topology_sources["src"] = source("src", {}, {kZone});
  s = applied(s, reconcile_node_topology(s));
  CHECK(profile_label(s, "a") == topology_profile({kZone, kHost}));
  CHECK(s.topologies.size() == 2);  // the old one is the flavor side's to retire
}
