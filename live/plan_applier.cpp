#include "live/plan_applier.h"

#include <nlohmann/json.hpp>

#include "live/api_paths.h"
#include "model/devices_codec.h"
#include "model/instance_type_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/node_codec.h"

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

json encode(const model::Object& o) {
  return std::visit(
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
        else return model::encode_admission_check(x);
      },
      o);
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

ApplyReport apply_writes(ApiClient& client, const model::ClusterState& observed, const std::vector<model::Write>& writes,
                         bool dry_run) {
  ApplyReport report;
  const std::string params = std::string("?fieldManager=chaintwin") + (dry_run ? "&dryRun=All" : "");
  for (const auto& w : writes) {
    const std::string kind(model::kind_of(w.object));
    const auto r = find_resource(kind);
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
      const auto current = observed.nodes.find(meta.name);
      const json before = current == observed.nodes.end() ? json::object() : model::encode_node(current->second);
      method = "PATCH";
      type = "application/merge-patch+json";
      if (w.verb == model::WriteVerb::kUpdate) {
        path = object;
        json m = json::object();
        for (const char* field : {"labels", "annotations"}) {
          const json p = map_patch(before["metadata"].value(field, json::object()), body["metadata"].value(field, json::object()));
          if (!p.empty()) m[field] = p;
        }
        body = {{"metadata", m}};
      } else {
        path = object + "/status";
        json st = json::object();
        for (const char* field : {"capacity", "allocatable"}) {
          const json p = map_patch(before.value("status", json::object()).value(field, json::object()),
                                   body.value("status", json::object()).value(field, json::object()));
          if (!p.empty()) st[field] = p;
        }
        body = {{"status", st}};
      }
    } else {
      method = "PUT";
      path = w.verb == model::WriteVerb::kUpdateStatus ? object + "/status" : object;
    }
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
