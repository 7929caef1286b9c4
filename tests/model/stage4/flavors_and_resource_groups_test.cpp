// Issue 17, part 2, "flavors and resource groups": the ResourceFlavors the NodeFlavor controller
// keeps per (shape, topology profile), the mixing-pin drift it repairs, the node index it reads,
// and the one resource group the NodeQueue controller builds from a pool's flavors. Every expected
// value below is worked out by hand from the reference section named in the comment above its
// table (operator-code-rules.md §3.d, operator-domain.md §1.3, §1.4, §4.3, §4.5) and checked against
// node_flavor.go / node_queue.go.
#include <catch2/catch.hpp>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage4/node_flavor_index.h"
#include "model/stage4/node_flavor_reconciler.h"
#include "model/stage4/node_queue_reconciler.h"
#include "model/stage4/reconcile_error.h"
#include "model/stage4/resource_groups.h"
#include "tests/model/stage4/flavor_node_fixtures.h"
#include "tests/model/stage4/node_queue_fixtures.h"

using namespace chaintwin::model;
namespace k = chaintwin::model::keys;
namespace fx = chaintwin::model::queue_fixtures;

namespace {

const std::string kProfileA = "fnv64-87bf574bea2a4f23";  // the hostname-only profile
const std::string kProfileB = "fnv64-00000000000000b2";  // any second profile label
const std::string kGeneric = "general.feature.gpustack.ai/generic";
const std::string kA10g = "acceleratable.feature.gpustack.ai/nvidia-a10g";

std::string cpu_flavor(int64_t cores, const std::string& profile) {
  return "gpustack--generic-linux-amd64-" + std::to_string(cores) + "c-" + profile;
}
std::string gpu_flavor(int64_t cards, const std::string& profile) {
  return "gpustack--generic--nvidia-a10g-linux-amd64-" + std::to_string(cards) + "d-" + profile;
}

Node cpu_node(const std::string& name, const std::string& profile, int64_t cores = 4) {
  return testing::flavor_cpu_node(name, cores, profile);
}

Node gpu_node(const std::string& name, const std::string& profile, int64_t cards) {
  Node n = cpu_node(name, profile, 48);
  n.metadata.labels.erase(std::string(k::kCpuOnly));
  n.metadata.labels[std::string(k::kAcceleratable)] = "true";
  n.metadata.labels[kA10g] = "true";
  n.metadata.labels[kA10g + ".count"] = std::to_string(cards);
  n.metadata.labels[kA10g + ".product"] = "NVIDIA-A10G";
  return n;
}

ClusterState nodes_world(std::vector<Node> nodes, bool mixing) {
  ClusterState s;
  s.settings.instance_type_mixed_on_node = mixing;
  s.settings.instance_type_derived_from_node = false;  // no InstanceType authoring in these tables
  for (auto& n : nodes) s.nodes[n.metadata.name] = std::move(n);
  return s;
}

ClusterState applied(const ClusterState& s, const Plan& p) {
  auto next = apply_plan(s, p, "t");
  REQUIRE(next.ok());
  return *next;
}

ClusterState flavors_converged(ClusterState s) {
  for (int i = 0; i < 4; ++i) s = applied(s, reconcile_node_flavor(s));
  return s;
}

// name -> capacity label (own key), over every operator flavor.
std::map<std::string, std::string> capacities(const ClusterState& s) {
  std::map<std::string, std::string> out;
  for (const auto& [name, rf] : s.resource_flavors) {
    const bool accelerated = rf.metadata.labels.at(std::string(k::kAcceleratable)) == "true";
    out[name] = rf.metadata.labels.at((accelerated ? kA10g : kGeneric) + ".capacity");
  }
  return out;
}

std::vector<WriteVerb> verbs(const Plan& p) {
  std::vector<WriteVerb> out;
  for (const auto& w : p.writes) out.push_back(w.verb);
  return out;
}

std::vector<std::string> nominal_quotas(const ClusterQueue& cq) {
  std::vector<std::string> out;
  for (const auto& g : cq.spec.resource_groups)
    for (const auto& f : g.flavors) out.push_back(f.resources.at(0).nominal_quota.to_string());
  return out;
}

}  // namespace

