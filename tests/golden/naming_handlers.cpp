// Golden handlers for naming.json: keys, labels and names (pkg/nodefeature/helper.go,
// knowns.go, pkg/device/helper.go, node_flavor.go, node_topology.go). Each handler turns the
// recorded input into model objects, calls the model and shapes the result like `expected`.
#include <map>
#include <regex>
#include <stdexcept>
#include <utility>
#include <variant>

#include "model/fnv.h"
#include "model/stage3/node_keys.h"
#include "model/normalize_name.h"
#include "model/stage3/pool_identity.h"
#include "model/api/quantity.h"
#include "model/stage3/resource_classify.h"
#include "model/catalog/resource_names.h"
#include "model/stage4/instance_type_flavor.h"
#include "model/stage4/node_queue_entrance_reconciler.h"
#include "model/stage4/node_topology_reconciler.h"
#include "model/api/topology_source_codec.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;

namespace {

using chaintwin::golden::json;
namespace m = chaintwin::model;

m::StringMap string_map(const json& in, const char* key) {
  m::StringMap out;
  if (!in.contains(key) || in.at(key).is_null()) return out;
  for (const auto& [k, v] : in.at(key).items()) out[k] = v.get<std::string>();
  return out;
}

m::Node node_from(const json& in) {
  m::Node node;
  node.metadata.labels = string_map(in, "labels");
  node.metadata.annotations = string_map(in, "annotations");
  if (in.contains("capacity")) {
    for (const auto& [k, v] : in.at("capacity").items()) {
      auto q = m::Quantity::parse(v.get<std::string>());
      if (!q.ok()) throw std::runtime_error("capacity " + k + ": " + q.error());
      node.status.capacity[k] = *q;
    }
  }
  if (in.contains("cpuCapacity")) node.status.capacity["cpu"] = m::Quantity::from_int(in.at("cpuCapacity").get<int64_t>());
  return node;
}

json to_json(const m::StringMap& map) {
  json out = json::object();
  for (const auto& [k, v] : map) out[k] = v;
  return out;
}

json flavor_json(const m::NodeFlavor& f) {
  json out = {{"Name", f.name},
              {"GeneralKey", f.general_key},
              {"AcceleratorKey", f.accelerator_key},
              {"OS", f.os},
              {"Arch", f.arch},
              {"Count", f.count},
              {"Acceleratable", f.acceleratable},
              {"Manufacturer", f.manufacturer},
              {"Product", f.product},
              {"Family", f.family},
              {"NodeLabels", to_json(f.node_labels)}};
  if (f.acceleratable) {  // Memory and Cores describe a card; the recording leaves them off CPU flavors
    out["Memory"] = f.memory;
    out["Cores"] = f.cores;
  }
  return out;
}

m::NodeFlavor pool_flavor(const json& in) {
  m::NodeFlavor f;
  f.acceleratable = in.at("acceleratable").get<bool>();
  f.general_key = in.at("flavorGeneralKey").get<std::string>();
  f.accelerator_key = in.at("flavorAcceleratorKey").get<std::string>();
  f.os = in.at("os").get<std::string>();
  f.arch = in.at("arch").get<std::string>();
  return f;
}

json topology_profile_case(const json& in, const json&) {
  const auto profile = m::topology_profile(in.at("levels").get<std::vector<std::string>>());
  return {{"profile", profile}, {"topologyName", m::topology_name(profile)}};
}

}  // namespace

GOLDEN_HANDLER(Spec("naming", "stringx.SumByFNV64a").alias("SumByFNV64a").in({"s"}).out({"hex"}).prose({"note"}), [](const json& in, const json&) -> json {
  return {{"hex", m::sum_by_fnv64a(in.at("s").get<std::string>())}};
});

