// TopologySource JSON encoding and path-aware decoding.
#include "model/api/topology_source_codec.h"

#include "model/api/codec_support.h"
#include "model/kueue/condition_codec.h"
#include "model/api/object_meta_codec.h"

namespace chaintwin::model {
namespace {

using codec::json;

constexpr std::string_view kArms[] = {"nodeLabels", "configMap", "webhook"};

LabelSelector decode_selector_at(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  LabelSelector s;
  s.match_labels = codec::read_string_map(o, "matchLabels", path);
  const json& exprs = codec::read_array(o, "matchExpressions", path);
  const std::string ep = codec::member_path(path, "matchExpressions");
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    const std::string at = codec::index_path(ep, i);
    codec::expect_object(exprs[i], at);
    LabelSelectorRequirement r;
    r.key = codec::read_string(exprs[i], "key", at);
    r.operator_ = codec::read_string(exprs[i], "operator", at);
    if (r.operator_ != "In" && r.operator_ != "NotIn" && r.operator_ != "Exists" && r.operator_ != "DoesNotExist")
      codec::fail(codec::member_path(at, "operator"),
                  "expected \"In\", \"NotIn\", \"Exists\" or \"DoesNotExist\", got " + json(r.operator_).dump());
    r.values = codec::read_string_list(exprs[i], "values", at);
    s.match_expressions.push_back(std::move(r));
  }
  return s;
}

}  // namespace

json encode_label_selector(const LabelSelector& s) {
  json j = json::object();
  if (!s.match_labels.empty()) j["matchLabels"] = s.match_labels;
  if (!s.match_expressions.empty()) {
    auto& exprs = j["matchExpressions"] = json::array();
    for (const auto& r : s.match_expressions) {
      json o{{"key", r.key}, {"operator", r.operator_}};
      if (!r.values.empty()) o["values"] = r.values;
      exprs.push_back(std::move(o));
    }
  }
  return j;
}

Result<LabelSelector> decode_label_selector(const json& value) {
  try {
    return decode_selector_at(value, "");
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

json encode_topology_source(const TopologySource& ts) {
  json spec{{"nodeSelector", encode_label_selector(ts.node_selector)}, {"levels", ts.levels}};
  if (!ts.arm.empty()) spec[ts.arm] = json::object();
  json status = json::object();
  if (!ts.conditions.empty()) status["conditions"] = encode_conditions(ts.conditions);
  return {{"apiVersion", kWorkerApiVersion},
          {"kind", "TopologySource"},
          {"metadata", encode_object_meta(ts.metadata)},
          {"spec", std::move(spec)},
          {"status", std::move(status)}};
}

Result<TopologySource> decode_topology_source(const json& doc) {
  try {
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {kWorkerApiVersion, kWorkerApiVersionV1alpha1}, "TopologySource");
    TopologySource ts;
    if (const json* m = codec::find_member(doc, "metadata")) ts.metadata = codec::decode_object_meta_at(*m, "metadata");
    if (const json* spec = codec::find_member(doc, "spec")) {
      codec::expect_object(*spec, "spec");
      if (const json* sel = codec::find_member(*spec, "nodeSelector"))
        ts.node_selector = decode_selector_at(*sel, "spec.nodeSelector");
      ts.levels = codec::read_string_list(*spec, "levels", "spec");
      for (auto arm : kArms) {
        const json* a = codec::find_member(*spec, arm);
        if (a == nullptr) continue;
        const std::string path = codec::member_path("spec", arm);
        codec::expect_object(*a, path);
        if (!ts.arm.empty())
          codec::fail(path, "exactly one of nodeLabels, configMap or webhook may be set, but " + ts.arm + " is too");
        ts.arm = std::string(arm);
      }
    }
    if (const json* status = codec::find_member(doc, "status")) {
      codec::expect_object(*status, "status");
      if (const json* c = codec::find_member(*status, "conditions"))
        ts.conditions = codec::decode_conditions_at(*c, "status.conditions");
    }
    return ts;
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
