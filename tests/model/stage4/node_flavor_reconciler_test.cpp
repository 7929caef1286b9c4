#include <catch2/catch.hpp>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/stage4/node_flavor_index.h"
#include "model/stage4/node_flavor_reconciler.h"
#include "model/stage4/node_flavor_shape.h"
#include "model/stage4/reconcile_error.h"
#include "tests/model/stage4/flavor_node_fixtures.h"

using namespace chaintwin::model;
namespace k = chaintwin::model::keys;

namespace {

const std::string& kProfile = testing::kFlavorTestProfile;
const std::string kCpuFlavor = "gpustack--generic-linux-amd64-4c-" + kProfile;
const std::string kCpuCapacity = "general.feature.gpustack.ai/generic.capacity";

Node cpu_node(const std::string& name, int64_t cpu = 4) { return testing::flavor_cpu_node(name, cpu); }

Node gpu_node(const std::string& name, int64_t cards) {
  Node n = cpu_node(name, 48);
  n.metadata.labels.erase(std::string(k::kCpuOnly));
  n.metadata.labels[std::string(k::kAcceleratable)] = "true";
  const std::string p = "acceleratable.feature.gpustack.ai/nvidia-a10g";
  n.metadata.labels[p] = "true";
  n.metadata.labels[p + ".count"] = std::to_string(cards);
  n.metadata.labels[p + ".product"] = "NVIDIA-A10G";
  return n;
}

std::string gpu_flavor(int64_t cards) {
  return "gpustack--generic--nvidia-a10g-linux-amd64-" + std::to_string(cards) + "d-" + kProfile;
}

ClusterState with_nodes(std::vector<Node> nodes, Settings settings = {}) {
  ClusterState s;
  s.settings = settings;
  for (auto& n : nodes) s.nodes[n.metadata.name] = std::move(n);
  return s;
}

ClusterState applied(const ClusterState& s, const Plan& p) {
  auto next = apply_plan(s, p, "t");
  REQUIRE(next.ok());
  return *next;
}

ClusterState converge(ClusterState s) {
  for (int i = 0; i < 4; ++i) s = applied(s, reconcile_node_flavor(s));
  return s;
}

std::string note(const ResourceFlavor& rf, const std::string& key) {
  const auto it = rf.metadata.annotations.find(std::string(k::kNotePrefix) + key);
  return it == rf.metadata.annotations.end() ? "<none>" : it->second;
}

}  // namespace

TEST_CASE("two nodes with the same card count share one flavor whose capacity is the sum", "[node_flavor]") {
  const auto s = converge(with_nodes({gpu_node("a", 2), gpu_node("b", 2)}));
  const auto& rf = s.resource_flavors.at(gpu_flavor(2));
  CHECK(rf.metadata.labels.at("acceleratable.feature.gpustack.ai/nvidia-a10g.capacity") == "4");
  CHECK(rf.metadata.labels.at("acceleratable.feature.gpustack.ai/nvidia-a10g.count") == "2");
}

TEST_CASE("nodes with different card counts get one flavor each", "[node_flavor]") {
  const auto s = converge(with_nodes({gpu_node("a", 2), gpu_node("b", 4)}));
  CHECK(s.resource_flavors.at(gpu_flavor(2)).metadata.labels.at("acceleratable.feature.gpustack.ai/nvidia-a10g.capacity") == "2");
  CHECK(s.resource_flavors.at(gpu_flavor(4)).metadata.labels.at("acceleratable.feature.gpustack.ai/nvidia-a10g.capacity") == "4");
}

TEST_CASE("a flavor with no contributor is deleted", "[node_flavor]") {
  auto s = converge(with_nodes({cpu_node("a")}));
  REQUIRE(s.resource_flavors.count(kCpuFlavor) == 1);
  s.nodes.erase("a");
  s = applied(s, reconcile_node_flavor(s));
  CHECK(s.resource_flavors.count(kCpuFlavor) == 0);
}