// `regex` is asserted by matching the computed name against the recorded pattern; the pattern is
// echoed only when it matches.
GOLDEN_HANDLER(Spec("naming", "FormatLocalQueueName").in({"clusterQueueName"}).out({"localQueueName", "length", "regex"}), [](const json& in, const json& want) -> json {
  const std::string name = m::format_local_queue_name(in.at("clusterQueueName").get<std::string>());
  json got = {{"localQueueName", name}, {"length", name.size()}};
  if (want.contains("regex")) {
    const std::string pattern = want.at("regex").get<std::string>();
    got["regex"] = std::regex_match(name, std::regex(pattern)) ? pattern : "'" + name + "' does not match " + pattern;
  }
  return got;
});

GOLDEN_HANDLER(Spec("naming", "topologyProfile").alias("topologyName").in({"levels"}).out({"profile", "topologyName"}),
               topology_profile_case);

// The budget case records bounds: the key's leading "<manufacturer>-" and the length of
// gKey + ".capacity" (the long name fills the budget exactly, so that length is the bound).
GOLDEN_HANDLER(Spec("naming", "ExtractGeneralNodeKey").in({"labels"}).opt({"annotations", "capacity", "cpuCapacity"}).out({"gKey", "startsWith", "maxLen(gKey + '.capacity')"}), [](const json& in, const json&) -> json {
  const std::string g_key = m::extract_general_node_key(node_from(in));
  const size_t dash = g_key.find('-');
  return {{"gKey", g_key},
          {"startsWith", dash == std::string::npos ? g_key : g_key.substr(0, dash + 1)},
          {"maxLen(gKey + '.capacity')", (g_key + std::string(m::kCapacitySuffix)).size()}};
});

GOLDEN_HANDLER(Spec("naming", "ExtractAcceleratableNodeKeys").in({"labels"}).opt({"annotations"}).out({"aKeys"}), [](const json& in, const json&) -> json {
  const auto keys = m::extract_acceleratable_node_keys(node_from(in));
  return {{"aKeys", keys.empty() ? json(nullptr) : json(keys)}};
});

GOLDEN_HANDLER(Spec("naming", "ConstructAcceleratableNodeLabels").in({"groups"}).opt({"note"}).out({"labels"}), [](const json& in, const json&) -> json {
  std::vector<m::DevicesGroup> groups;
  for (const auto& g : in.at("groups")) {
    m::DevicesGroup group;
    group.id = g.at("id").get<std::string>();
    group.manufacturer = g.at("manufacturer").get<std::string>();
    group.name = g.at("name").get<std::string>();
    group.memory = g.value("memoryMiB", uint64_t{0});
    group.cores = g.value("cores", uint32_t{0});
    group.driver_version = g.value("driverVersion", "");
    group.runtime_version = g.value("runtimeVersion", "");
    group.compute_capability = g.value("computeCapability", "");
    group.family = g.value("family", "");
    const auto n = g.value("accelerators", 0);
    for (int i = 0; i < n; ++i) {
      m::Accelerator a;
      a.id = "GPU-" + std::to_string(i);
      a.index = static_cast<uint32_t>(i);
      group.accelerators.push_back(a);
    }
    groups.push_back(group);
  }
  return {{"labels", to_json(m::construct_acceleratable_node_labels(groups))}};
});

GOLDEN_HANDLER(Spec("naming", "ConstructGroupID").in({"manufacturer", "product"}).out({"groupID", "aKey"}), [](const json& in, const json&) -> json {
  const std::string manufacturer = in.at("manufacturer").get<std::string>();
  const std::string id = m::construct_group_id(manufacturer, in.at("product").get<std::string>());
  return {{"groupID", id}, {"aKey", m::accelerator_key(manufacturer, id)}};
});

