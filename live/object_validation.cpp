#include "live/object_validation.h"

#include "live/go_strconv.h"
#include "model/api/k8s_validation.h"
#include "model/api/quantity.h"

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

constexpr size_t kMaxAnnotationBytes = 256 * 1024;  // kube's total for keys and values
// The pattern the CRDs' int-or-string quantity fields carry (Kueue's and the PodTemplate's).
constexpr const char* kQuantityPattern =
    R"(^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$)";

// A value as a refusal quotes it: long ones cut (a 2 MB label value is not sent back whole).
std::string shown(std::string_view value) {
  constexpr size_t kShown = 128;
  if (value.size() <= kShown) return go_quote(value);
  return go_quote(value.substr(0, kShown)) + "... (" + std::to_string(value.size()) + " bytes)";
}

struct Checker {
  std::vector<FieldCause> causes;
  void invalid(std::string field, std::string_view value, const std::string& why) {
    causes.push_back({"FieldValueInvalid", std::move(field), "Invalid value: " + shown(value) + ": " + why});
  }
  void required(std::string field, std::string why) {
    causes.push_back({"FieldValueRequired", std::move(field), "Required value: " + std::move(why)});
  }
  // An int-or-string quantity field of a CRD.
  void quantity(const std::string& field, const json& v) {
    if (v.is_number()) return;
    const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    if (!quantity_text_ok(text)) invalid(field, text, field + " in body should match '" + kQuantityPattern + "'");
  }
  static bool quantity_text_ok(const std::string& text) {
    const auto q = model::Quantity::parse(text);
    // model::Quantity holds int64 mantissas; kube's holds any size: too large is still well formed.
    return q.ok() || q.error().find("is too large") != std::string::npos;
  }
};

// The array at `key` of `o` (empty when absent or not an array).
const json& items_at(const json& o, const char* key) {
  static const json kNone = json::array();
  if (!o.is_object()) return kNone;
  const auto it = o.find(key);
  return it != o.end() && it->is_array() ? *it : kNone;
}
const json& object_at(const json& o, const char* key) {
  static const json kNone = json::object();
  if (!o.is_object()) return kNone;
  const auto it = o.find(key);
  return it != o.end() && it->is_object() ? *it : kNone;
}

void check_metadata(Checker& c, std::string_view kind, const json& meta) {
  const std::string name = meta.contains("name") && meta["name"].is_string() ? meta["name"].get<std::string>() : "";
  if (name.empty()) {
    c.required("metadata.name", "name or generateName is required");
  } else if (const std::string why = kind == "Namespace" ? model::dns1123_label_problem(name) : model::dns1123_subdomain_problem(name);
             !why.empty()) {
    c.invalid("metadata.name", name, why);
  }
  for (const auto& [k, v] : object_at(meta, "labels").items()) {
    if (const std::string why = model::label_key_problem(k); !why.empty()) c.invalid("metadata.labels", k, why);
    if (!v.is_string()) c.invalid("metadata.labels", v.dump(), "a label value must be a string");
    else if (const std::string why = model::label_value_problem(v.get<std::string>()); !why.empty())
      c.invalid("metadata.labels", v.get<std::string>(), why);
  }
  size_t annotation_bytes = 0;
  for (const auto& [k, v] : object_at(meta, "annotations").items()) {
    if (const std::string why = model::label_key_problem(k); !why.empty()) c.invalid("metadata.annotations", k, why);
    annotation_bytes += k.size() + (v.is_string() ? v.get<std::string>().size() : 0);
  }
  if (annotation_bytes > kMaxAnnotationBytes)
    c.causes.push_back({"FieldValueTooLong", "metadata.annotations",
                        "Too long: may not be more than " + std::to_string(kMaxAnnotationBytes) + " bytes"});
}