TEST_CASE("a node leaving management takes its capacity out of the flavor", "[node_flavor]") {
  auto s = converge(with_nodes({cpu_node("a"), cpu_node("b")}));
  CHECK(s.resource_flavors.at(kCpuFlavor).metadata.labels.at(kCpuCapacity) == "8");
  s.nodes.at("b").metadata.labels[std::string(k::kManaged)] = "false";
  s = converge(s);
  CHECK(s.resource_flavors.at(kCpuFlavor).metadata.labels.at(kCpuCapacity) == "4");
}

TEST_CASE("a flavor is kept, with a 10 s requeue, while a selected node has no profile", "[node_flavor]") {
  auto s = converge(with_nodes({cpu_node("a")}));
  s.nodes.at("a").metadata.labels.erase(std::string(k::kTopologyProfile));
  const Plan p = reconcile_node_flavor_key(s, kCpuFlavor);
  CHECK(p.writes.empty());
  REQUIRE(p.requeues.size() == 1);
  CHECK(p.requeues[0].after_seconds == 10);
}

TEST_CASE("reconciling a converged state writes nothing", "[node_flavor]") {
  Settings aware;
  aware.instance_type_aware_cpu_manufacturer = true;
  for (const Settings& settings : {Settings{}, aware}) {
    const auto s = converge(with_nodes({cpu_node("a"), gpu_node("g", 2)}, settings));
    CHECK(s.resource_flavors.size() == 3);  // 4c, and 48c + 2d from the GPU node (mixing on)
    CHECK(s.instance_types.size() == 2);
    const Plan p = reconcile_node_flavor(s);
    CHECK(p.writes.empty());
    CHECK(p.requeues.empty());
  }
}

TEST_CASE("flipping awareness never rewrites a flavor: only the device flavor's cpuDetail note follows", "[node_flavor]") {
  auto s = converge(with_nodes({gpu_node("g", 2)}));
  const ResourceFlavor before = s.resource_flavors.at(gpu_flavor(2));
  CHECK(note(before, "cpuDetail") == "<none>");
  s.settings.instance_type_aware_cpu_manufacturer = true;
  s = converge(s);
  const ResourceFlavor& after = s.resource_flavors.at(gpu_flavor(2));
  CHECK(after.spec == before.spec);
  CHECK(after.metadata.labels == before.metadata.labels);
  CHECK(after.metadata.generation == before.metadata.generation);
  CHECK(note(after, "cpuDetail") == R"({"manufacturer":"generic","cache":{}})");
}

TEST_CASE("flipping mixing off retires the CPU flavor and the next pass recreates it with the cpu-only pin", "[node_flavor]") {
  auto s = converge(with_nodes({cpu_node("a")}));
  CHECK(s.resource_flavors.at(kCpuFlavor).spec.node_labels.count(std::string(k::kCpuOnly)) == 0);
  s.settings.instance_type_mixed_on_node = false;
  s = applied(s, reconcile_node_flavor(s));
  CHECK(s.resource_flavors.count(kCpuFlavor) == 0);
  s = applied(s, reconcile_node_flavor(s));
  CHECK(s.resource_flavors.at(kCpuFlavor).spec.node_labels.at(std::string(k::kCpuOnly)) == "true");
}

TEST_CASE("with mixing off an accelerated node feeds its device flavor but no CPU flavor", "[node_flavor]") {
  Settings no_mixing;
  no_mixing.instance_type_mixed_on_node = false;
  const auto s = converge(with_nodes({gpu_node("g", 1)}, no_mixing));
  CHECK(s.resource_flavors.count(gpu_flavor(1)) == 1);
  CHECK(s.resource_flavors.count("gpustack--generic-linux-amd64-48c-" + kProfile) == 0);
}