// `neverEmitsSuffixes` lists suffixes no emitted key may end with; the handler returns those of
// them that indeed end no key.
GOLDEN_HANDLER(Spec("naming", "ConstructNodeCapacityLabels").in({"labels"}).opt({"annotations", "capacity", "cpuCapacity", "nodeManagementManual"}).out({"labels", "neverEmitsSuffixes", "gpustack.ai/managed"}), [](const json& in, const json& want) -> json {
  const auto labels = m::construct_node_capacity_labels(node_from(in), in.value("nodeManagementManual", false));
  json got = {{"labels", to_json(labels)}};
  if (want.contains("neverEmitsSuffixes")) {
    json absent = json::array();
    for (const auto& s : want.at("neverEmitsSuffixes")) {
      const std::string suffix = s.get<std::string>();
      bool emitted = false;
      for (const auto& [k, v] : labels)
        emitted = emitted || (k.size() >= suffix.size() && k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0);
      if (!emitted) absent.push_back(suffix);
    }
    got["neverEmitsSuffixes"] = absent;
  }
  const auto managed = labels.find("gpustack.ai/managed");
  got["gpustack.ai/managed"] = managed == labels.end() ? json(nullptr) : json(managed->second);
  return got;
});

GOLDEN_HANDLER(Spec("naming", "ExtractNodeFlavors").in({"labels"}).opt({"annotations", "capacity", "cpuCapacity"}).out({"flavors"}), [](const json& in, const json&) -> json {
  json flavors = json::array();
  for (const auto& f : m::extract_node_flavors(node_from(in))) flavors.push_back(flavor_json(f));
  return {{"flavors", flavors}};
});

GOLDEN_HANDLER(Spec("naming", "topologyQualifiedFlavorName").alias("topologyUnqualifiedFlavorName").alias("parseResourceFlavorCount").in({"flavorName", "profile"}).out({"resourceFlavorName", "topologyUnqualifiedFlavorName", "parseNodeFlavorCount"}), [](const json& in, const json&) -> json {
  const std::string profile = in.at("profile").get<std::string>();
  const std::string qualified = m::topology_qualified_flavor_name(in.at("flavorName").get<std::string>(), profile);
  return {{"resourceFlavorName", qualified},
          {"topologyUnqualifiedFlavorName", m::topology_unqualified_flavor_name(qualified, profile)},
          {"parseNodeFlavorCount", m::parse_node_flavor_count(qualified)}};
});

GOLDEN_HANDLER(Spec("naming", "NodeFlavor.DerivedInstanceTypeIdentity").alias("DerivedInstanceTypeIdentity").alias("PoolScheduleLabels").alias("instanceTypeFlavorName").in({"acceleratable", "flavorGeneralKey", "flavorAcceleratorKey", "os", "arch", "instanceTypeAwareCPUManufacturer"}).out({"clusterQueueAndInstanceTypeName", "spec.generalGroup", "spec.acceleratorGroup", "clusterQueueScheduleLabels", "instanceTypeFlavorName", "localQueueName"}), [](const json& in, const json&) -> json {
  const m::NodeFlavor flavor = pool_flavor(in);
  const bool aware = in.at("instanceTypeAwareCPUManufacturer").get<bool>();
  const auto id = m::derived_instance_type_identity(flavor, aware);
  return {{"clusterQueueAndInstanceTypeName", id.name},
          {"spec.generalGroup", id.general_group},
          {"spec.acceleratorGroup", id.accelerator_group},
          {"clusterQueueScheduleLabels", to_json(m::pool_schedule_labels(flavor.acceleratable, aware, id.general_group,
                                                                        id.accelerator_group, flavor.os, flavor.arch))},
          {"instanceTypeFlavorName", m::instance_type_flavor_name(flavor, aware)},
          {"localQueueName", m::format_local_queue_name(id.name)}};
});

GOLDEN_HANDLER(Spec("naming", "formatNodeFlavorName")
                   .in({"generalKey", "acceleratorKey", "os", "arch", "count", "acceleratable"}).out({"flavorName"}),
               [](const json& in, const json&) -> json {
                 return {{"flavorName", m::format_node_flavor_name(in.at("generalKey").get<std::string>(),
                                                                   in.at("acceleratorKey").get<std::string>(),
                                                                   in.at("os").get<std::string>(), in.at("arch").get<std::string>(),
                                                                   in.at("count").get<int64_t>(), in.at("acceleratable").get<bool>())}};
               });

