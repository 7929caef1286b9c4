#include "live/served_objects.h"

#include "model/api/devices_codec.h"
#include "model/api/instance_type_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/api/node_codec.h"
#include "model/api/settings.h"
#include "model/api/topology_source_codec.h"
#include "model/workload/workload_codec.h"

namespace chaintwin::live {
namespace {

constexpr size_t kHistory = 100000;  // watch events kept for late watchers

template <typename Map, typename Encode>
void encode_all(const Map& map, Encode encode, std::vector<nlohmann::json>& out) {
  for (const auto& [key, object] : map) out.push_back(encode(object));
}
// The Workloads, listed in key order as the other kinds are.
template <typename Encode>
void encode_all(const model::KeyedSlots<model::Workload>& table, Encode encode, std::vector<nlohmann::json>& out) {
  for (const auto* kv : table.in_key_order()) out.push_back(encode(kv->second));
}

}  // namespace

bool served_kind(std::string_view kind) {
  for (const char* k : {"Node", "Devices", "Namespace", "Setting", "TopologySource", "Topology", "ResourceFlavor",
                        "InstanceType", "ClusterQueue", "LocalQueue", "AdmissionCheck", "Workload"})
    if (kind == k) return true;
  return false;
}

std::vector<nlohmann::json> encode_objects(const model::ClusterState& state, std::string_view kind,
                                           const model::WorkloadState* workloads) {
  std::vector<nlohmann::json> out;
  if (kind == "Workload") {
    if (workloads != nullptr) encode_all(workloads->workloads, model::encode_workload, out);
    return out;
  }
  if (kind == "Node") encode_all(state.nodes, model::encode_node, out);
  else if (kind == "Devices") encode_all(state.devices, model::encode_devices, out);
  else if (kind == "Namespace") encode_all(state.namespaces, model::encode_namespace, out);
  else if (kind == "TopologySource") encode_all(state.topology_sources, model::encode_topology_source, out);
  else if (kind == "Topology") encode_all(state.topologies, model::encode_topology, out);
  else if (kind == "ResourceFlavor") encode_all(state.resource_flavors, model::encode_resource_flavor, out);
  else if (kind == "InstanceType") encode_all(state.instance_types, model::encode_instance_type, out);
  else if (kind == "ClusterQueue") encode_all(state.cluster_queues, model::encode_cluster_queue, out);
  else if (kind == "LocalQueue") encode_all(state.local_queues, model::encode_local_queue, out);
  else if (kind == "AdmissionCheck") encode_all(state.admission_checks, model::encode_admission_check, out);
  else if (kind == "Setting")
    // The operator's fixed catalog, one object per setting, spec.value as written and status.value
    // as reported (the twin has no difference between them).
    for (const char* const* name = model::setting_names(); *name != nullptr; ++name) {
      const std::string value = model::get_setting_text(state.settings, *name).value_or("");
      out.push_back({{"apiVersion", "gpustack.ai/v1"},
                     {"kind", "Setting"},
                     {"metadata", {{"name", *name}, {"namespace", std::string(kSettingsNamespace)}}},
                     {"spec", {{"value", value}}},
                     {"status", {{"value", value}}}});
    }
  return out;
}

size_t ServedObjects::update(const model::ClusterState& state, const model::WorkloadState* workloads) {
  size_t changed = 0;
  for (const ApiResource& r : watched_resources()) {
    std::map<Key, Entry>& served = objects_[std::string(r.kind)];
    std::map<Key, nlohmann::json> now;
    for (auto& o : encode_objects(state, r.kind, workloads)) {
      Key key{o["metadata"].value("namespace", ""), o["metadata"].value("name", "")};  // before o moves
      now[std::move(key)] = std::move(o);
    }
    auto emit = [&](const char* type, const Entry& e) {
      record(type, r.kind, e);
      ++changed;
    };
    for (auto it = served.begin(); it != served.end();) {
      if (now.count(it->first) == 0) {
        it->second.resource_version = ++resource_version_;
        it->second.object["metadata"]["resourceVersion"] = std::to_string(resource_version_);
        emit("DELETED", it->second);
        it = served.erase(it);
      } else {
        ++it;
      }
    }
    for (auto& [key, object] : now) {
      object["metadata"].erase("resourceVersion");
      auto it = served.find(key);
      if (it != served.end()) {
        nlohmann::json before = it->second.object;
        before["metadata"].erase("resourceVersion");
        if (before == object) continue;
      }
      Entry e{std::move(object), ++resource_version_};
      e.object["metadata"]["resourceVersion"] = std::to_string(e.resource_version);
      const bool added = it == served.end();
      served[key] = e;
      emit(added ? "ADDED" : "MODIFIED", e);
    }
  }
  return changed;
}

std::vector<nlohmann::json> ServedObjects::list(std::string_view kind, std::string_view ns) const {
  std::vector<nlohmann::json> out;
  const auto it = objects_.find(kind);
  if (it == objects_.end()) return out;
  for (const auto& [key, e] : it->second)
    if (ns.empty() || key.first == ns) out.push_back(e.object);
  return out;
}

std::optional<nlohmann::json> ServedObjects::get(std::string_view kind, std::string_view ns, std::string_view name) const {
  const auto it = objects_.find(kind);
  if (it == objects_.end()) return std::nullopt;
  const auto o = it->second.find({std::string(ns), std::string(name)});
  if (o == it->second.end()) return std::nullopt;
  return o->second.object;
}

std::optional<std::vector<WatchEvent>> ServedObjects::events_since(std::string_view kind, std::string_view ns,
                                                                     int64_t since) const {
  if (since < oldest_) return std::nullopt;
  std::vector<WatchEvent> out;
  for (const auto& e : history_) {
    if (e.resource_version <= since || e.kind != kind) continue;
    if (!ns.empty() && e.object["metadata"].value("namespace", "") != ns) continue;
    out.push_back(e);
  }
  return out;
}

void ServedObjects::record(const char* type, std::string_view kind, const Entry& e) {
  history_.push_back({e.resource_version, type, std::string(kind), e.object});
  while (history_.size() > kHistory) {
    oldest_ = history_.front().resource_version;
    history_.pop_front();
  }
}

namespace {

using WriteResult = ServedObjects::WriteResult;

WriteResult failure(int code, const char* reason, std::string message) { return {code, reason, std::move(message), nullptr}; }

std::string describe(std::string_view kind, std::string_view ns, std::string_view name) {
  return std::string(kind) + " \"" + (ns.empty() ? "" : std::string(ns) + "/") + std::string(name) + "\"";
}

}  // namespace

WriteResult ServedObjects::create(std::string_view kind, std::string_view ns, nlohmann::json body, bool dry_run) {
  if (!body.is_object() || !body.contains("metadata") || !body["metadata"].is_object())
    return failure(400, "BadRequest", "the body is not an object with metadata");
  if (body.value("kind", "") != kind)
    return failure(400, "BadRequest", "the body's kind '" + body.value("kind", "") + "' is not " + std::string(kind));
  auto& meta = body["metadata"];
  const std::string name = meta.value("name", "");
  if (name.empty()) return failure(422, "Invalid", "metadata.name: Required value");
  if (!ns.empty()) meta["namespace"] = std::string(ns);
  auto& served = objects_[std::string(kind)];
  const Key key{meta.value("namespace", ""), name};
  if (served.count(key) != 0) return failure(409, "AlreadyExists", describe(kind, key.first, name) + " already exists");
  if (dry_run) return {201, "", "", body};
  Entry e{std::move(body), ++resource_version_};
  e.object["metadata"]["resourceVersion"] = std::to_string(e.resource_version);
  if (!e.object["metadata"].contains("uid")) e.object["metadata"]["uid"] = "chaintwin-" + std::to_string(e.resource_version);
  served[key] = e;
  record("ADDED", kind, e);
  return {201, "", "", e.object};
}

WriteResult ServedObjects::replace(std::string_view kind, std::string_view ns, std::string_view name, nlohmann::json body,
                                   bool status, bool dry_run) {
  auto& served = objects_[std::string(kind)];
  const auto it = served.find({std::string(ns), std::string(name)});
  if (it == served.end()) return failure(404, "NotFound", describe(kind, ns, name) + " not found");
  if (!body.is_object() || !body.contains("metadata") || !body["metadata"].is_object())
    return failure(400, "BadRequest", "the body is not an object with metadata");
  const std::string rv = body["metadata"].value("resourceVersion", "");
  if (!rv.empty() && rv != std::to_string(it->second.resource_version))
    return failure(409, "Conflict",
                   "Operation cannot be fulfilled on " + describe(kind, ns, name) +
                       ": the object has been modified; please apply your changes to the latest version and try again");
  nlohmann::json next = it->second.object;
  if (status) {
    if (body.contains("status")) next["status"] = body["status"];
    else next.erase("status");
  } else {
    const nlohmann::json kept_status = next.value("status", nlohmann::json());
    next = std::move(body);
    next["metadata"]["name"] = std::string(name);
    if (!ns.empty()) next["metadata"]["namespace"] = std::string(ns);
    next["metadata"]["uid"] = it->second.object["metadata"].value("uid", "");
    if (kept_status.is_null()) next.erase("status");
    else next["status"] = kept_status;
  }
  next["metadata"].erase("resourceVersion");
  nlohmann::json before = it->second.object;
  before["metadata"].erase("resourceVersion");
  if (next == before || dry_run) {
    next["metadata"]["resourceVersion"] = std::to_string(it->second.resource_version);
    return {200, "", "", next};
  }
  it->second.resource_version = ++resource_version_;
  next["metadata"]["resourceVersion"] = std::to_string(it->second.resource_version);
  it->second.object = std::move(next);
  record("MODIFIED", kind, it->second);
  return {200, "", "", it->second.object};
}

WriteResult ServedObjects::merge_patch(std::string_view kind, std::string_view ns, std::string_view name,
                                       const nlohmann::json& patch, bool status, bool dry_run) {
  auto& served = objects_[std::string(kind)];
  const auto it = served.find({std::string(ns), std::string(name)});
  if (it == served.end()) return failure(404, "NotFound", describe(kind, ns, name) + " not found");
  if (!patch.is_object()) return failure(400, "BadRequest", "a merge patch must be a JSON object");
  nlohmann::json next = it->second.object;
  next.merge_patch(patch);
  // A patch that names a resourceVersion must name the stored one; one that does not always applies.
  if (!patch.contains("metadata") || !patch["metadata"].contains("resourceVersion"))
    next["metadata"]["resourceVersion"] = std::to_string(it->second.resource_version);
  if (status) {
    nlohmann::json only = it->second.object;
    if (next.contains("status")) only["status"] = next["status"];
    only["metadata"]["resourceVersion"] = next["metadata"]["resourceVersion"];
    next = std::move(only);
  } else if (it->second.object.contains("status")) {
    next["status"] = it->second.object["status"];
  }
  return replace(kind, ns, name, std::move(next), status, dry_run);
}

WriteResult ServedObjects::remove(std::string_view kind, std::string_view ns, std::string_view name, bool dry_run) {
  auto& served = objects_[std::string(kind)];
  const auto it = served.find({std::string(ns), std::string(name)});
  if (it == served.end()) return failure(404, "NotFound", describe(kind, ns, name) + " not found");
  if (dry_run) return {200, "", "", it->second.object};
  it->second.resource_version = ++resource_version_;
  it->second.object["metadata"]["resourceVersion"] = std::to_string(it->second.resource_version);
  record("DELETED", kind, it->second);
  WriteResult out{200, "", "", it->second.object};
  served.erase(it);
  return out;
}

}  // namespace chaintwin::live