// operator-domain.md §1.3 ("one per group (key, os, arch, per-node count, topology profile)") and
// operator-code-rules.md §3.d (topology-qualified names; capacity = contributors × count; siblings
// with a contributor are kept).
TEST_CASE("one hardware shape under two topology profiles gives one flavor per profile", "[node_flavor][issue17]") {
  struct Row {
    const char* name;
    std::vector<Node> nodes;
    std::map<std::string, std::string> capacities;
  };
  const std::vector<Row> rows = {
      {"one 4-core node in each profile",
       {cpu_node("a", kProfileA), cpu_node("b", kProfileB)},
       {{cpu_flavor(4, kProfileA), "4"}, {cpu_flavor(4, kProfileB), "4"}}},
      {"two nodes in the first profile, one in the second",
       {cpu_node("a1", kProfileA), cpu_node("a2", kProfileA), cpu_node("b", kProfileB)},
       {{cpu_flavor(4, kProfileA), "8"}, {cpu_flavor(4, kProfileB), "4"}}},
      {"a one-card A10G node in each profile (its CPU side too)",
       {gpu_node("g1", kProfileA, 1), gpu_node("g2", kProfileB, 1)},
       {{cpu_flavor(48, kProfileA), "48"},
        {cpu_flavor(48, kProfileB), "48"},
        {gpu_flavor(1, kProfileA), "1"},
        {gpu_flavor(1, kProfileB), "1"}}},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    const auto s = flavors_converged(nodes_world(r.nodes, true));
    CHECK(capacities(s) == r.capacities);
    for (const auto& [name, rf] : s.resource_flavors) {
      const std::string profile = rf.metadata.labels.at(std::string(k::kTopologyProfile));
      CHECK(name.substr(name.size() - profile.size()) == profile);
      CHECK(rf.spec.node_labels.at(std::string(k::kTopologyProfile)) == profile);
      CHECK(rf.spec.topology_name == "gpustack-" + profile);
      CHECK_FALSE(rf.metadata.deletion_timestamp);
    }
    CHECK(reconcile_node_flavor(s).writes.empty());
  }
}

// operator-code-rules.md §3.d ("Spec is immutable: drift → error 'immutable topology drift'; a
// drift that is only the mixing pin → delete and recreate"); §5 item 10 (the pin follows
// instance-type-mixed-on-node=false).
TEST_CASE("a CPU flavor whose only drift is the cpu-only pin is deleted and recreated", "[node_flavor][issue17]") {
  struct Row {
    const char* name;
    bool mixing_before, mixing_after;
    bool also_drift_topology;  // a second spec difference besides the pin
    std::vector<WriteVerb> first_pass;
    bool error;
    std::string pin_after;  // the recreated flavor's cpu-only selector, "" = absent
  };
  const std::vector<Row> rows = {
      {"mixing turned off: the pin is missing", true, false, false, {WriteVerb::kDelete}, false, "true"},
      {"mixing turned on: the pin is stale", false, true, false, {WriteVerb::kDelete}, false, ""},
      {"no change of setting: nothing drifts", false, false, false, {}, false, "true"},
      {"the pin and the topology both drift: refused", true, false, true, {}, true, ""},
  };
  const std::string name = cpu_flavor(4, kProfileA);
  for (const auto& r : rows) {
    INFO(r.name);
    auto s = flavors_converged(nodes_world({cpu_node("a", kProfileA)}, r.mixing_before));
    s.settings.instance_type_mixed_on_node = r.mixing_after;
    if (r.also_drift_topology) s.resource_flavors.at(name).spec.topology_name = "foreign-topology";
    const Plan first = reconcile_node_flavor(s);
    CHECK(verbs(first) == r.first_pass);
    CHECK((!first.requeues.empty() && is_reconcile_error(first.requeues[0])) == r.error);
    if (r.error) {
      CHECK(first.requeues[0].reason.find("immutable topology drift") != std::string::npos);
      continue;
    }
    s = applied(s, first);
    if (!r.first_pass.empty()) CHECK(s.resource_flavors.count(name) == 0);  // no finalizer here
    s = flavors_converged(s);
    const auto& nl = s.resource_flavors.at(name).spec.node_labels;
    const auto pin = nl.find(std::string(k::kCpuOnly));
    CHECK((pin == nl.end() ? std::string() : pin->second) == r.pin_after);
  }
}

