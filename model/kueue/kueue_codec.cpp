// ResourceFlavor, LocalQueue, AdmissionCheck, Topology and Namespace JSON encoding and
// path-aware decoding.
#include "model/kueue/kueue_codec.h"

#include <limits>

#include "model/api/codec_support.h"
#include "model/api/k8s_validation.h"
#include "model/kueue/condition_codec.h"
#include "model/kueue/fair_sharing_codec.h"
#include "model/api/object_meta_codec.h"

namespace chaintwin::model {
namespace {

using codec::json;

template <typename T, typename F>
Result<T> guarded(F&& decode) {
  try {
    return decode();
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

json envelope(std::string_view api_version, std::string_view kind, const ObjectMeta& meta) {
  return {{"apiVersion", api_version}, {"kind", kind}, {"metadata", encode_object_meta(meta)}};
}

// The document's metadata and its `spec` object (nullptr when absent).
const json* open_document(const json& doc, std::initializer_list<std::string_view> versions, std::string_view kind,
                          ObjectMeta& meta) {
  codec::expect_object(doc, "");
  codec::expect_type_meta(doc, versions, kind);
  if (const json* m = codec::find_member(doc, "metadata")) meta = codec::decode_object_meta_at(*m, "metadata");
  const json* spec = codec::find_member(doc, "spec");
  if (spec != nullptr) codec::expect_object(*spec, "spec");
  return spec;
}

// One of `allowed` (an empty value is accepted when `allow_empty`), else a path-named refusal.
std::string read_enum(const json& o, std::string_view key, const std::string& parent,
                      std::initializer_list<std::string_view> allowed, bool allow_empty) {
  std::string v = codec::read_string(o, key, parent);
  if (v.empty() && allow_empty) return v;
  std::string names;
  std::size_t i = 0;
  for (auto a : allowed) {
    if (v == a) return v;
    names += (i == 0 ? "" : (i + 1 == allowed.size() ? " or " : ", ")) + json(std::string(a)).dump();
    ++i;
  }
  codec::fail(codec::member_path(parent, key), "expected " + names + ", got " + json(v).dump());
}

json encode_toleration(const Toleration& t) {
  json j = json::object();
  if (!t.key.empty()) j["key"] = t.key;
  if (!t.operator_.empty()) j["operator"] = t.operator_;
  if (!t.value.empty()) j["value"] = t.value;
  if (!t.effect.empty()) j["effect"] = t.effect;
  return j;
}

std::string read_effect(const json& o, const std::string& parent, bool allow_empty) {
  return read_enum(o, "effect", parent, {"NoSchedule", "PreferNoSchedule", "NoExecute"}, allow_empty);
}

}  // namespace

// ---- ResourceFlavor ----------------------------------------------------------------------------

json encode_resource_flavor(const ResourceFlavor& rf) {
  json spec = json::object();
  if (!rf.spec.node_labels.empty()) spec["nodeLabels"] = rf.spec.node_labels;
  if (!rf.spec.node_taints.empty()) {
    auto& taints = spec["nodeTaints"] = json::array();
    for (const auto& t : rf.spec.node_taints) {
      json o{{"key", t.key}, {"effect", t.effect}};
      if (!t.value.empty()) o["value"] = t.value;
      taints.push_back(std::move(o));
    }
  }
  if (!rf.spec.tolerations.empty()) {
    auto& tolerations = spec["tolerations"] = json::array();
    for (const auto& t : rf.spec.tolerations) tolerations.push_back(encode_toleration(t));
  }
  if (!rf.spec.topology_name.empty()) spec["topologyName"] = rf.spec.topology_name;
  json j = envelope(kKueueApiVersion, "ResourceFlavor", rf.metadata);
  j["spec"] = std::move(spec);
  return j;
}

Result<ResourceFlavor> decode_resource_flavor(const json& doc) {
  return guarded<ResourceFlavor>([&] {
    ResourceFlavor rf;
    const json* spec = open_document(doc, {kKueueApiVersion, kKueueApiVersionV1beta1}, "ResourceFlavor", rf.metadata);
    if (spec == nullptr) return rf;
    rf.spec.node_labels = codec::read_string_map(*spec, "nodeLabels", "spec");
    const json& taints = codec::read_array(*spec, "nodeTaints", "spec");
    for (std::size_t i = 0; i < taints.size(); ++i) {
      const std::string at = codec::index_path("spec.nodeTaints", i);
      codec::expect_object(taints[i], at);
      Taint t;
      t.key = codec::read_string(taints[i], "key", at);
      if (t.key.empty()) codec::fail(codec::member_path(at, "key"), "must not be empty");
      t.value = codec::read_string(taints[i], "value", at);
      t.effect = read_effect(taints[i], at, false);
      rf.spec.node_taints.push_back(std::move(t));
    }
    const json& tolerations = codec::read_array(*spec, "tolerations", "spec");
    for (std::size_t i = 0; i < tolerations.size(); ++i) {
      const std::string at = codec::index_path("spec.tolerations", i);
      codec::expect_object(tolerations[i], at);
      Toleration t;
      t.key = codec::read_string(tolerations[i], "key", at);
      t.operator_ = read_enum(tolerations[i], "operator", at, {"Exists", "Equal"}, true);
      t.value = codec::read_string(tolerations[i], "value", at);
      t.effect = read_effect(tolerations[i], at, true);
      rf.spec.tolerations.push_back(std::move(t));
    }
    rf.spec.topology_name = codec::read_string(*spec, "topologyName", "spec");
    return rf;
  });
}

// ---- LocalQueue --------------------------------------------------------------------------------

json encode_local_queue(const LocalQueue& lq) {
  json j = envelope(kKueueApiVersion, "LocalQueue", lq.metadata);
  j["spec"] = {{"clusterQueue", lq.cluster_queue}};
  fair_sharing_codec::encode_weight(j["spec"], lq.fair_sharing_weight);
  return j;
}

Result<LocalQueue> decode_local_queue(const json& doc) {
  return guarded<LocalQueue>([&] {
    LocalQueue lq;
    const json* spec = open_document(doc, {kKueueApiVersion, kKueueApiVersionV1beta1}, "LocalQueue", lq.metadata);
    if (spec != nullptr) {
      lq.cluster_queue = codec::read_string(*spec, "clusterQueue", "spec");
      lq.fair_sharing_weight = fair_sharing_codec::decode_weight(*spec);
    }
    return lq;
  });
}

// ---- AdmissionCheck ----------------------------------------------------------------------------

json encode_admission_check(const AdmissionCheck& ac) {
  json spec{{"controllerName", ac.controller_name}};
  if (ac.retry_delay_minutes) spec["retryDelayMinutes"] = *ac.retry_delay_minutes;
  json j = envelope(kKueueApiVersion, "AdmissionCheck", ac.metadata);
  j["spec"] = std::move(spec);
  json status = json::object();
  if (!ac.conditions.empty()) status["conditions"] = encode_conditions(ac.conditions);
  j["status"] = std::move(status);
  return j;
}

Result<AdmissionCheck> decode_admission_check(const json& doc) {
  return guarded<AdmissionCheck>([&] {
    AdmissionCheck ac;
    const json* spec = open_document(doc, {kKueueApiVersion, kKueueApiVersionV1beta1}, "AdmissionCheck", ac.metadata);
    if (spec != nullptr) {
      ac.controller_name = codec::read_string(*spec, "controllerName", "spec");
      if (const json* r = codec::find_member(*spec, "retryDelayMinutes"))
        ac.retry_delay_minutes = codec::as_int(*r, "spec.retryDelayMinutes", 0, std::numeric_limits<int64_t>::max());
    }
    if (const json* status = codec::find_member(doc, "status")) {
      codec::expect_object(*status, "status");
      if (const json* c = codec::find_member(*status, "conditions"))
        ac.conditions = codec::decode_conditions_at(*c, "status.conditions");
    }
    return ac;
  });
}

// ---- Topology ----------------------------------------------------------------------------------

json encode_topology(const Topology& t) {
  json levels = json::array();
  for (const auto& l : t.levels) levels.push_back({{"nodeLabel", l}});
  json j = envelope(kKueueApiVersion, "Topology", t.metadata);
  j["spec"] = {{"levels", std::move(levels)}};
  return j;
}

Result<Topology> decode_topology(const json& doc) {
  return guarded<Topology>([&] {
    Topology t;
    const json* spec = open_document(doc, {kKueueApiVersion, kKueueApiVersionV1beta1, "kueue.x-k8s.io/v1alpha1"},
                                     "Topology", t.metadata);
    if (spec == nullptr) return t;
    const json& levels = codec::read_array(*spec, "levels", "spec");
    for (std::size_t i = 0; i < levels.size(); ++i) {
      const std::string at = codec::index_path("spec.levels", i);
      codec::expect_object(levels[i], at);
      std::string label = codec::read_string(levels[i], "nodeLabel", at);
      if (label.empty()) codec::fail(codec::member_path(at, "nodeLabel"), "must not be empty");
      // The CRD schema: a node label key (a qualified name).
      if (const std::string why = label_key_problem(label); !why.empty())
        codec::fail(codec::member_path(at, "nodeLabel"), "'" + label + "' is not a node label key: " + why);
      t.levels.push_back(std::move(label));
    }
    return t;
  });
}

// ---- Namespace ---------------------------------------------------------------------------------

json encode_namespace(const Namespace& ns) { return envelope("v1", "Namespace", ns.metadata); }

Result<Namespace> decode_namespace(const json& doc) {
  return guarded<Namespace>([&] {
    Namespace ns;
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {"v1"}, "Namespace");
    if (const json* m = codec::find_member(doc, "metadata")) ns.metadata = codec::decode_object_meta_at(*m, "metadata");
    return ns;
  });
}

}  // namespace chaintwin::model