GOLDEN_HANDLER(Spec("naming", "GetAcceleratableCreditsResourceName").in({"manufacturer"}).out({"resourceName"}),
               [](const json& in, const json&) -> json {
                 return {{"resourceName", m::credits_resource_name(in.at("manufacturer").get<std::string>())}};
               });

GOLDEN_HANDLER(Spec("naming", "NormalizeName").in({"name", "prefix"}).opt({"maxLength", "stripCpuCruft"}).out({"normalized"}),
               [](const json& in, const json&) -> json {
                 return {{"normalized", m::normalize_name(in.at("name").get<std::string>(), in.at("prefix").get<std::string>(),
                                                          in.value("maxLength", 0), in.value("stripCpuCruft", false))}};
               });

GOLDEN_HANDLER(Spec("naming", "extractGeneralNodeKeyManufacturer").in({"labels"}).opt({"annotations"}).out({"manufacturer"}),
               [](const json& in, const json&) -> json { return {{"manufacturer", m::general_node_manufacturer(node_from(in))}}; });

GOLDEN_HANDLER(Spec("naming", "normalizeTopologyLevels").in({"levels"}).out({"normalizedLevels"}),
               [](const json& in, const json&) -> json {
                 return {{"normalizedLevels", m::normalize_topology_levels(in.at("levels").get<std::vector<std::string>>())}};
               });

// resolveNodeTopologyLevels: a node's ordered topology levels (hostname last) from the
// TopologySources. Each source is {name, ready, nodeSelector (a metav1.LabelSelector), levels};
// `ready` sets its Ready condition True or False. The profile is topologyProfile of the levels.
GOLDEN_HANDLER(Spec("naming", "resolveNodeTopologyLevels").in({"labels", "sources"}).out({"levels", "profile"}),
               [](const json& in, const json&) -> json {
                 m::Node node;
                 node.metadata.labels = string_map(in, "labels");
                 std::map<std::string, m::TopologySource> sources;
                 for (const auto& s : in.at("sources")) {
                   m::TopologySource source;
                   source.metadata.name = s.at("name").get<std::string>();
                   auto selector = m::decode_label_selector(s.value("nodeSelector", json::object()));
                   if (!selector.ok()) throw std::runtime_error("source " + source.metadata.name + ": " + selector.error());
                   source.node_selector = *selector;
                   source.levels = s.at("levels").get<std::vector<std::string>>();
                   source.arm = "nodeLabels";
                   source.conditions.push_back({"Ready", s.at("ready").get<bool>() ? "True" : "False", "", "", 0});
                   if (!sources.emplace(source.metadata.name, source).second)
                     throw std::runtime_error("source " + source.metadata.name + " is listed twice");
                 }
                 const auto levels = m::resolve_node_topology_levels(node, sources);
                 if (!levels.ok()) throw std::runtime_error(levels.error());
                 return {{"levels", *levels}, {"profile", m::topology_profile(*levels)}};
               });

// The cluster both NodeQueueEntranceReconciler handlers start from: the ClusterQueues
// ({name, labels}) and the Namespaces (names) of the case.
static m::ClusterState entrance_cluster_of(const json& in) {
  m::ClusterState state;
  for (const auto& c : in.at("clusterQueues")) {
    m::ClusterQueue cq;
    cq.metadata.name = c.at("name").get<std::string>();
    cq.metadata.uid = "uid-" + cq.metadata.name;
    cq.metadata.labels = string_map(c, "labels");
    state.cluster_queues[cq.metadata.name] = cq;
  }
  for (const auto& n : in.at("namespaces")) {
    m::Namespace ns;
    ns.metadata.name = n.get<std::string>();
    state.namespaces[ns.metadata.name] = ns;
  }
  return state;
}