// operator-code-rules.md §3.d (Nodes indexed by nodes.schedule.gpustack.ai/flavor =
// topology-qualified names of ExtractNodeFlavors, only for managed nodes that carry a profile;
// deleting nodes still count); node_flavor_test.go TestIndexNodeByScheduleFlavor.
TEST_CASE("a schedulable managed node is indexed under its topology-qualified flavors", "[node_flavor][issue17]") {
  struct Row {
    const char* name;
    Node node;
    std::vector<std::string> index;
  };
  Node cordoned = cpu_node("c", kProfileA);
  cordoned.unschedulable = true;
  Node deleting = cpu_node("d", kProfileA);
  deleting.metadata.deletion_timestamp = "t";
  Node unmanaged = cpu_node("u", kProfileA);
  unmanaged.metadata.labels[std::string(k::kManaged)] = "false";
  Node unprofiled = cpu_node("p", kProfileA);
  unprofiled.metadata.labels.erase(std::string(k::kTopologyProfile));
  const std::vector<Row> rows = {
      {"a schedulable managed CPU node", cpu_node("n", kProfileA), {cpu_flavor(4, kProfileA)}},
      {"a schedulable managed node of the second profile", cpu_node("n", kProfileB), {cpu_flavor(4, kProfileB)}},
      {"a schedulable managed A10G node: its CPU and device flavors",
       gpu_node("g", kProfileA, 2),
       {gpu_flavor(2, kProfileA), cpu_flavor(48, kProfileA)}},  // in name order
      {"a cordoned node is still indexed", cordoned, {cpu_flavor(4, kProfileA)}},
      {"a deleting node is still indexed", deleting, {cpu_flavor(4, kProfileA)}},
      {"an unmanaged node is not", unmanaged, {}},
      {"a node without a profile is not", unprofiled, {}},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    auto got = node_schedule_flavor_index(r.node);
    std::sort(got.begin(), got.end());
    CHECK(got == r.index);
  }
}

