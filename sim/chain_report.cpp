#include "sim/chain_report.h"

#include <algorithm>

#include "model/api/instance_type_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/stage3/stage3.h"
#include "model/stage4/instance_type_flavor.h"

namespace chaintwin::sim {
namespace {

using nlohmann::json;

// Drops what the API server sets, so the output applies cleanly and does not change between runs.
json without_server_fields(json object) {
  if (object.contains("metadata")) {
    auto& m = object["metadata"];
    for (const char* k : {"uid", "resourceVersion", "generation", "creationTimestamp"}) m.erase(k);
    if (m.contains("ownerReferences"))
      for (auto& ref : m["ownerReferences"]) ref.erase("uid");
  }
  return object;
}

json node_object(const model::Node& node) {
  json capacity = json::object();
  for (const auto& [k, q] : node.status.capacity) capacity[k] = q.to_string();
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", node.metadata.name}, {"labels", node.metadata.labels}}},
          {"status", {{"capacity", capacity}}}};
}

json node_feature_object(const model::Node& node, const model::ClusterState& state) {
  const auto labels = model::desired_worker_labels(node, state.settings);
  return {{"apiVersion", "nfd.k8s-sigs.io/v1alpha1"},
          {"kind", "NodeFeature"},
          {"metadata",
           {{"name", node.metadata.name + std::string(model::kWorkerNodeFeatureSuffix)},
            {"namespace", std::string(model::keys::kSystemNamespace)},
            {"labels", {{"nfd.node.kubernetes.io/node-name", node.metadata.name},
                        {"app.kubernetes.io/part-of", "gpustack-operator-worker"}}}}},
          {"spec", {{"labels", labels}}}};
}

}  // namespace

json chain_objects(const model::ClusterState& state) {
  json items = json::array();
  for (const auto& [name, node] : state.nodes) {
    items.push_back(node_object(node));
    items.push_back(node_feature_object(node, state));
  }
  for (const auto& [name, t] : state.topologies) items.push_back(without_server_fields(model::encode_topology(t)));
  for (const auto& [name, rf] : state.resource_flavors) items.push_back(without_server_fields(model::encode_resource_flavor(rf)));
  for (const auto& itf : model::instance_type_flavor_catalog(state.resource_flavors, state.settings.instance_type_aware_cpu_manufacturer))
    items.push_back(without_server_fields(model::encode_instance_type_flavor(itf)));
  for (const auto& [name, it] : state.instance_types) items.push_back(without_server_fields(model::encode_instance_type(it)));
  for (const auto& [name, cq] : state.cluster_queues) {
    json o = without_server_fields(model::encode_cluster_queue(cq));
    o.erase("status");  // the spec is the operator's; the status is Kueue's
    items.push_back(o);
  }
  for (const auto& [key, lq] : state.local_queues) items.push_back(without_server_fields(model::encode_local_queue(lq)));
  for (const auto& [name, ac] : state.admission_checks) items.push_back(without_server_fields(model::encode_admission_check(ac)));
  std::stable_sort(items.begin(), items.end(), [](const json& a, const json& b) {
    const auto ka = a.value("kind", ""), kb = b.value("kind", "");
    if (ka != kb) return ka < kb;
    const auto& ma = a["metadata"];
    const auto& mb = b["metadata"];
    const auto na = ma.value("namespace", "") + "/" + ma.value("name", "");
    const auto nb = mb.value("namespace", "") + "/" + mb.value("name", "");
    return na < nb;
  });
  return items;
}

}  // namespace chaintwin::sim