// NodeQueueEntranceReconciler from a cluster with no LocalQueue yet: the ClusterQueues
// ({name, labels}) and the Namespaces (names) given, one pass. Every write must be a create by
// the controller; the answer is the LocalQueues created, ordered by namespace, then name.
GOLDEN_HANDLER(Spec("naming", "NodeQueueEntranceReconciler").setup("no LocalQueue yet: the ones one pass creates").in({"clusterQueues", "namespaces"}).out({"localQueues"}),
               [](const json& in, const json&) -> json {
                 m::ClusterState state = entrance_cluster_of(in);
                 const auto plan = m::reconcile_node_queue_entrance(state);
                 std::map<std::pair<std::string, std::string>, json> created;
                 for (const auto& w : plan.writes) {
                   if (w.verb != m::WriteVerb::kCreate || w.controller != m::kNodeQueueEntranceController)
                     throw std::runtime_error("unexpected write by " + w.controller + ": " + w.reason);
                   const auto* lq = std::get_if<m::LocalQueue>(&w.object);
                   if (lq == nullptr) throw std::runtime_error("a create of another kind: " + w.reason);
                   json owners = json::array();
                   for (const auto& r : lq->metadata.owner_references)
                     owners.push_back({{"kind", r.kind}, {"name", r.name}, {"controller", r.controller}});
                   created[{lq->metadata.namespace_, lq->metadata.name}] = {
                       {"namespace", lq->metadata.namespace_},
                       {"name", lq->metadata.name},
                       {"annotations", to_json(lq->metadata.annotations)},
                       {"spec.clusterQueue", lq->cluster_queue},
                       {"ownerReferences", owners}};
                 }
                 json out = json::array();
                 for (auto& [key, lq] : created) out.push_back(std::move(lq));
                 return {{"localQueues", out}};
               });

// NodeQueueEntranceReconciler over a cluster that already has LocalQueues: the ClusterQueues
// ({name, labels}), the Namespaces (names) and the LocalQueues ({namespace, clusterQueue}: the
// LocalQueue the controller would have made for that queue there, controlled by it). One pass;
// the answer is every write in order as {verb, controller, namespace, name}.
GOLDEN_HANDLER(Spec("naming", "NodeQueueEntranceReconciler").setup("existing LocalQueues: every write of one pass").in({"clusterQueues", "namespaces", "localQueues"}).out({"writes"}),
               [](const json& in, const json&) -> json {
                 m::ClusterState state = entrance_cluster_of(in);
                 for (const auto& l : in.at("localQueues")) {
                   const auto cq = state.cluster_queues.find(l.at("clusterQueue").get<std::string>());
                   if (cq == state.cluster_queues.end()) throw std::runtime_error("a LocalQueue of an unknown ClusterQueue");
                   const m::LocalQueue lq = m::desired_local_queue(cq->second, l.at("namespace").get<std::string>());
                   state.local_queues[m::local_queue_key(lq.metadata.namespace_, lq.metadata.name)] = lq;
                 }
                 json writes = json::array();
                 for (const auto& w : m::reconcile_node_queue_entrance(state).writes) {
                   const auto* lq = std::get_if<m::LocalQueue>(&w.object);
                   if (lq == nullptr) throw std::runtime_error("a write of another kind: " + w.reason);
                   writes.push_back({{"verb", std::string(m::to_string(w.verb))},
                                     {"controller", w.controller},
                                     {"namespace", lq->metadata.namespace_},
                                     {"name", lq->metadata.name}});
                 }
                 return {{"writes", writes}};
               });

