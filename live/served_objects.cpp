#include "live/served_objects.h"

#include "model/devices_codec.h"
#include "model/instance_type_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/node_codec.h"
#include "model/topology_source_codec.h"

namespace chaintwin::live {
namespace {

constexpr size_t kHistory = 100000;  // watch events kept for late watchers

template <typename Map, typename Encode>
void encode_all(const Map& map, Encode encode, std::vector<nlohmann::json>& out) {
  for (const auto& [key, object] : map) out.push_back(encode(object));
}

}  // namespace

bool served_kind(std::string_view kind) {
  for (const char* k : {"Node", "Devices", "Namespace", "TopologySource", "Topology", "ResourceFlavor", "InstanceType",
                        "ClusterQueue", "LocalQueue", "AdmissionCheck"})
    if (kind == k) return true;
  return false;
}

std::vector<nlohmann::json> encode_objects(const model::ClusterState& state, std::string_view kind) {
  std::vector<nlohmann::json> out;
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
  return out;
}

size_t ServedObjects::update(const model::ClusterState& state) {
  size_t changed = 0;
  for (const ApiResource& r : watched_resources()) {
    std::map<Key, Entry>& served = objects_[std::string(r.kind)];
    std::map<Key, nlohmann::json> now;
    for (auto& o : encode_objects(state, r.kind)) {
      const auto& meta = o["metadata"];
      now[{meta.value("namespace", ""), meta.value("name", "")}] = std::move(o);
    }
    auto emit = [&](const char* type, const Entry& e) {
      history_.push_back({e.resource_version, type, std::string(r.kind), e.object});
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
  while (history_.size() > kHistory) {
    oldest_ = history_.front().resource_version;
    history_.pop_front();
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

}  // namespace chaintwin::live
