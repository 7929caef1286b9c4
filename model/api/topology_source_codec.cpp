// TopologySource JSON encoding and path-aware decoding.
#include "model/api/topology_source_codec.h"

#include <cstdint>
#include <limits>

#include "model/api/codec_support.h"
#include "model/api/go_duration.h"
#include "model/kueue/condition_codec.h"
#include "model/api/object_meta_codec.h"
#include "model/api/rfc3339.h"
#include "model/api/codec_support.h"
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

TopologySourceObjectReference decode_reference_at(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  return {codec::read_string(o, "namespace", path), codec::read_string(o, "name", path)};
}

std::optional<TopologySourceObjectReference> read_reference(const json& o, std::string_view key,
                                                            const std::string& parent) {
  const json* r = codec::find_member(o, key);
  if (r == nullptr) return std::nullopt;
  return decode_reference_at(*r, codec::member_path(parent, key));
}

// A metav1.Duration member ("10m", "1h30m"); absent reads as 0.
int64_t read_duration(const json& o, std::string_view key, const std::string& parent) {
  const json* d = codec::find_member(o, key);
  if (d == nullptr) return 0;
  const std::string path = codec::member_path(parent, key);
  const auto us = parse_go_duration(codec::as_string(*d, path));
  if (!us.ok()) codec::fail(path, us.error());
  return *us;
}

TopologySourceConfigMap decode_config_map_at(const json& o, const std::string& path) {
  TopologySourceConfigMap c;
  if (auto r = read_reference(o, "configMapRef", path)) c.config_map_ref = *r;
  c.key = codec::read_string(o, "key", path);
  c.max_staleness_us = read_duration(o, "maxStaleness", path);
  return c;
}

TopologySourceWebhook decode_webhook_at(const json& o, const std::string& path) {
  TopologySourceWebhook w;
  w.url = codec::read_string(o, "url", path);
  w.poll_interval_us = read_duration(o, "pollInterval", path);
  w.timeout_us = read_duration(o, "timeout", path);
  w.max_staleness_us = read_duration(o, "maxStaleness", path);
  w.ca_bundle_config_map_ref = read_reference(o, "caBundleConfigMapRef", path);
  w.bearer_token_secret_ref = read_reference(o, "bearerTokenSecretRef", path);
  w.tls_client_certificate_secret_ref = read_reference(o, "tlsClientCertificateSecretRef", path);
  return w;
}

json encode_reference(const TopologySourceObjectReference& r) { return {{"namespace", r.namespace_}, {"name", r.name}}; }

json encode_arm(const TopologySource& ts) {
  json arm = json::object();
  if (ts.arm == "configMap" && ts.config_map) {
    const auto& c = *ts.config_map;
    arm = {{"configMapRef", encode_reference(c.config_map_ref)},
           {"key", c.key},
           {"maxStaleness", format_go_duration(c.max_staleness_us)}};
  } else if (ts.arm == "webhook" && ts.webhook) {
    const auto& w = *ts.webhook;
    arm = {{"url", w.url},
           {"pollInterval", format_go_duration(w.poll_interval_us)},
           {"timeout", format_go_duration(w.timeout_us)},
           {"maxStaleness", format_go_duration(w.max_staleness_us)}};
    if (w.ca_bundle_config_map_ref) arm["caBundleConfigMapRef"] = encode_reference(*w.ca_bundle_config_map_ref);
    if (w.bearer_token_secret_ref) arm["bearerTokenSecretRef"] = encode_reference(*w.bearer_token_secret_ref);
    if (w.tls_client_certificate_secret_ref)
      arm["tlsClientCertificateSecretRef"] = encode_reference(*w.tls_client_certificate_secret_ref);
  }
  return arm;
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
  if (!ts.additional_write_prefix.empty()) spec["additionalWritePrefix"] = ts.additional_write_prefix;
  if (!ts.arm.empty()) spec[ts.arm] = encode_arm(ts);
  json status = json::object();
  const TopologySourceStatus& st = ts.status;
  if (st.observed_generation != 0) status["observedGeneration"] = st.observed_generation;
  if (!st.source_kind.empty()) status["sourceKind"] = st.source_kind;
  if (!st.last_successful_revision.empty()) status["lastSuccessfulRevision"] = st.last_successful_revision;
  if (!st.last_successful_refresh_time.empty()) status["lastSuccessfulRefreshTime"] = st.last_successful_refresh_time;
  if (st.selected_nodes != 0) status["selectedNodes"] = st.selected_nodes;
  if (st.mutated_nodes != 0) status["mutatedNodes"] = st.mutated_nodes;
  if (st.conflicted_nodes != 0) status["conflictedNodes"] = st.conflicted_nodes;
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
      ts.additional_write_prefix = codec::read_string(*spec, "additionalWritePrefix", "spec");
      for (auto arm : kArms) {
        const json* a = codec::find_member(*spec, arm);
        if (a == nullptr) continue;
        const std::string path = codec::member_path("spec", arm);
        codec::expect_object(*a, path);
        if (!ts.arm.empty())
          codec::fail(path, "exactly one of nodeLabels, configMap or webhook may be set, but " + ts.arm + " is too");
        ts.arm = std::string(arm);
        if (arm == "configMap") ts.config_map = decode_config_map_at(*a, path);
        if (arm == "webhook") ts.webhook = decode_webhook_at(*a, path);
      }
    }
    if (const json* status = codec::find_member(doc, "status")) {
      codec::expect_object(*status, "status");
      TopologySourceStatus& st = ts.status;
      constexpr int64_t kMaxCount = std::numeric_limits<int32_t>::max();
      st.observed_generation =
          codec::read_int(*status, "observedGeneration", "status", 0, std::numeric_limits<int64_t>::max());
      st.source_kind = codec::read_string(*status, "sourceKind", "status");
      st.last_successful_revision = codec::read_string(*status, "lastSuccessfulRevision", "status");
      st.last_successful_refresh_time = codec::read_string(*status, "lastSuccessfulRefreshTime", "status");
      if (!st.last_successful_refresh_time.empty() && !parse_rfc3339(st.last_successful_refresh_time))
        codec::fail("status.lastSuccessfulRefreshTime",
                    "expected an RFC 3339 time, got " + json(st.last_successful_refresh_time).dump());
      st.selected_nodes = static_cast<int32_t>(codec::read_int(*status, "selectedNodes", "status", 0, kMaxCount));
      st.mutated_nodes = static_cast<int32_t>(codec::read_int(*status, "mutatedNodes", "status", 0, kMaxCount));
      st.conflicted_nodes = static_cast<int32_t>(codec::read_int(*status, "conflictedNodes", "status", 0, kMaxCount));
      if (const json* c = codec::find_member(*status, "conditions"))
        ts.conditions = codec::decode_conditions_at(*c, "status.conditions");
    }
    return ts;
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
