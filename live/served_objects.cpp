#include "live/served_objects.h"

#include <utility>

#include "live/object_validation.h"

#include "model/api/devices_codec.h"
#include "model/api/instance_type_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/cohort_codec.h"
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
                        "InstanceType", "ClusterQueue", "Cohort", "LocalQueue", "AdmissionCheck", "Workload"})
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
  else if (kind == "Cohort") encode_all(state.cohorts, model::encode_cohort, out);
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
    auto emit = [&](const char* type, const Entry& e, const nlohmann::json* previous) {
      record(type, r.kind, e, previous);
      ++changed;
    };
    for (auto it = served.begin(); it != served.end();) {
      if (now.count(it->first) == 0) {
        it->second.resource_version = ++resource_version_;
        it->second.object["metadata"]["resourceVersion"] = std::to_string(resource_version_);
        emit("DELETED", it->second, &it->second.object);
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
      const nlohmann::json previous = added ? nlohmann::json() : std::move(it->second.object);
      served[key] = e;
      emit(added ? "ADDED" : "MODIFIED", e, added ? nullptr : &previous);
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

std::optional<std::vector<nlohmann::json>> ServedObjects::list_at(std::string_view kind, std::string_view ns,
                                                                  int64_t resource_version) const {
  if (resource_version >= resource_version_) return list(kind, ns);
  if (resource_version < oldest_) return std::nullopt;
  // A key changed since then was, at that version, what its last event up to it left (absent when
  // that was a deletion, or when its first later event is its creation).
  std::map<Key, const WatchEvent*> at, first_after;
  for (const auto& e : history_) {
    if (e.kind != kind) continue;
    Key key{e.object["metadata"].value("namespace", ""), e.object["metadata"].value("name", "")};
    if (!ns.empty() && key.first != ns) continue;
    if (e.resource_version <= resource_version) at[key] = &e;
    else first_after.emplace(std::move(key), &e);
  }
  std::map<Key, nlohmann::json> out;
  if (const auto it = objects_.find(kind); it != objects_.end())
    for (const auto& [key, e] : it->second)
      if (ns.empty() || key.first == ns) out.emplace(key, e.object);
  for (const auto& [key, after] : first_after) {
    const auto then = at.find(key);
    if (then != at.end()) {
      if (then->second->type == "DELETED") out.erase(key);
      else out[key] = then->second->object;
    } else if (after->type == "ADDED") {
      out.erase(key);
    } else {
      return std::nullopt;  // its state then is older than the kept history
    }
  }
  std::vector<nlohmann::json> items;
  items.reserve(out.size());
  for (auto& [key, o] : out) items.push_back(std::move(o));
  return items;
}

void ServedObjects::record(const char* type, std::string_view kind, const Entry& e, const nlohmann::json* previous) {
  std::optional<Selectable> before;
  if (previous != nullptr) before = selectable_of(kind, *previous);
  history_.push_back({e.resource_version, type, std::string(kind), e.object, std::move(before)});
  while (history_.size() > kHistory) {
    oldest_ = history_.front().resource_version;
    history_.pop_front();
  }
}

namespace {

using WriteResult = ServedObjects::WriteResult;

WriteResult failure(int code, const char* reason, std::string message) {
  return {code, reason, std::move(message), nullptr, nullptr};
}

std::string meta_text(const nlohmann::json& o, const char* key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string generated_suffix(int64_t seed) {
  static constexpr std::string_view kChars = "bcdfghjklmnpqrstvwxz2456789";
  uint64_t x = static_cast<uint64_t>(seed) * 0x9E3779B97F4A7C15ULL;
  std::string out;
  for (int i = 0; i < 5; ++i, x /= kChars.size()) out += kChars[x % kChars.size()];
  return out;
}

// The namespace a created object goes in: the URL's for a namespaced kind (a different one in the
// body is refused, as kube does), none for a cluster-scoped kind (kube clears it).
std::optional<WriteResult> placement(std::string_view kind, std::string_view ns, nlohmann::json& meta) {
  const auto r = find_resource(kind);
  if (r && !r->namespaced) {
    meta.erase("namespace");
    return std::nullopt;
  }
  if (meta.contains("namespace") && !meta["namespace"].is_string())
    return failure(400, "BadRequest", "metadata.namespace is not a string");
  const std::string given = meta_text(meta, "namespace");
  if (!given.empty() && !ns.empty() && given != ns)
    return failure(400, "BadRequest", "the namespace of the provided object does not match the namespace sent on the request");
  if (!ns.empty()) meta["namespace"] = std::string(ns);
  return std::nullopt;
}

// The object's refusal as a write result (object_validation.h), or nullopt when it may be stored.
std::optional<WriteResult> refusal(std::string_view kind, const nlohmann::json& object) {
  const auto r = find_resource(kind);
  const auto refused = validate_object(r ? r->group : "", kind, object);
  if (!refused) return std::nullopt;
  WriteResult w = failure(refused->code, "", refused->message);
  w.reason = refused->reason;
  w.status = refused->status(r ? r->group : "", kind, meta_text(object.at("metadata"), "name"));
  return w;
}

std::string describe(std::string_view kind, std::string_view ns, std::string_view name) {
  return std::string(kind) + " \"" + (ns.empty() ? "" : std::string(ns) + "/") + std::string(name) + "\"";
}

}  // namespace

WriteResult ServedObjects::create(std::string_view kind, std::string_view ns, nlohmann::json body, bool dry_run) {
  if (!body.is_object() || !body.contains("metadata") || !body["metadata"].is_object())
    return failure(400, "BadRequest", "the body is not an object with metadata");
  if (!body.contains("kind") || !body["kind"].is_string() || body["kind"] != kind)
    return failure(400, "BadRequest", "the body's kind " + body.value("kind", nlohmann::json()).dump() + " is not " + std::string(kind));
  auto& meta = body["metadata"];
  if (auto problem = placement(kind, ns, meta)) return *problem;
  // generateName: the prefix and five characters, as kube makes them (derived here from the version).
  if (meta_text(meta, "name").empty() && !meta_text(meta, "generateName").empty())
    meta["name"] = meta_text(meta, "generateName") + generated_suffix(resource_version_ + 1);
  if (auto refused = refusal(kind, body)) return *refused;
  const std::string name = meta["name"];
  auto& served = objects_[std::string(kind)];
  const Key key{meta_text(meta, "namespace"), name};
  if (served.count(key) != 0) return failure(409, "AlreadyExists", describe(kind, key.first, name) + " already exists");
  if (dry_run) return {201, "", "", body, nullptr};
  Entry e{std::move(body), ++resource_version_};
  e.object["metadata"]["resourceVersion"] = std::to_string(e.resource_version);
  if (!e.object["metadata"].contains("uid")) e.object["metadata"]["uid"] = "chaintwin-" + std::to_string(e.resource_version);
  served[key] = e;
  record("ADDED", kind, e, nullptr);
  return {201, "", "", e.object, nullptr};
}

WriteResult ServedObjects::replace(std::string_view kind, std::string_view ns, std::string_view name, nlohmann::json body,
                                   bool status, bool dry_run) {
  auto& served = objects_[std::string(kind)];
  const auto it = served.find({std::string(ns), std::string(name)});
  if (it == served.end()) return failure(404, "NotFound", describe(kind, ns, name) + " not found");
  if (!body.is_object() || !body.contains("metadata") || !body["metadata"].is_object())
    return failure(400, "BadRequest", "the body is not an object with metadata");
  // The body names the object the URL names (kube's checkName), for the main resource and status.
  const std::string body_name = meta_text(body["metadata"], "name"), body_ns = meta_text(body["metadata"], "namespace");
  if (body_name != name)
    return failure(400, "BadRequest",
                   "the name of the object (" + body_name + ") does not match the name on the URL (" + std::string(name) + ")");
  if (!ns.empty() && !body_ns.empty() && body_ns != ns)
    return failure(400, "BadRequest",
                   "the namespace of the object (" + body_ns + ") does not match the namespace on the request (" +
                       std::string(ns) + ")");
  const std::string rv = meta_text(body["metadata"], "resourceVersion");
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
  const auto r = find_resource(kind);
  if (r && !r->namespaced) next["metadata"].erase("namespace");
  if (auto refused = refusal(kind, next)) return *refused;
  nlohmann::json before = it->second.object;
  before["metadata"].erase("resourceVersion");
  if (next == before || dry_run) {
    next["metadata"]["resourceVersion"] = std::to_string(it->second.resource_version);
    return {200, "", "", next, nullptr};
  }
  it->second.resource_version = ++resource_version_;
  next["metadata"]["resourceVersion"] = std::to_string(it->second.resource_version);
  const nlohmann::json previous = std::exchange(it->second.object, std::move(next));
  record("MODIFIED", kind, it->second, &previous);
  return {200, "", "", it->second.object, nullptr};
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
  if (dry_run) return {200, "", "", it->second.object, nullptr};
  it->second.resource_version = ++resource_version_;
  it->second.object["metadata"]["resourceVersion"] = std::to_string(it->second.resource_version);
  record("DELETED", kind, it->second, &it->second.object);
  WriteResult out{200, "", "", it->second.object, nullptr};
  served.erase(it);
  return out;
}

}  // namespace chaintwin::live