void check_cluster_queue(Checker& c, const json& object) {
  const json& groups = items_at(object_at(object, "spec"), "resourceGroups");
  for (size_t g = 0; g < groups.size(); ++g) {
    const json& flavors = items_at(groups[g], "flavors");
    for (size_t f = 0; f < flavors.size(); ++f) {
      const json& resources = items_at(flavors[f], "resources");
      for (size_t r = 0; r < resources.size(); ++r)
        for (const char* q : {"nominalQuota", "borrowingLimit", "lendingLimit"})
          if (resources[r].is_object() && resources[r].contains(q))
            c.quantity("spec.resourceGroups[" + std::to_string(g) + "].flavors[" + std::to_string(f) + "].resources[" +
                           std::to_string(r) + "]." + q,
                       resources[r][q]);
    }
  }
}

void check_workload(Checker& c, const json& object) {
  const json& pod_sets = items_at(object_at(object, "spec"), "podSets");
  for (size_t p = 0; p < pod_sets.size(); ++p) {
    const json& pod = object_at(object_at(pod_sets[p], "template"), "spec");
    for (const char* list : {"initContainers", "containers"}) {
      const json& containers = items_at(pod, list);
      for (size_t i = 0; i < containers.size(); ++i)
        for (const char* part : {"requests", "limits"})
          for (const auto& [resource, q] : object_at(object_at(containers[i], "resources"), part).items())
            c.quantity("spec.podSets[" + std::to_string(p) + "].template.spec." + list + "[" + std::to_string(i) +
                           "].resources." + part + "." + resource,
                       q);
    }
  }
}

// A Node whose capacity or allocatable does not parse cannot be decoded at all.
std::optional<ObjectRefusal> undecodable_node(const json& object) {
  const json& status = object_at(object, "status");
  for (const char* part : {"capacity", "allocatable"})
    for (const auto& [resource, q] : object_at(status, part).items()) {
      const bool ok = q.is_number() || q.is_null() || (q.is_string() && Checker::quantity_text_ok(q.get<std::string>()));
      if (!ok)
        return ObjectRefusal{400, "BadRequest",
                             "Node in version \"v1\" cannot be handled as a Node: quantities must match the regular "
                             "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                             {}};
    }
  return std::nullopt;
}

}  // namespace

nlohmann::json ObjectRefusal::status(std::string_view group, std::string_view kind, std::string_view name) const {
  json body = {{"kind", "Status"},     {"apiVersion", "v1"}, {"metadata", json::object()},
               {"status", "Failure"},  {"message", message}, {"reason", reason},
               {"code", code}};
  if (causes.empty()) return body;
  json list = json::array();
  for (const auto& c : causes) list.push_back({{"reason", c.reason}, {"message", c.message}, {"field", c.field}});
  body["details"] = {{"name", std::string(name)}, {"kind", std::string(kind)}, {"causes", list}};
  if (!group.empty()) body["details"]["group"] = std::string(group);
  return body;
}

std::optional<ObjectRefusal> validate_object(std::string_view group, std::string_view kind, const nlohmann::json& object) {
  if (kind == "Node")
    if (auto r = undecodable_node(object)) return r;
  Checker c;
  const json& meta = object_at(object, "metadata");
  check_metadata(c, kind, meta);
  if (kind == "ClusterQueue") check_cluster_queue(c, object);
  if (kind == "Workload") check_workload(c, object);
  if (c.causes.empty()) return std::nullopt;
  // kube's wording: `Kind.group "name" is invalid: field: message` (several in brackets).
  const std::string name = meta.contains("name") && meta["name"].is_string() ? meta["name"].get<std::string>() : "";
  std::string message = std::string(kind) + (group.empty() ? "" : "." + std::string(group)) + " " + go_quote(name) + " is invalid: ";
  if (c.causes.size() > 1) message += "[";
  for (size_t i = 0; i < c.causes.size(); ++i)
    message += (i ? ", " : "") + c.causes[i].field + ": " + c.causes[i].message;
  if (c.causes.size() > 1) message += "]";
  return ObjectRefusal{422, "Invalid", message, std::move(c.causes)};
}

}  // namespace chaintwin::live