TEST_CASE("a spec drift is an error and the flavor is left as it is", "[node_flavor]") {
  auto s = converge(with_nodes({cpu_node("a")}));
  s.resource_flavors.at(kCpuFlavor).spec.topology_name = "foreign-topology";
  const Plan p = reconcile_node_flavor(s);
  CHECK(p.writes.empty());
  REQUIRE(p.requeues.size() == 1);
  CHECK(is_reconcile_error(p.requeues[0]));
  CHECK(p.requeues[0].reason.find("immutable topology drift") != std::string::npos);
}

TEST_CASE("foreign labels and annotations stay, a stale capacity and a retired note are replaced", "[node_flavor]") {
  auto s = converge(with_nodes({cpu_node("a")}));
  auto& rf = s.resource_flavors.at(kCpuFlavor);
  rf.metadata.labels["example.com/keep"] = "yes";
  rf.metadata.labels[kCpuCapacity] = "99";
  rf.metadata.annotations["example.com/keep"] = "yes";
  rf.metadata.annotations[std::string(k::kNotePrefix) + "group"] = "old";
  s = applied(s, reconcile_node_flavor(s));
  const auto& after = s.resource_flavors.at(kCpuFlavor);
  CHECK(after.metadata.labels.at("example.com/keep") == "yes");
  CHECK(after.metadata.labels.at(kCpuCapacity) == "4");
  CHECK(after.metadata.annotations.at("example.com/keep") == "yes");
  CHECK(note(after, "group") == "<none>");
}

TEST_CASE("the first contributor in node name order provides the cpuDetail note", "[node_flavor]") {
  Node a = cpu_node("a"), b = cpu_node("b");
  a.metadata.annotations["feature.gpustack.ai/cpu-physical-cores"] = "4";
  b.metadata.annotations["feature.gpustack.ai/cpu-physical-cores"] = "8";
  const auto s = converge(with_nodes({b, a}));
  CHECK(note(s.resource_flavors.at(kCpuFlavor), "cpuDetail") == R"({"physicalCores":"4","cache":{}})");
}

TEST_CASE("a profile change creates the new flavor and retires the unbacked sibling", "[node_flavor]") {
  auto s = converge(with_nodes({cpu_node("a")}));
  s.resource_flavors.at(kCpuFlavor).metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
  const std::string zone = topology_profile({"topology.kubernetes.io/zone", std::string(k::kHostname)});
  s.nodes.at("a").metadata.labels[std::string(k::kTopologyProfile)] = zone;
  s = applied(s, reconcile_node_flavor(s));
  CHECK(s.resource_flavors.count("gpustack--generic-linux-amd64-4c-" + zone) == 1);
  CHECK(s.resource_flavors.at(kCpuFlavor).metadata.deletion_timestamp.has_value());
}

TEST_CASE("a generated Topology no node and no flavor uses is retired, a foreign one is not", "[node_flavor]") {
  ClusterState s;
  Topology generated;
  generated.metadata.name = "gpustack-" + kProfile;
  generated.metadata.labels[std::string(k::kResourceType)] = "topology";
  Topology foreign = generated;
  foreign.metadata.name = "gpustack-fnv64-0000000000000000";
  foreign.metadata.labels.clear();
  s.topologies[generated.metadata.name] = generated;
  s.topologies[foreign.metadata.name] = foreign;
  s = applied(s, reconcile_node_flavor(s));
  CHECK(s.topologies.count(generated.metadata.name) == 0);
  CHECK(s.topologies.count(foreign.metadata.name) == 1);
}

TEST_CASE("the derived InstanceType is created once, never updated, and re-authored after deletion", "[node_flavor]") {
  auto s = converge(with_nodes({cpu_node("a")}));
  REQUIRE(s.instance_types.count("gpustack--generic-linux-amd64") == 1);
  auto& it = s.instance_types.at("gpustack--generic-linux-amd64");
  CHECK(it.spec.display_name == "CPU-only");
  it.spec.unit_resources = {"2", "8Gi"};  // an admin edit
  CHECK(reconcile_node_flavor(s).writes.empty());
  s.instance_types.clear();
  s = applied(s, reconcile_node_flavor(s));
  CHECK(s.instance_types.at("gpustack--generic-linux-amd64").spec.unit_resources.cpu == "1");
}

