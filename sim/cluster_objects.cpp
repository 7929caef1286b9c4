#include "sim/cluster_objects.h"

#include "model/api/devices_codec.h"
#include "model/api/instance_type_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/cohort_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/api/topology_source_codec.h"
#include "model/api/topology_source_validation.h"
#include "model/api/devices_validation.h"
#include "model/api/node_codec.h"
#include "model/api/setting_codec.h"
#include "model/workload/priority_class_codec.h"

namespace chaintwin::sim {
namespace {

// The leading field path of a codec message ("spec.groups[0].id: expected ..."), if any.
std::string leading_path(const std::string& message) {
  const size_t colon = message.find(": ");
  if (colon == std::string::npos || colon == 0) return "";
  const std::string head = message.substr(0, colon);
  // A path has no spaces outside brackets.
  int depth = 0;
  for (char c : head) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ' ' && depth == 0) return "";
  }
  return head;
}

// Decodes one object of a kind kept by name (or "<ns>/<name>") into `store`, refusing duplicates.
template <typename T, typename Decode>
std::string decode_into(const SourceObject& so, Decode decode, std::map<std::string, T>& store,
                        std::map<std::string, const SourceObject*>& sources, bool namespaced) {
  auto decoded = decode(so.object);
  if (!decoded.ok()) return locate_error(so, decoded.error());
  const auto& meta = decoded.value().metadata;
  const std::string key = namespaced ? model::local_queue_key(meta.namespace_, meta.name) : meta.name;
  if (sources.count(so.kind() + "/" + key))
    return so.where("metadata.name") + ": " + so.describe() + ": metadata.name: " + so.kind() + " '" + key +
           "' is given twice (first at " + sources[so.kind() + "/" + key]->where("") + ")";
  sources[so.kind() + "/" + key] = &so;
  store.emplace(key, std::move(decoded).value());
  return "";
}

}  // namespace

std::string locate_error(const SourceObject& object, const std::string& message) {
  return object.where(leading_path(message)) + ": " + object.describe() + ": " + message;
}

model::Result<ClusterObjects> read_cluster_objects(const std::vector<SourceObject>& objects,
                                                   const model::Settings& settings) {
  ClusterObjects out;
  out.settings = settings;
  std::map<std::string, const SourceObject*> node_source, devices_source, other_sources;
  for (const auto& so : objects) {
    const std::string kind = so.kind();
    if (kind.empty()) return model::err(so.where("kind") + ": " + so.describe() + ": kind: missing (expected Node, Devices, Setting, ...)");
    if (!so.object.contains("apiVersion") || !so.object["apiVersion"].is_string() ||
        so.object["apiVersion"].get<std::string>().empty())
      return model::err(so.where("apiVersion") + ": " + so.describe() +
                        ": apiVersion: missing (expected the object's group and version, e.g. v1 for a Node)");
    if (kind == "Node") {
      auto node = model::decode_node(so.object);
      if (!node.ok()) return model::err(locate_error(so, node.error()));
      for (const auto& p : model::validate_node(*node)) return model::err(locate_error(so, p.path + ": " + p.message));
      const std::string name = node->metadata.name;
      if (node_source.count(name))
        return model::err(so.where("metadata.name") + ": " + so.describe() + ": metadata.name: Node '" + name +
                          "' is given twice (first at " + node_source[name]->where("") + ")");
      node_source[name] = &so;
      out.nodes.emplace(name, std::move(node).value());
    } else if (kind == "Devices") {
      auto devices = model::decode_devices(so.object);
      if (!devices.ok()) return model::err(locate_error(so, devices.error()));
      for (const auto& p : model::validate_devices(*devices)) return model::err(locate_error(so, p.path + ": " + p.message));
      const std::string name = devices->metadata.name;
      if (devices_source.count(name))
        return model::err(so.where("metadata.name") + ": " + so.describe() + ": metadata.name: Devices '" + name +
                          "' is given twice (first at " + devices_source[name]->where("") + ")");
      devices_source[name] = &so;
      out.devices.emplace(name, std::move(devices).value());
    } else if (kind == "Setting") {
      const auto st = model::apply_setting_object(out.settings, so.object);
      if (!st.ok()) return model::err(locate_error(so, st.error()));
    } else {
      std::string error;
      if (kind == "Namespace") error = decode_into(so, model::decode_namespace, out.namespaces, other_sources, false);
      else if (kind == "TopologySource") error = decode_into(so, model::decode_topology_source, out.topology_sources, other_sources, false);
      else if (kind == "Topology") error = decode_into(so, model::decode_topology, out.topologies, other_sources, false);
      else if (kind == "ResourceFlavor") error = decode_into(so, model::decode_resource_flavor, out.resource_flavors, other_sources, false);
      else if (kind == "InstanceType") error = decode_into(so, model::decode_instance_type, out.instance_types, other_sources, false);
      else if (kind == "ClusterQueue") error = decode_into(so, model::decode_cluster_queue, out.cluster_queues, other_sources, false);
      else if (kind == "Cohort") error = decode_into(so, model::decode_cohort, out.cohorts, other_sources, false);
      else if (kind == "LocalQueue") error = decode_into(so, model::decode_local_queue, out.local_queues, other_sources, true);
      else if (kind == "AdmissionCheck") error = decode_into(so, model::decode_admission_check, out.admission_checks, other_sources, false);
      else if (kind == "WorkloadPriorityClass")
        error = decode_into(so, model::decode_workload_priority_class, out.workload_priority_classes, other_sources, false);
      else if (kind == "PriorityClass") error = decode_into(so, model::decode_priority_class, out.priority_classes, other_sources, false);
      else ++out.ignored_kinds[kind];
      if (!error.empty()) return model::err(error);
    }
  }
  // What the operator's TopologySource admission webhook would refuse.
  for (const auto& [name, source] : out.topology_sources) {
    const auto problems = model::validate_topology_source(source);
    if (problems.empty()) continue;
    const SourceObject& so = *other_sources.at("TopologySource/" + name);
    return model::err(locate_error(so, problems.front().path + ": " + problems.front().message));
  }
  // Kueue disables every ClusterQueue under a Cohort whose parents form a cycle; a scenario or a
  // cluster with one is refused here, naming the cycle.
  for (const auto& [name, cohort] : out.cohorts) {
    std::vector<std::string> path{name};
    for (std::string at = cohort.spec.parent_name; !at.empty();) {
      path.push_back(at);
      if (at == name) {
        std::string chain;
        for (const auto& p : path) chain += (chain.empty() ? "" : " -> ") + p;
        const SourceObject& so = *other_sources.at("Cohort/" + name);
        return model::err(so.where("spec.parentName") + ": " + so.describe() +
                          ": spec.parentName: the Cohorts' parents form a cycle (" + chain +
                          "); Kueue would stop every ClusterQueue under it");
      }
      const auto up = out.cohorts.find(at);
      if (up == out.cohorts.end() || path.size() > out.cohorts.size() + 1) break;
      at = up->second.spec.parent_name;
    }
  }
  for (const auto& [name, so] : devices_source) {
    if (!out.nodes.count(name))
      return model::err(so->where("metadata.name") + ": " + so->describe() + ": metadata.name: Devices '" + name +
                        "' has no Node of the same name (a Devices record always belongs to its Node)");
  }
  return out;
}

}  // namespace chaintwin::sim
