#include "live/plan_applier.h"

#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

#include "live/api_paths.h"
#include "live/json_members.h"
#include "live/kueue_conversion.h"
#include "live/unknown_fields.h"
#include "model/api/devices_codec.h"
#include "model/api/instance_codec.h"
#include "model/api/instance_type_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/api/node_codec.h"
#include "model/api/node_feature_codec.h"
#include "model/api/topology_source_codec.h"
#include "model/api/node_codec.h"

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

json encode(const model::Object& o) {
  return model::visit_object(
      [](const auto& x) -> json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, model::Node>) return model::encode_node(x);
        else if constexpr (std::is_same_v<T, model::Devices>) return model::encode_devices(x);
        else if constexpr (std::is_same_v<T, model::Namespace>) return model::encode_namespace(x);
        else if constexpr (std::is_same_v<T, model::Topology>) return model::encode_topology(x);
        else if constexpr (std::is_same_v<T, model::ResourceFlavor>) return model::encode_resource_flavor(x);
        else if constexpr (std::is_same_v<T, model::InstanceType>) return model::encode_instance_type(x);
        else if constexpr (std::is_same_v<T, model::ClusterQueue>) return model::encode_cluster_queue(x);
        else if constexpr (std::is_same_v<T, model::LocalQueue>) return model::encode_local_queue(x);
        else if constexpr (std::is_same_v<T, model::Instance>) return model::encode_instance(x);
        else if constexpr (std::is_same_v<T, model::TopologySource>) return model::encode_topology_source(x);
        else if constexpr (std::is_same_v<T, model::NodeFeature>) return model::encode_node_feature(x);
        else return model::encode_admission_check(x);
      },
      o);
}

// The observed object of `kind` named `name` (in `ns`), as the model decoded it.
std::optional<model::Object> observed_object(const model::ClusterState& s, std::string_view kind, const std::string& ns,
                                             const std::string& name) {
  auto find = [&](const auto& map, const std::string& key) -> std::optional<model::Object> {
    const auto it = map.find(key);
    if (it == map.end()) return std::nullopt;
    return model::Object(it->second);
  };
  if (kind == "Node") return find(s.nodes, name);
  if (kind == "Devices") return find(s.devices, name);
  if (kind == "Namespace") return find(s.namespaces, name);
  if (kind == "Topology") return find(s.topologies, name);
  if (kind == "ResourceFlavor") return find(s.resource_flavors, name);
  if (kind == "InstanceType") return find(s.instance_types, name);
  if (kind == "ClusterQueue") return find(s.cluster_queues, name);
  if (kind == "LocalQueue") return find(s.local_queues, model::local_queue_key(ns, name));
  if (kind == "AdmissionCheck") return find(s.admission_checks, name);
  if (kind == "Instance") return find(s.instances, model::instance_key(ns, name));
  if (kind == "TopologySource") return find(s.topology_sources, name);
  if (kind == "NodeFeature") return find(s.node_features, model::node_feature_key(ns, name));
  return std::nullopt;
}

// The objects as the cluster sent them (from the list or watch), by (kind, namespace, name).
using SentKey = std::tuple<std::string, std::string, std::string>;
std::map<SentKey, const json*> index_sent(const std::vector<json>& raw) {
  std::map<SentKey, const json*> out;
  for (const auto& o : raw) {
    const auto meta = o.find("metadata");
    if (meta == o.end() || !meta->is_object()) continue;
    out[{string_member(o, "kind"), string_member(*meta, "namespace"), string_member(*meta, "name")}] = &o;
  }
  return out;
}

// The merge patch that takes `from` to `to` (removed keys as null).
json map_patch(const json& from, const json& to) {
  json patch = json::object();
  for (auto it = to.begin(); it != to.end(); ++it)
    if (!from.contains(it.key()) || from[it.key()] != it.value()) patch[it.key()] = it.value();
  for (auto it = from.begin(); it != from.end(); ++it)
    if (!to.contains(it.key())) patch[it.key()] = nullptr;
  return patch;
}

}  // namespace

ApplyReport apply_writes(ApiClient& client, const ObservedCluster& observed, const std::vector<model::Write>& writes,
                         bool dry_run) {
  ApplyReport report;
  const std::string params = std::string("?fieldManager=chaintwin") + (dry_run ? "&dryRun=All" : "");
  const std::map<SentKey, const json*> sent_objects = index_sent(observed.raw);
  for (const auto& w : writes) {
    const std::string kind(model::kind_of(w.object));
    const auto r = find_resource(observed.resources, kind);
    if (!r) {
      report.stopped = "no API path for " + kind;
      return report;
    }
    const model::ObjectMeta& meta = model::metadata_of(w.object);
    json body = encode(w.object);
    std::string method, path, type = "application/json";
    const std::string object = object_path(*r, meta.name, meta.namespace_);
    if (w.verb == model::WriteVerb::kCreate) {
      method = "POST";
      path = collection_path(*r, meta.namespace_);
      body["metadata"].erase("resourceVersion");
      body["metadata"].erase("uid");
    } else if (w.verb == model::WriteVerb::kDelete) {
      method = "DELETE";
      path = object;
      body = nullptr;
    } else if (kind == "Node") {
      // The operator merge-patches a Node's labels and annotations, and its status.capacity.
      const auto current = observed.state.nodes.find(meta.name);
      const json before = current == observed.state.nodes.end() ? json::object() : model::encode_node(current->second);
      method = "PATCH";
      type = "application/merge-patch+json";
      if (w.verb == model::WriteVerb::kUpdate) {
        path = object;
        json m = json::object();
        for (const char* field : {"labels", "annotations"}) {
          const json p = map_patch(object_member(object_member(before, "metadata"), field),
                                   object_member(object_member(body, "metadata"), field));
          if (!p.empty()) m[field] = p;
        }
        body = {{"metadata", m}};
      } else {
        path = object + "/status";
        json st = json::object();
        for (const char* field : {"capacity", "allocatable"}) {
          const json p = map_patch(object_member(object_member(before, "status"), field),
                                   object_member(object_member(body, "status"), field));
          if (!p.empty()) st[field] = p;
        }
        body = {{"status", st}};
      }
    } else {
      method = "PUT";
      path = w.verb == model::WriteVerb::kUpdateStatus ? object + "/status" : object;
      // A replace sends the whole object: keep what the cluster has that the model does not read.
      const auto sent = sent_objects.find({kind, meta.namespace_, meta.name});
      const auto known = observed_object(observed.state, kind, meta.namespace_, meta.name);
      if (sent != sent_objects.end() && known)
        body = with_unknown_fields(std::move(body), unknown_fields(*sent->second, encode(*known)));
    }
    // A cluster that serves Kueue only as v1beta1 is written in v1beta1.
    if (r->version == "v1beta1" && r->group == kKueueGroup && type == "application/json") body = kueue_to_v1beta1(std::move(body));
    auto res = client.send(method, path + params, body.is_null() ? "" : body.dump(), type);
    if (!res.ok()) {
      report.stopped = res.error();
      return report;
    }
    if (res->status == 409) {
      report.conflict = true;
      report.stopped = method + " " + path + ": 409 Conflict";
      return report;
    }
    if (res->status >= 300) {
      report.stopped = method + " " + path + ": HTTP " + std::to_string(res->status) + ": " + res->body.substr(0, 300);
      return report;
    }
    ++report.sent;
  }
  return report;
}

}  // namespace chaintwin::live
