#include "live/cluster_reader.h"

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "live/api_paths.h"
#include "model/workload/workload_codec.h"
#include "sim/cluster_objects.h"

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

model::Result<json> get_json(ApiClient& client, const std::string& path) {
  auto r = client.get(path);
  if (!r.ok()) return model::err(r.error());
  if (r->status == 401 || r->status == 403)
    return model::err("GET " + path + ": " + std::to_string(r->status) + (r->status == 401 ? " Unauthorized" : " Forbidden") +
                      " (check the credentials, and the ClusterRole in docs/live.md)");
  if (r->status != 200) return model::err("GET " + path + ": HTTP " + std::to_string(r->status));
  json j = json::parse(r->body, nullptr, false);
  if (j.is_discarded()) return model::err("GET " + path + ": the reply is not JSON");
  return j;
}

}  // namespace

model::Result<ObservedCluster> read_cluster(ApiClient& client) {
  ObservedCluster out;
  // Which group versions the cluster serves.
  std::map<std::string, std::set<std::string>> served;  // group -> versions
  auto groups = get_json(client, "/apis");
  if (!groups.ok()) return model::err(groups.error());
  for (const auto& g : groups->value("groups", json::array()))
    for (const auto& v : g.value("versions", json::array())) served[g.value("name", "")].insert(v.value("version", ""));
  for (const ApiResource& r : watched_resources()) {
    if (r.kind == "InstanceTypeFlavor") continue;  // not read by the operator's controllers
    if (!r.group.empty() && served[std::string(r.group)].count(std::string(r.version)) == 0) {
      const auto& have = served[std::string(r.group)];
      std::string note = std::string(r.group) + "/" + std::string(r.version) + " (" + std::string(r.resource) + "): ";
      if (have.empty()) note += "the cluster does not serve the group";
      else {
        note += "the cluster serves only";
        for (const auto& v : have) note += " " + v;
      }
      out.missing.push_back(note);
      continue;
    }
    const std::string path = collection_path(r);
    auto list = get_json(client, path);
    if (!list.ok()) return model::err(list.error());
    out.resource_version = list->value("metadata", json::object()).value("resourceVersion", "");
    json items = list->value("items", json::array());
    for (auto& item : items) {
      // A List's items carry no apiVersion/kind on a real API server: put them back.
      item["kind"] = std::string(r.kind);
      item["apiVersion"] = r.group.empty() ? std::string(r.version) : std::string(r.group) + "/" + std::string(r.version);
      out.raw.push_back(std::move(item));
      ++out.objects;
    }
  }
  if (auto s = decode_observed(out); !s.ok()) return model::err(s.error());
  return out;
}

model::Status decode_observed(ObservedCluster& out) {
  std::vector<sim::SourceObject> objects;
  out.workloads = {};
  for (const json& o : out.raw) {
    if (o.value("kind", "") != "Workload") {
      objects.push_back({o.value("apiVersion", ""), 0, o, {}});
      continue;
    }
    auto w = model::decode_workload(o);
    const json& meta = o.value("metadata", json::object());
    if (!w.ok())
      return model::err("the cluster's Workload " + meta.value("namespace", "") + "/" + meta.value("name", "") +
                        " does not decode: " + w.error());
    std::string key = model::object_key(w->metadata);
    out.workloads.workloads.emplace(std::move(key), std::move(*w));
  }
  auto state = sim::read_cluster_objects(objects, model::Settings{});
  if (!state.ok()) return model::err("the cluster's objects do not decode: " + state.error());
  out.state = static_cast<model::ClusterState>(state.value());
  return model::Ok{};
}

}  // namespace chaintwin::live