// instanceTypeFlavorSpec: one InstanceTypeFlavor catalog row from a ResourceFlavor's notes (the
// note.gpustack.ai/* annotations, keys without the prefix) and the awareness setting.
GOLDEN_HANDLER(Spec("naming", "instanceTypeFlavorSpec").in({"notes", "instanceTypeAwareCPUManufacturer"}).out({"spec"}),
               [](const json& in, const json&) -> json {
                 const auto spec = m::instance_type_flavor_spec(string_map(in, "notes"),
                                                                in.at("instanceTypeAwareCPUManufacturer").get<bool>());
                 return {{"spec",
                          {{"acceleratable", spec.acceleratable},
                           {"acceleratorGroup", spec.accelerator_group},
                           {"generalGroup", spec.general_group},
                           {"manufacturer", spec.manufacturer},
                           {"product", spec.product},
                           {"family", spec.family},
                           {"memory", spec.memory},
                           {"cores", spec.cores},
                           {"sliceable", spec.sliceable}}}};
               });

GOLDEN_HANDLER(Spec("naming", "PoolFlavorSelector").in({"labels"}).out({"selector"}), [](const json& in, const json&) -> json {
  const auto selector = m::pool_flavor_selector(string_map(in, "labels"));
  return {{"selector", selector ? to_json(*selector) : json(nullptr)}};
});

GOLDEN_HANDLER(Spec("naming", "IsAcceleratableCreditsResourceName").in({"resourceName"}).out({"isCredits"}), [](const json& in, const json&) -> json {
  return {{"isCredits", m::is_acceleratable_credits_resource_name(in.at("resourceName").get<std::string>())}};
});

GOLDEN_HANDLER(Spec("naming", "manufacturer resource names").alias("GetAcceleratableResourceNames").in({"manufacturer"}).out({"exclusive", "shared", "sliced", "slicedUnits", "slicedCoresPercentage", "slicedMemoryPercentage", "slicedMemoryMib", "partitioned", "partitionedUnits", "partitionedProfilePrefix", "visibility", "credits"}), [](const json& in, const json&) -> json {
  const auto names = m::resource_names_for(in.at("manufacturer").get<std::string>());
  if (!names) throw std::runtime_error("unknown manufacturer");
  return {{"exclusive", names->exclusive},
          {"shared", names->shared},
          {"sliced", names->sliced},
          {"slicedUnits", names->sliced_units},
          {"slicedCoresPercentage", names->sliced_cores_percentage},
          {"slicedMemoryPercentage", names->sliced_memory_percentage},
          {"slicedMemoryMib", names->sliced_memory_mib},
          {"partitioned", names->partitioned},
          {"partitionedUnits", names->partitioned_units},
          {"partitionedProfilePrefix", names->partitioned_profile_prefix},
          {"visibility", names->visibility},
          {"credits", names->credits}};
});

GOLDEN_HANDLER(Spec("naming", "ResourceFamilyOf").in({"resourceName"}).out({"family"}), [](const json& in, const json&) -> json {
  return {{"family", std::string(m::to_string(m::resource_family_of(in.at("resourceName").get<std::string>())))}};
});

GOLDEN_HANDLER(Spec("naming", "IsKnownAcceleratableResourceName").in({"resourceName"}).out({"known"}), [](const json& in, const json&) -> json {
  return {{"known", m::is_known_acceleratable_resource_name(in.at("resourceName").get<std::string>())}};
});

GOLDEN_HANDLER(Spec("naming", "GetAcceleratableResourceName").in({"manufacturer", "mode"}).out({"resourceName"}), [](const json& in, const json&) -> json {
  const auto mode = m::parse_allocation_mode(in.at("mode").get<std::string>());
  if (!mode) throw std::runtime_error("unknown allocation mode");
  return {{"resourceName", m::get_acceleratable_resource_name(in.at("manufacturer").get<std::string>(), *mode)}};
});

// The functions of this area (and of the stage-4 areas run from flavors.json and
// queue-stop-policy.json) that the operator exposes and no handler answers yet, with the reason,
// go here as GOLDEN_NOT_COVERED(area, functions, why); none is left.
