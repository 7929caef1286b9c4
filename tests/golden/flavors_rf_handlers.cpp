// Golden handlers for the ResourceFlavor cases of flavors.json (node_flavor_test.go and the two
// cases computed from node_flavor.go): each builds the test's cluster as a ClusterState, runs the
// NodeFlavor reconciler for the key the test reconciles, applies the plan like the fake client
// would, and reports what the case asks about.
//
// Placeholder-style expectations (`cpuDetail` "<JSON InstanceTypeCPU ...>", `errorContains`) are
// asserted: the recorded text is echoed only when the computed value has the property (the note
// parses as exactly that Go struct's JSON; the error message contains the substring), otherwise the
// computed value itself is returned and the case fails.
#include <algorithm>
#include <set>
#include <stdexcept>

#include "model/catalog/label_keys.h"
#include "model/stage3/node_keys.h"
#include "model/api/quantity.h"
#include "model/stage4/node_flavor_index.h"
#include "model/stage4/node_flavor_reconciler.h"
#include "model/stage4/node_flavor_shape.h"
#include "model/stage4/reconcile_error.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;

namespace {

using chaintwin::golden::json;
namespace m = chaintwin::model;
namespace keys = chaintwin::model::keys;

const char* const kArea = "flavors-and-queue-resource-groups";
const char* const kNow = "2026-01-01T00:00:00Z";

std::string str(std::string_view s) { return std::string(s); }

m::StringMap string_map(const json& in) {
  m::StringMap out;
  for (const auto& [k, v] : in.items()) out[k] = v.get<std::string>();
  return out;
}

json to_json(const m::StringMap& map) {
  json out = json::object();
  for (const auto& [k, v] : map) out[k] = v;
  return out;
}

m::Quantity quantity(const std::string& text) {
  auto q = m::Quantity::parse(text);
  if (!q.ok()) throw std::runtime_error("quantity " + text + ": " + q.error());
  return *q;
}

// The settings of a case: "true" / "false", possibly followed by a comment ("true (production default)").
m::Settings settings_from(const json& in, m::Settings settings) {
  for (const auto& [name, value] : in.items()) {
    std::string text = value.is_boolean() ? (value.get<bool>() ? "true" : "false") : value.get<std::string>();
    text = text.substr(0, text.find(' '));
    const auto s = m::set_setting(settings, name, text);
    if (!s.ok()) throw std::runtime_error(s.error());
  }
  return settings;
}

// The operator's unit-test binary resolves instance-type-mixed-on-node to false.
m::Settings test_binary_settings() {
  m::Settings s;
  s.instance_type_mixed_on_node = false;
  return s;
}

std::string hostname_profile() { return m::topology_profile({str(keys::kHostname)}); }

// newManagedCPUNode: managed, linux/amd64, the hostname-only profile, its general key and count,
// the cpu-only mark.
m::Node managed_cpu_node(const std::string& name, int64_t cpu) {
  m::Node node;
  node.metadata.name = name;
  node.metadata.labels = {{str(keys::kManaged), "true"},
                          {str(keys::kOs), "linux"},
                          {str(keys::kArch), "amd64"},
                          {str(keys::kTopologyProfile), hostname_profile()}};
  node.status.capacity["cpu"] = m::Quantity::from_int(cpu);
  const std::string g_key = str(keys::kGeneralPrefix) + m::extract_general_node_key(node);
  node.metadata.labels[g_key] = "true";
  node.metadata.labels[g_key + ".count"] = std::to_string(cpu);
  node.metadata.labels[str(keys::kCpuOnly)] = "true";
  return node;
}

// newManagedAccelNode: a 48-core node with `count` NVIDIA A10G cards.
m::Node managed_accel_node(const std::string& name, int64_t count) {
  m::Node node = managed_cpu_node(name, 48);
  node.metadata.labels.erase(str(keys::kCpuOnly));
  const std::string p = str(keys::kAcceleratablePrefix) + "nvidia-a10g";
  node.metadata.labels[str(keys::kAcceleratable)] = "true";
  node.metadata.labels[p] = "true";
  node.metadata.labels[p + ".count"] = std::to_string(count);
  node.metadata.labels[p + ".product"] = "NVIDIA-A10G";
  node.metadata.labels[p + ".memory"] = "24Gi";
  node.metadata.labels[p + ".family"] = "ampere";
  node.metadata.labels[p + ".cores"] = "9216";
  return node;
}

m::Node node_from(const json& in) {
  m::Node node;
  node.metadata.name = in.at("name").get<std::string>();
  node.metadata.labels = string_map(in.value("labels", json::object()));
  const json capacity = in.value("capacity", json::object());
  for (const auto& [k, v] : capacity.items()) node.status.capacity[k] = quantity(v);
  return node;
}

// cpuFlavorName / deviceFlavorName: the node's first flavor of that kind, topology-qualified.
std::string flavor_name_of(const m::Node& node, bool acceleratable) {
  const std::string profile = node.metadata.labels.count(str(keys::kTopologyProfile))
                                  ? node.metadata.labels.at(str(keys::kTopologyProfile))
                                  : "";
  for (const auto& f : m::extract_node_flavors(node))
    if (f.acceleratable == acceleratable) return m::topology_qualified_flavor_name(f.name, profile);
  return "";
}

m::ClusterState apply(const m::ClusterState& state, const m::Plan& plan) {
  auto next = m::apply_plan(state, plan, kNow);
  if (!next.ok()) throw std::runtime_error(next.error());
  return *next;
}

m::ClusterState reconcile(const m::ClusterState& state, const std::string& flavor) {
  return apply(state, m::reconcile_node_flavor_key(state, flavor));
}

bool flavor_exists(const m::ClusterState& s, const std::string& name) { return s.resource_flavors.count(name) > 0; }

// parseResourceFlavorCapacity's label: the `.capacity` sibling of the flavor's own key.
json capacity_label(const m::ClusterState& s, const std::string& name) {
  const auto it = s.resource_flavors.find(name);
  if (it == s.resource_flavors.end()) return nullptr;
  for (const auto& [k, v] : it->second.metadata.labels) {
    const bool feature_key = k.rfind(str(keys::kGeneralPrefix), 0) == 0 || k.rfind(str(keys::kAcceleratablePrefix), 0) == 0;
    if (feature_key && k.size() > 9 && k.substr(k.size() - 9) == ".capacity") return v;
  }
  return nullptr;
}

// The Go struct a cpuDetail note must be the JSON of, by its field names.
bool is_go_struct_json(const std::string& text, bool accelerator_cpu) {
  const json parsed = json::parse(text, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("cache") || !parsed.at("cache").is_object()) return false;
  static const std::set<std::string> cpu_fields = {"physicalCores", "threadsPerPhysicalCore", "logicalCores", "stepping",
                                                   "clockSpeed",    "maxClockSpeed",          "cacheLine",    "cache"};
  for (const auto& [k, v] : parsed.items()) {
    const bool own = accelerator_cpu && (k == "manufacturer" || k == "product" || k == "family");
    if (!own && !cpu_fields.count(k)) return false;
  }
  if (accelerator_cpu && !parsed.contains("manufacturer")) return false;  // always "generic" at least
  for (const auto& [k, v] : parsed.at("cache").items())
    if (k != "l1i" && k != "l1d" && k != "l2" && k != "l3") return false;
  return true;
}

// Inputs that describe the test's fixed fixture must say what it builds (else the case fails).
void expect_fixture(const json& in, const char* key, const json& fixture) {
  if (in.contains(key) && in.at(key) != fixture)
    throw std::runtime_error(std::string("this fixture builds ") + key + " = " + fixture.dump() + ", the case asks " +
                             in.at(key).dump());
}

json flavor_shape(const json& in, const json& want) {
  m::ClusterState state;
  state.settings = settings_from(in.value("settings", json::object()), m::Settings{});
  for (const auto& n : in.at("nodes")) {
    const m::Node node = node_from(n);
    state.nodes[node.metadata.name] = node;
  }
  const m::Node& node = state.nodes.begin()->second;
  const bool accelerated = m::node_is_accelerated(node);
  const std::string name = flavor_name_of(node, accelerated);  // the test reconciles this name
  state = reconcile(state, name);
  const auto it = state.resource_flavors.find(name);
  if (it == state.resource_flavors.end()) return {{"resourceFlavor", nullptr}};
  const m::ResourceFlavor& rf = it->second;

  json notes = to_json(m::resource_notes(rf.metadata));
  if (notes.contains("cpuDetail")) {
    const std::string recorded = want.at("resourceFlavor").at("metadata").at("annotations(note.gpustack.ai/*)")
                                     .value("cpuDetail", "");
    if (is_go_struct_json(notes.at("cpuDetail"), accelerated) && !recorded.empty()) notes["cpuDetail"] = recorded;
  }
  json tolerations = json::array();
  for (const auto& t : rf.spec.tolerations) {
    json tj = json::object();
    if (!t.key.empty()) tj["key"] = t.key;
    if (!t.operator_.empty()) tj["operator"] = t.operator_;
    if (!t.value.empty()) tj["value"] = t.value;
    if (!t.effect.empty()) tj["effect"] = t.effect;
    tolerations.push_back(tj);
  }
  return {{"resourceFlavor",
           {{"metadata",
             {{"name", rf.metadata.name},
              {"labels", to_json(rf.metadata.labels)},
              {"annotations(note.gpustack.ai/*)", notes}}},
            {"spec",
             {{"nodeLabels", to_json(rf.spec.node_labels)},
              {"tolerations", tolerations},
              {"topologyName", rf.spec.topology_name}}}}}};
}

// Every flavor the nodes make, each reconciled (in name order) until nothing changes: per
// ResourceFlavor its `.capacity` labels, topology name and whether it is terminating.
json every_flavor(const json& in, const json&) {
  m::ClusterState state;
  state.settings = settings_from(in.value("settings", json::object()), m::Settings{});
  std::set<std::string> names;
  for (const auto& n : in.at("nodes")) {
    const m::Node node = node_from(n);
    state.nodes[node.metadata.name] = node;
    const std::string profile = node.metadata.labels.count(str(keys::kTopologyProfile))
                                    ? node.metadata.labels.at(str(keys::kTopologyProfile))
                                    : "";
    for (const auto& f : m::extract_node_flavors(node)) names.insert(m::topology_qualified_flavor_name(f.name, profile));
  }
  for (int pass = 0; pass < 3; ++pass)
    for (const auto& name : names) state = reconcile(state, name);
  json out = json::object();
  for (const auto& [name, rf] : state.resource_flavors) {
    json entry = json::object();
    for (const auto& [k, v] : rf.metadata.labels) {
      const bool feature_key = k.rfind(str(keys::kGeneralPrefix), 0) == 0 || k.rfind(str(keys::kAcceleratablePrefix), 0) == 0;
      if (feature_key && k.size() > 9 && k.substr(k.size() - 9) == ".capacity") entry[k] = v;
    }
    entry["topologyName"] = rf.spec.topology_name;
    entry["terminating"] = rf.metadata.deletion_timestamp.has_value();
    out[name] = entry;
  }
  return {{"resourceFlavors", out}};
}

// The flavor of one managed 4-core cpu-only Node written with mixing on (no cpu-only pin), then the
// mixing setting of the case (and, when the setup says so, a foreign spec.topologyName on the stored
// flavor). Two passes: the writes of each, the recreated flavor's nodeLabels (the keys the case
// asks), or the refusal and whether the stored flavor stayed as it was.
json mixing_drift(const json& in, const json& want) {
  const std::string setup = in.at("setup");
  m::ClusterState state;
  state.settings = test_binary_settings();
  state.settings.instance_type_mixed_on_node = true;
  const m::Node node = managed_cpu_node("node-a", 4);
  state.nodes["node-a"] = node;
  const std::string name = flavor_name_of(node, false);
  state = reconcile(state, name);
  if (!flavor_exists(state, name)) throw std::runtime_error("the mixing-on flavor " + name + " was never created");
  state.settings = settings_from(json{{"instance-type-mixed-on-node", in.at("instance-type-mixed-on-node")}}, state.settings);
  const std::string foreign = "foreign-topology";
  if (setup.find(foreign) != std::string::npos) state.resource_flavors.at(name).spec.topology_name = foreign;
  const m::ResourceFlavor stored = state.resource_flavors.at(name);

  json got = json::object();
  std::string error;
  for (const char* pass : {"firstPassWrites", "secondPassWrites"}) {
    const m::Plan plan = m::reconcile_node_flavor_key(state, name);
    json writes = json::array();
    for (const auto& w : plan.writes)
      writes.push_back(std::string(m::to_string(w.verb)) + " " + std::string(m::kind_of(w.object)) + " " +
                       m::metadata_of(w.object).name);
    for (const auto& r : plan.requeues)
      if (m::is_reconcile_error(r)) error = r.reason.substr(m::kReconcileErrorPrefix.size());
    got[pass] = writes;
    state = apply(state, plan);
  }
  json labels = json::object();
  const json asked_labels = want.value("nodeLabelsAfter", json::object());
  if (flavor_exists(state, name))
    for (const auto& [key, _] : asked_labels.items()) {
      const auto& nl = state.resource_flavors.at(name).spec.node_labels;
      labels[key] = nl.count(key) ? json(nl.at(key)) : json(nullptr);
    }
  got["nodeLabelsAfter"] = labels;
  const std::string asked = want.value("errorContains", "");
  got["errorContains"] = !asked.empty() && error.find(asked) != std::string::npos ? asked : error;
  got["flavorUnchanged"] = flavor_exists(state, name) && state.resource_flavors.at(name) == stored;
  return got;
}

GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile").alias("resourceFlavorMixingSelectorDrift")
                   .setup("a cpu-only flavor written with mixing on, then the mixing setting")
                   .in({"setup", "instance-type-mixed-on-node"})
                   .out({"firstPassWrites", "secondPassWrites", "nodeLabelsAfter", "errorContains", "flavorUnchanged"}),
               mixing_drift);

GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile")
                   .setup("every flavor of the nodes").in({"nodes"}).opt({"settings"}).out({"resourceFlavors"}),
               every_flavor);
GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile").alias("cpuDetailNote")
                   .setup("the ResourceFlavor of the first node").in({"nodes"}).opt({"settings"}).out({"resourceFlavor"}),
               flavor_shape);

GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile").setup("CPU nodes of 4 cores, flavor preexisting or not").in({"flavorName", "flavorPreexists", "contributingCpuNodes(4 cores each)"}).out({"flavorExists", "capacityLabel"}), [](const json& in, const json&) -> json {
  m::ClusterState state;
  state.settings = test_binary_settings();
  const std::string name = in.at("flavorName");
  if (in.value("flavorPreexists", false)) {  // newNodesFlavor(name, "generic", 4, 4)
    m::ResourceFlavor rf;
    rf.metadata.name = name;
    m::note_resource(rf.metadata, m::kResourceFlavorResType, {});
    state.resource_flavors[name] = rf;
  }
  const int64_t nodes = in.at("contributingCpuNodes(4 cores each)");
  for (int64_t i = 0; i < nodes; ++i) {
    const m::Node node = managed_cpu_node("node-" + std::to_string(i), 4);
    state.nodes[node.metadata.name] = node;
  }
  state = reconcile(state, name);
  return {{"flavorExists", flavor_exists(state, name)}, {"capacityLabel", capacity_label(state, name)}};
});

GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile").setup("a queue references the flavor").in({"flavorFinalizers", "contributingNodes"}).out({"flavorExists", "deletionTimestampSet"}), [](const json& in, const json&) -> json {
  m::ClusterState state;
  state.settings = test_binary_settings();
  const std::string name = flavor_name_of(managed_cpu_node("probe", 4), false);
  m::ResourceFlavor rf;
  rf.metadata.name = name;
  m::note_resource(rf.metadata, m::kResourceFlavorResType, {});
  rf.metadata.finalizers = in.at("flavorFinalizers").get<std::vector<std::string>>();
  state.resource_flavors[name] = rf;
  m::ClusterQueue queue;
  queue.metadata.name = "queue";
  queue.spec.resource_groups = {m::ResourceGroup{{}, {m::FlavorQuotas{name, {}}}}};
  state.cluster_queues["queue"] = queue;
  for (int64_t i = 0; i < in.at("contributingNodes").get<int64_t>(); ++i) {
    const m::Node node = managed_cpu_node("node-" + std::to_string(i), 4);
    state.nodes[node.metadata.name] = node;
  }
  state = reconcile(state, name);
  const auto it = state.resource_flavors.find(name);
  return {{"flavorExists", it != state.resource_flavors.end()},
          {"deletionTimestampSet", it != state.resource_flavors.end() && it->second.metadata.deletion_timestamp.has_value()}};
});

GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile").setup("a node moves to another topology profile").in({"oldProfile", "newProfile"}).out({"newFlavorExists", "oldFlavorTerminating", "clusterQueueSpecUnchanged"}),
               [](const json& in, const json&) -> json {
  m::ClusterState state;
  state.settings = test_binary_settings();
  m::Node node = managed_cpu_node("node-a", 4);
  node.metadata.labels[str(keys::kTopologyProfile)] = in.at("oldProfile");
  state.nodes["node-a"] = node;
  const std::string old_name = flavor_name_of(node, false);
  state = reconcile(state, old_name);
  if (!flavor_exists(state, old_name)) return {{"newFlavorExists", false}, {"oldFlavorTerminating", false}};
  state.resource_flavors.at(old_name).metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
  m::ClusterQueue queue;
  queue.metadata.name = "queue";
  queue.spec.resource_groups = {m::ResourceGroup{{}, {m::FlavorQuotas{old_name, {}}}}};
  state.cluster_queues["queue"] = queue;
  const m::ClusterQueueSpec queue_before = queue.spec;

  state.nodes.at("node-a").metadata.labels[str(keys::kTopologyProfile)] = in.at("newProfile");
  const std::string new_name = flavor_name_of(state.nodes.at("node-a"), false);
  state = reconcile(state, new_name);
  const auto old_it = state.resource_flavors.find(old_name);
  return {{"newFlavorExists", flavor_exists(state, new_name)},
          {"oldFlavorTerminating",
           old_it != state.resource_flavors.end() && old_it->second.metadata.deletion_timestamp.has_value()},
          {"clusterQueueSpecUnchanged", state.cluster_queues.at("queue").spec == queue_before}};
});

GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile").alias("retireUnusedTopologyForFlavor").setup("a generated Topology and who uses it").in({"topology", "managedTopology(resType=topology)", "nodeWithProfile", "otherFlavorReferencesTopology", "reconciledFlavor"}).out({"topologyDeleted"}), [](const json& in, const json&) -> json {
  m::ClusterState state;
  state.settings = test_binary_settings();
  const std::string topology = in.at("topology");
  const std::string profile = topology.substr(m::kTopologyNamePrefix.size());
  m::Topology t;
  t.metadata.name = topology;
  if (in.at("managedTopology(resType=topology)").get<bool>())
    m::note_resource(t.metadata, "topology", {});
  state.topologies[topology] = t;
  if (in.at("nodeWithProfile").get<bool>()) {
    m::Node node;
    node.metadata.name = "node-a";
    node.metadata.labels[str(keys::kTopologyProfile)] = profile;
    state.nodes["node-a"] = node;
  }
  if (in.at("otherFlavorReferencesTopology").get<bool>()) {
    m::ResourceFlavor rf;
    rf.metadata.name = "another-flavor";
    rf.spec.topology_name = topology;
    state.resource_flavors["another-flavor"] = rf;
  }
  state = reconcile(state, in.at("reconciledFlavor"));
  return {{"topologyDeleted", state.topologies.count(topology) == 0}};
});

GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile").setup("a flavor whose immutable spec drifted").in({"existingFlavorTopologyName"}).out({"errorContains", "flavorUnchanged"}), [](const json& in, const json& want) -> json {
  m::ClusterState state;
  state.settings = test_binary_settings();
  const m::Node node = managed_cpu_node("node-a", 4);
  state.nodes["node-a"] = node;
  const std::string name = flavor_name_of(node, false);
  state = reconcile(state, name);
  if (!flavor_exists(state, name)) return {{"errorContains", "flavor " + name + " was never created"}};
  state.resource_flavors.at(name).spec.topology_name = in.at("existingFlavorTopologyName");
  const m::ResourceFlavor drifted = state.resource_flavors.at(name);

  const m::Plan plan = m::reconcile_node_flavor_key(state, name);
  std::string error;
  for (const auto& r : plan.requeues)
    if (m::is_reconcile_error(r)) error = r.reason.substr(m::kReconcileErrorPrefix.size());
  const std::string asked = want.value("errorContains", "");
  state = apply(state, plan);
  return {{"errorContains", !asked.empty() && error.find(asked) != std::string::npos ? asked : error},
          {"flavorUnchanged", flavor_exists(state, name) && state.resource_flavors.at(name) == drifted}};
});

GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile").alias("matchNodeFlavor").setup("an accelerated node, mixing setting").in({"instance-type-mixed-on-node"}).opt({"node"}).out({"cpuFlavorExists", "deviceFlavorExists"}), [](const json& in, const json&) -> json {
  m::ClusterState state;
  state.settings = settings_from(json{{"instance-type-mixed-on-node", in.at("instance-type-mixed-on-node")}},
                                 test_binary_settings());
  expect_fixture(in, "node", "accelerated (feature.gpustack.ai/acceleratable=true)");
  const m::Node node = managed_accel_node("node-g", 1);
  state.nodes["node-g"] = node;
  const std::string cpu_name = flavor_name_of(node, false);
  const std::string device_name = flavor_name_of(node, true);
  state = reconcile(state, cpu_name);
  const bool cpu_exists = flavor_exists(state, cpu_name);
  state = reconcile(state, device_name);
  return {{"cpuFlavorExists", cpu_exists}, {"deviceFlavorExists", flavor_exists(state, device_name)}};
});

GOLDEN_HANDLER(Spec(kArea, "NodeFlavorReconciler").alias("NodeFlavorReconciler.Reconcile").setup("a node label removed between reconciles").in({"nodeLabelRemoved"}).out({"flavorExists"}), [](const json& in, const json&) -> json {
  m::ClusterState state;
  state.settings = test_binary_settings();
  const m::Node node = managed_cpu_node("node-a", 4);
  state.nodes["node-a"] = node;
  const std::string name = flavor_name_of(node, false);
  state = reconcile(state, name);
  state.nodes.at("node-a").metadata.labels.erase(in.at("nodeLabelRemoved").get<std::string>());
  state = reconcile(state, name);
  return {{"flavorExists", flavor_exists(state, name)}};
});

GOLDEN_HANDLER(Spec(kArea, "indexNodeByScheduleFlavor").in({"mutation"}).opt({"node"}).out({"indexed", "indexValue"}), [](const json& in, const json&) -> json {
  expect_fixture(in, "node", "managed CPU node, 4 cores, hostname profile");
  m::Node node = managed_cpu_node("node-0", 4);
  const std::string want = flavor_name_of(node, false);
  const std::string mutation = in.at("mutation");
  if (mutation == "none") {
  } else if (mutation == "spec.unschedulable: true") {
    node.unschedulable = true;
  } else if (mutation.rfind("taint ", 0) == 0) {
    // The model's Node has no taints: the index never reads them, which is what the case checks.
  } else if (mutation == "deletionTimestamp set") {
    node.metadata.deletion_timestamp = kNow;
    node.metadata.finalizers = {"gpustack.ai/test"};
  } else if (const size_t eq = mutation.find('='); eq != std::string::npos) {
    node.metadata.labels[mutation.substr(0, eq)] = mutation.substr(eq + 1);
  } else {
    throw std::runtime_error("unknown mutation: " + mutation);
  }
  const auto index = m::node_schedule_flavor_index(node);
  return {{"indexed", std::find(index.begin(), index.end(), want) != index.end()}, {"indexValue", want}};
});

GOLDEN_HANDLER(Spec(kArea, "syncNodeFlavorNotes").in({"foreignAnnotation", "haveNotes", "wantNotes"}).out({"changed", "notesAfter", "foreignAnnotationKept"}), [](const json& in, const json&) -> json {
  m::ResourceFlavor rf;
  rf.metadata.name = "gpustack--amd-epyc-7r32--nvidia-a10g-linux-amd64-1d";
  const m::StringMap foreign = string_map(in.at("foreignAnnotation"));
  rf.metadata.annotations = foreign;
  m::note_resource(rf.metadata, m::kResourceFlavorResType, string_map(in.at("haveNotes")));
  const bool changed = m::sync_node_flavor_notes(rf, string_map(in.at("wantNotes")));
  bool kept = true;
  for (const auto& [k, v] : foreign) {
    const auto it = rf.metadata.annotations.find(k);
    kept = kept && it != rf.metadata.annotations.end() && it->second == v;
  }
  return {{"changed", changed},
          {"notesAfter", to_json(m::resource_notes(rf.metadata))},
          {"foreignAnnotationKept", kept}};
});