// operator-code-rules.md §3.d ("sorted by per-node count ascending (read from
// spec.nodeLabels[<own key>.count]), then name"; accelerated nominal = capacity × M, CPU nominal =
// capacity); operator-domain.md §1.4.
TEST_CASE("resource groups list flavors smallest per-node count first, CPU-only and accelerated alike",
          "[node_queue][issue17]") {
  struct Row {
    const char* name;
    std::string key;
    std::string manufacturer;  // "" = CPU-only queue
    std::vector<ResourceFlavor> flavors;
    std::string covered;
    std::vector<std::string> order, nominal;
  };
  const std::vector<Row> rows = {
      {"CPU-only: 16, 2 and 4 cores per node",
       "generic",
       "",
       {fx::nodes_flavor("gpustack-a-16c", "generic", 16, 16), fx::nodes_flavor("gpustack-b-2c", "generic", 2, 4),
        fx::nodes_flavor("gpustack-c-4c", "generic", 4, 12)},
       "cpu",
       {"gpustack-b-2c", "gpustack-c-4c", "gpustack-a-16c"},
       {"4", "12", "16"}},
      {"accelerated: 4, 2 and 1 cards per node",
       "nvidia-a10g",
       "nvidia",
       {fx::nodes_flavor("gpustack-a-4d", "nvidia-a10g", 4, 4, "nvidia"),
        fx::nodes_flavor("gpustack-b-2d", "nvidia-a10g", 2, 2, "nvidia"),
        fx::nodes_flavor("gpustack-c-1d", "nvidia-a10g", 1, 2, "nvidia")},
       "credits.gpustack.ai/nvidia",
       {"gpustack-c-1d", "gpustack-b-2d", "gpustack-a-4d"},
       {"3200k", "3200k", "6400k"}},  // 2 × 1,600,000; 2 × M; 4 × M
  };
  for (const auto& r : rows) {
    INFO(r.name);
    const bool accelerated = !r.manufacturer.empty();
    const std::string name = fx::node_queue_name(r.key);
    auto s = fx::queue_world({fx::instance_type_queue(r.key, accelerated)}, r.flavors);
    CHECK(fx::reconcile_once(s, name) == 0);
    const auto& cq = s.cluster_queues.at(name);
    REQUIRE(cq.spec.resource_groups.size() == 1);
    CHECK(cq.spec.resource_groups[0].covered_resources == std::vector<std::string>{r.covered});
    CHECK(fx::flavor_names(cq) == r.order);
    CHECK(nominal_quotas(cq) == r.nominal);
    CHECK(fx::topology_ready(s, name)->reason == "Ready");
  }

  // Equal counts fall back to the name (flavors of two profiles of one shape).
  std::vector<ResourceFlavor> tie = {fx::nodes_flavor("gpustack-x-4c-fnv64-2", "generic", 4, 4),
                                     fx::nodes_flavor("gpustack-x-4c-fnv64-1", "generic", 4, 8),
                                     fx::nodes_flavor("gpustack-x-2c-fnv64-9", "generic", 2, 2)};
  for (auto& rf : tie) rf.spec.node_labels = {{kGeneric, "true"}, {kGeneric + ".count", rf.metadata.labels.at(kGeneric + ".count")}};
  sort_by_per_node_count(tie);
  std::vector<std::string> names;
  for (const auto& rf : tie) names.push_back(rf.metadata.name);
  CHECK(names == std::vector<std::string>{"gpustack-x-2c-fnv64-9", "gpustack-x-4c-fnv64-1", "gpustack-x-4c-fnv64-2"});
}

// operator-code-rules.md §3.d (an accelerated flavor also carries general.…/<gKey>=true "no
// .count/.capacity sibling"); node_queue.go parseResourceFlavorCapacity scopes the search to the
// own-key prefix chosen by feature.gpustack.ai/acceleratable.
TEST_CASE("an accelerated queue fills from the acceleratable key's capacity even where a general key is present",
          "[node_queue][issue17]") {
  struct Row {
    const char* name;
    std::optional<std::string> general_capacity;  // a .capacity sibling on the general key
    std::string nominal;
  };
  const std::vector<Row> rows = {
      {"general key without a capacity sibling", std::nullopt, "4800k"},  // 3 cards × M
      {"general key with a capacity sibling of its own", std::string("96"), "4800k"},
      {"general key with a zero capacity sibling", std::string("0"), "4800k"},
  };
  const std::string gen = "general.feature.gpustack.ai/amd-epyc-7r32";
  for (const auto& r : rows) {
    INFO(r.name);
    auto rf = fx::nodes_flavor("gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64-1d", "nvidia-a10g", 1, 3, "nvidia",
                               "amd-epyc-7r32");
    if (r.general_capacity) rf.metadata.labels[gen + ".capacity"] = *r.general_capacity;
    CHECK(resource_flavor_capacity(rf) == 3);
    const std::string name = fx::node_queue_name("nvidia-a10g");
    auto s = fx::queue_world({fx::instance_type_queue("nvidia-a10g", true)}, {rf});
    fx::reconcile_once(s, name);
    const auto& cq = s.cluster_queues.at(name);
    REQUIRE(cq.spec.resource_groups.size() == 1);
    CHECK(cq.spec.resource_groups[0].covered_resources == std::vector<std::string>{"credits.gpustack.ai/nvidia"});
    CHECK(nominal_quotas(cq) == std::vector<std::string>{r.nominal});
  }
}

