// Fuzz target: every Kubernetes object decoder. The first byte picks the reader, the rest is its
// input:
//   0      the documents reader (YAML or JSON, several documents, `kind: List`) and the cluster
//          reader behind it — what `derive`, `serve` and a scenario's `objects:` read;
//   1..N   one typed decoder of model/ (Devices, Node, Kueue's objects, ...) on a JSON document;
//   N+1    the Kueue version conversions of the served API (v1beta1 <-> v1beta2);
//   then   what the live mode reads from an API server and a user's files: a list reply (items
//          decoded as the live mode decodes them), a discovery reply, a ClusterRole, and a served
//          object made into kubectl's table rows.
// Every input must come back decoded or refused; a crash, a hang, a leak, an escaping exception
// or undefined behaviour is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "live/api_paths.h"
#include "live/api_tables.h"
#include "live/cluster_reader.h"
#include "live/cluster_role.h"
#include "live/kueue_conversion.h"
#include "model/api/devices_codec.h"
#include "model/api/instance_codec.h"
#include "model/api/instance_type_codec.h"
#include "model/api/node_codec.h"
#include "model/api/node_feature_codec.h"
#include "model/api/object_meta_codec.h"
#include "model/api/setting_codec.h"
#include "model/api/topology_source_codec.h"
#include "model/kueue/cluster_queue_codec.h"
#include "model/kueue/condition_codec.h"
#include "model/kueue/kueue_codec.h"
#include "model/workload/workload_codec.h"
#include "sim/cluster_objects.h"
#include "sim/kube_documents.h"

namespace {

using nlohmann::json;
namespace m = chaintwin::model;

// One typed decoder per entry; the result is dropped (refusals are values).
void (*const kDecoders[])(const json&) = {
    [](const json& j) { (void)m::decode_devices(j); },
    [](const json& j) { (void)m::decode_node(j); },
    [](const json& j) { (void)m::decode_node_feature(j); },
    [](const json& j) { (void)m::decode_object_meta(j); },
    [](const json& j) { (void)m::decode_instance(j); },
    [](const json& j) { (void)m::decode_instance_type(j); },
    [](const json& j) { (void)m::decode_instance_type_flavor(j); },
    [](const json& j) { (void)m::decode_topology_source(j); },
    [](const json& j) { (void)m::decode_label_selector(j); },
    [](const json& j) { (void)m::decode_cluster_queue(j); },
    [](const json& j) { (void)m::decode_conditions(j); },
    [](const json& j) { (void)m::decode_resource_flavor(j); },
    [](const json& j) { (void)m::decode_local_queue(j); },
    [](const json& j) { (void)m::decode_admission_check(j); },
    [](const json& j) { (void)m::decode_topology(j); },
    [](const json& j) { (void)m::decode_namespace(j); },
    [](const json& j) { (void)m::decode_workload(j); },
    [](const json& j) { (void)m::decode_accelerator_allocation(j); },
    [](const json& j) { (void)m::decode_accelerator_status(j); },
    [](const json& j) {
      m::Settings settings;
      (void)m::apply_setting_object(settings, j);
    },
    [](const json& j) {
      (void)chaintwin::live::kueue_to_v1beta1(j);
      (void)chaintwin::live::kueue_to_v1beta2(j);
    },
    [](const json& j) {
      // The kind listed is picked by the reply's size, so every kind's decoding is reached.
      const auto kinds = chaintwin::live::watched_resources();
      chaintwin::live::ObservedCluster out;
      if (chaintwin::live::add_listed(out, j, kinds[j.size() % kinds.size()]).ok()) (void)chaintwin::live::decode_observed(out);
    },
    [](const json& j) { (void)chaintwin::live::resolve_resources(chaintwin::live::served_versions(j)); },
    [](const json& j) { (void)chaintwin::live::decode_cluster_role(j); },
    [](const json& j) {
      for (const char* kind : {"ClusterQueue", "InstanceType", "LocalQueue", "Devices", "Workload", "Setting", "Node"})
        (void)chaintwin::live::object_table(kind, {j}, "1");
    },
};
constexpr size_t kDecoderCount = sizeof(kDecoders) / sizeof(kDecoders[0]);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t pick = data[0] % (kDecoderCount + 1);
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (pick == 0) {
    auto objects = chaintwin::sim::parse_kubernetes_objects(text, "fuzz/objects.yaml");
    if (objects.ok()) (void)chaintwin::sim::read_cluster_objects(*objects, m::Settings{});
    return 0;
  }
  // The decoders take parsed JSON (the API server's and the documents reader's output).
  const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return 0;
  kDecoders[pick - 1](document);
  return 0;
}
