#include "live/cluster_reader.h"


#include <nlohmann/json.hpp>

#include "live/api_paths.h"
#include "live/json_members.h"
#include "live/kueue_conversion.h"
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
  auto groups = get_json(client, "/apis");
  if (!groups.ok()) return model::err(groups.error());
  ResolvedResources resolved = resolve_resources(served_versions(*groups));
  out.missing = std::move(resolved.missing);
  out.resources = std::move(resolved.resources);
  for (const ApiResource& r : out.resources) {
    const std::string path = collection_path(r);
    auto list = get_json(client, path);
    if (!list.ok()) return model::err(list.error());
    if (auto s = add_listed(out, std::move(*list), r); !s.ok()) return model::err("GET " + path + ": " + s.error());
  }
  if (auto s = decode_observed(out); !s.ok()) return model::err(s.error());
  return out;
}

model::Status add_listed(ObservedCluster& out, json list, const ApiResource& r) {
  if (!list.is_object()) return model::err("the reply is not a list (expected an object with items)");
  const auto items = list.find("items");
  if (items != list.end() && !items->is_array() && !items->is_null())
    return model::err("items: expected a list of objects, got " + std::string(items->type_name()));
  if (items != list.end() && items->is_array())
    for (size_t i = 0; i < items->size(); ++i)
      if (!(*items)[i].is_object())
        return model::err("items[" + std::to_string(i) + "]: expected an object, got " + std::string((*items)[i].type_name()));
  out.resource_version = string_member(object_member(list, "metadata"), "resourceVersion");
  if (items == list.end() || items->is_null()) return model::Ok{};
  for (auto& item : *items) {
    out.raw.push_back(as_read(std::move(item), r));
    ++out.objects;
  }
  return model::Ok{};
}

json as_read(json object, const ApiResource& r) {
  object["kind"] = std::string(r.kind);
  object["apiVersion"] = api_version_of(r);
  return kueue_to_v1beta2(std::move(object));
}

namespace {

// Whether the operator made this Kueue object: its flavors and queues carry
// resource.gpustack.ai/type, its LocalQueues, Topologies and AdmissionChecks are named gpustack-….
bool operators(const json& o) {
  const json& meta = object_member(o, "metadata");
  return object_member(meta, "labels").contains("resource.gpustack.ai/type") ||
         string_member(meta, "name").rfind("gpustack-", 0) == 0;
}

// "Kind namespace/name" (or "Kind name") for messages.
std::string describe(const json& o) {
  const json& meta = object_member(o, "metadata");
  const std::string ns = string_member(meta, "namespace");
  return string_member(o, "kind") + " " + (ns.empty() ? "" : ns + "/") + string_member(meta, "name");
}

}  // namespace

model::Status decode_observed(ObservedCluster& out) {
  std::vector<sim::SourceObject> objects;
  std::vector<json> kept;
  out.workloads = {};
  out.left_out.clear();
  for (json& o : out.raw) {
    const std::string kind = string_member(o, "kind");
    if (kind == "Workload") {
      auto w = model::decode_workload(o);
      if (!w.ok()) {
        out.left_out.push_back(describe(o) + ": " + w.error());
        continue;
      }
      std::string key = model::object_key(w->metadata);
      out.workloads.workloads.emplace(std::move(key), std::move(*w));
      kept.push_back(std::move(o));
      continue;
    }
    sim::SourceObject source{string_member(o, "apiVersion"), 0, o, {}};
    // A Kueue object someone else made that the model cannot hold (a namespaceSelector with
    // matchLabels, say) is no business of the operator's: set it aside rather than fail the read.
    if (string_member(o, "apiVersion").rfind(std::string(kKueueGroup) + "/", 0) == 0 && !operators(o)) {
      if (auto alone = sim::read_cluster_objects({source}, model::Settings{}); !alone.ok()) {
        // The loader's message starts "<file>:<line>: Kind/name: "; keep what follows.
        const std::string said = alone.error(), head = source.describe() + ": ";
        const size_t at = said.find(head);
        out.left_out.push_back(describe(o) + ": " + (at == std::string::npos ? said : said.substr(at + head.size())));
        continue;
      }
    }
    objects.push_back(std::move(source));
    kept.push_back(std::move(o));
  }
  out.raw = std::move(kept);
  auto state = sim::read_cluster_objects(objects, model::Settings{});
  if (!state.ok()) return model::err("the cluster's objects do not decode: " + state.error());
  out.state = static_cast<model::ClusterState>(state.value());
  return model::Ok{};
}

}  // namespace chaintwin::live