// resourceFlavorMixingSelectorDrift(actual, wanted, acceleratable): two ResourceFlavor specs
// (spec.nodeLabels, optional spec.topologyName) and whether the flavor is a device flavor.
m::ResourceFlavor flavor_spec_from(const json& in) {
  for (const auto& [k, v] : in.items())
    if (k != "nodeLabels" && k != "topologyName") throw std::runtime_error("unknown flavor spec field " + k);
  m::ResourceFlavor rf;
  rf.spec.node_labels = string_map(in.at("nodeLabels"));
  rf.spec.topology_name = in.value("topologyName", "");
  rf.spec.tolerations = {m::Toleration{"", "Exists", "", ""}};
  return rf;
}

GOLDEN_HANDLER(Spec(kArea, "resourceFlavorMixingSelectorDrift").in({"actual", "wanted", "acceleratable"}).out({"drift"}),
               [](const json& in, const json&) -> json {
  return {{"drift", m::resource_flavor_mixing_selector_drift(flavor_spec_from(in.at("actual")),
                                                             flavor_spec_from(in.at("wanted")),
                                                             in.at("acceleratable").get<bool>())}};
});

// retireUnusedTopologyProfileSiblings(wanted, mixingAllowed) over the given Nodes and
// ResourceFlavors (each {name, labels, terminating?}): the names of the flavors it deletes.
GOLDEN_HANDLER(Spec(kArea, "retireUnusedTopologyProfileSiblings").in({"nodes", "resourceFlavors", "wanted"})
                   .opt({"instance-type-mixed-on-node"}).out({"deleted"}),
               [](const json& in, const json&) -> json {
  m::ClusterState state;
  for (const auto& n : in.at("nodes")) {
    const m::Node node = node_from(n);
    state.nodes[node.metadata.name] = node;
  }
  for (const auto& f : in.at("resourceFlavors")) {
    m::ResourceFlavor rf;
    rf.metadata.name = f.at("name").get<std::string>();
    rf.metadata.labels = string_map(f.value("labels", json::object()));
    if (f.value("terminating", false)) {
      rf.metadata.deletion_timestamp = kNow;
      rf.metadata.finalizers = {"kueue.x-k8s.io/resource-in-use"};
    }
    state.resource_flavors[rf.metadata.name] = rf;
  }
  m::ResourceFlavor wanted;
  wanted.metadata.name = in.at("wanted").at("name").get<std::string>();
  wanted.metadata.labels = string_map(in.at("wanted").value("labels", json::object()));
  const bool mixing = in.value("instance-type-mixed-on-node", true);
  json deleted = json::array();
  for (const auto& w : m::retire_unused_topology_profile_siblings(state, wanted, mixing).writes) {
    if (w.verb != m::WriteVerb::kDelete || m::kind_of(w.object) != "ResourceFlavor")
      throw std::runtime_error("unexpected write " + std::string(m::to_string(w.verb)) + " " +
                               std::string(m::kind_of(w.object)));
    deleted.push_back(m::metadata_of(w.object).name);
  }
  return {{"deleted", deleted}};
});

// matchNodeFlavor(node, flavorName): the node's flavor of that topology-qualified name, or null.
GOLDEN_HANDLER(Spec(kArea, "matchNodeFlavor").in({"node", "flavorName"}).out({"matched"}),
               [](const json& in, const json&) -> json {
  const auto f = m::match_node_flavor(node_from(in.at("node")), in.at("flavorName").get<std::string>());
  if (!f) return {{"matched", nullptr}};
  json nl = to_json(f->node_labels);
  return {{"matched",
           {{"name", f->name},
            {"acceleratable", f->acceleratable},
            {"generalKey", f->general_key},
            {"acceleratorKey", f->accelerator_key},
            {"count", f->count},
            {"nodeLabels", nl}}}};
});

}  // namespace