TEST_CASE("nothing is authored with instance-type-derived-from-node off", "[node_flavor]") {
  Settings off;
  off.instance_type_derived_from_node = false;
  const auto s = converge(with_nodes({cpu_node("a")}, off));
  CHECK(s.resource_flavors.size() == 1);
  CHECK(s.instance_types.empty());
}

TEST_CASE("two CPU flavors of one pool author its InstanceType once", "[node_flavor]") {
  const auto s = with_nodes({cpu_node("a", 4), cpu_node("b", 8)});
  const Plan p = reconcile_node_flavor(s);
  int creates = 0;
  for (const auto& w : p.writes) creates += object_if<InstanceType>(w.object) != nullptr ? 1 : 0;
  CHECK(creates == 1);
  CHECK(applied(s, p).resource_flavors.size() == 2);
}

TEST_CASE("the index skips unmanaged and unprofiled nodes, keeps deleting ones", "[node_flavor]") {
  Node n = cpu_node("a");
  CHECK(node_schedule_flavor_index(n) == std::vector<std::string>{kCpuFlavor});
  n.metadata.deletion_timestamp = "t";
  CHECK(node_schedule_flavor_index(n) == std::vector<std::string>{kCpuFlavor});
  Node unmanaged = cpu_node("b");
  unmanaged.metadata.labels[std::string(k::kManaged)] = "false";
  CHECK(node_schedule_flavor_index(unmanaged).empty());
  Node unprofiled = cpu_node("c");
  unprofiled.metadata.labels.erase(std::string(k::kTopologyProfile));
  CHECK(node_schedule_flavor_index(unprofiled).empty());
}

TEST_CASE("only a cpu-only pin difference on a CPU flavor counts as mixing drift", "[node_flavor]") {
  ResourceFlavor pinned, plain;
  pinned.spec.node_labels = {{"a", "1"}, {std::string(k::kCpuOnly), "true"}};
  plain.spec.node_labels = {{"a", "1"}};
  CHECK(resource_flavor_mixing_selector_drift(pinned, plain, false));
  CHECK(resource_flavor_mixing_selector_drift(plain, pinned, false));
  CHECK_FALSE(resource_flavor_mixing_selector_drift(plain, pinned, true));  // device flavors never
  CHECK_FALSE(resource_flavor_mixing_selector_drift(plain, plain, false));  // no difference
  ResourceFlavor other = pinned;
  other.spec.topology_name = "elsewhere";
  CHECK_FALSE(resource_flavor_mixing_selector_drift(other, plain, false));  // more than the pin
  ResourceFlavor odd = plain;
  odd.spec.node_labels[std::string(k::kCpuOnly)] = "false";
  CHECK_FALSE(resource_flavor_mixing_selector_drift(odd, pinned, false));  // not a pin value
}

TEST_CASE("note sync replaces the operator notes and reports whether it changed anything", "[node_flavor]") {
  ResourceFlavor rf;
  rf.metadata.annotations["example.com/keep"] = "yes";
  note_resource(rf.metadata, kResourceFlavorResType, {{"acceleratable", "true"}, {"cpuDetail", "{}"}});
  CHECK_FALSE(sync_node_flavor_notes(rf, {{"acceleratable", "true"}, {"cpuDetail", "{}"}}));
  CHECK(sync_node_flavor_notes(rf, {{"acceleratable", "true"}}));
  CHECK(resource_notes(rf.metadata) == StringMap{{"acceleratable", "true"}});
  CHECK(rf.metadata.annotations.at("example.com/keep") == "yes");
  ResourceFlavor untyped;
  CHECK(sync_node_flavor_notes(untyped, {}));  // stamps the "nodes" type even with no notes
  CHECK(untyped.metadata.labels.at(std::string(k::kResourceType)) == "nodes");
}