// operator-code-rules.md §3.d ("capacity ≠ selected nodes × count, or a profiled pool node selected
// by none (NonConservedQuota)"; "MissingTopology/NonConservedQuota ... requeue 30 s"); operator-domain.md
// §4.5 ("failure → keep last complete plan, hold a queue with none"). The setup changes the
// flavor's .capacity label after its Nodes were made (2 Nodes × 4 cores = 8).
TEST_CASE("topology readiness refuses a flavor whose capacity label is not nodes times count", "[node_queue][issue17]") {
  struct Row {
    const char* name;
    std::optional<std::string> capacity_label;  // nullopt: removed
    bool queue_had_groups;
    std::string reason, message;
    int64_t requeue;
    StopPolicy policy_after;
  };
  const std::string f = "gpustack-generic-linux-amd64-4c";
  const std::string msg = "ResourceFlavor \"" + f + "\" advertises capacity ";
  const std::vector<Row> rows = {
      {"capacity unchanged (8)", std::string("8"), false, "Ready",
       "all queue flavors are topology-aware and quota is conserved", 0, StopPolicy::kNone},
      {"capacity raised to 12", std::string("12"), false, "NonConservedQuota",
       msg + "12 but 2 selected Nodes contribute 4 each", 30, StopPolicy::kHold},
      {"capacity lowered to 4", std::string("4"), false, "NonConservedQuota",
       msg + "4 but 2 selected Nodes contribute 4 each", 30, StopPolicy::kHold},
      {"capacity 0", std::string("0"), false, "NonConservedQuota", msg + "0 but 2 selected Nodes contribute 4 each",
       30, StopPolicy::kHold},
      {"capacity label removed", std::nullopt, false, "NonConservedQuota",
       msg + "0 but 2 selected Nodes contribute 4 each", 30, StopPolicy::kHold},
      {"capacity raised on a queue that already has a plan", std::string("12"), true, "NonConservedQuota",
       msg + "12 but 2 selected Nodes contribute 4 each", 30, StopPolicy::kNone},
  };
  for (const auto& r : rows) {
    INFO(r.name);
    const std::string name = fx::node_queue_name("generic");
    std::vector<ResourceGroup> last;
    if (r.queue_had_groups) last = {fx::cpu_resource_group(f, 8)};
    auto s = fx::queue_world({fx::instance_type_queue("generic", false, last)}, {fx::nodes_flavor(f, "generic", 4, 8)});
    auto& labels = s.resource_flavors.at(f).metadata.labels;
    if (r.capacity_label) labels[kGeneric + ".capacity"] = *r.capacity_label;
    else labels.erase(kGeneric + ".capacity");
    CHECK(fx::reconcile_once(s, name) == r.requeue);
    const auto* ready = fx::topology_ready(s, name);
    REQUIRE(ready);
    CHECK(ready->reason == r.reason);
    CHECK(ready->message == r.message);
    const auto& cq = s.cluster_queues.at(name);
    CHECK(cq.stop_policy() == r.policy_after);
    if (r.reason != "Ready") CHECK(cq.spec.resource_groups == last);  // the refused plan is never applied
  }

  // A managed, profiled pool Node no flavor selects is the other half of the same refusal.
  const std::string name = fx::node_queue_name("generic");
  auto s = fx::queue_world({fx::instance_type_queue("generic", false)}, {fx::nodes_flavor(f, "generic", 4, 4)});
  Node stray = s.nodes.begin()->second;
  stray.metadata.name = "stray";
  stray.metadata.labels[kGeneric + ".count"] = "8";
  stray.metadata.labels[std::string(k::kHostname)] = "stray";
  s.nodes["stray"] = stray;
  CHECK(fx::reconcile_once(s, name) == 30);
  CHECK(fx::topology_ready(s, name)->reason == "NonConservedQuota");
  CHECK(fx::topology_ready(s, name)->message ==
        "Node \"stray\" belongs to the queue pool but contributes to no ResourceFlavor");
}
