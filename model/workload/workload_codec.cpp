#include "model/workload/workload_codec.h"

#include <cstdint>

#include "model/api/codec_support.h"

#include "model/kueue/condition_codec.h"
#include "model/api/node_codec.h"
#include "model/api/object_meta_codec.h"
#include "model/workload/priority_class.h"

namespace chaintwin::model {
namespace {

using json = nlohmann::json;

json encode_containers(const std::vector<Container>& containers) {
  json out = json::array();
  for (const auto& c : containers) {
    json x = {{"name", c.name}, {"resources", {{"requests", encode_resource_list(c.requests)}}}};
    if (c.restartable) x["restartPolicy"] = "Always";
    out.push_back(std::move(x));
  }
  return out;
}

json encode_requirements(const std::vector<NodeSelectorRequirement>& list) {
  json out = json::array();
  for (const auto& r : list) {
    json x = {{"key", r.key}, {"operator", r.op}};
    if (!r.values.empty()) x["values"] = r.values;
    out.push_back(std::move(x));
  }
  return out;
}

json encode_affinity(const std::vector<NodeSelectorTerm>& terms) {
  json out = json::array();
  for (const auto& t : terms) {
    json x = json::object();
    if (!t.match_expressions.empty()) x["matchExpressions"] = encode_requirements(t.match_expressions);
    if (!t.match_fields.empty()) x["matchFields"] = encode_requirements(t.match_fields);
    out.push_back(std::move(x));
  }
  return {{"nodeAffinity", {{"requiredDuringSchedulingIgnoredDuringExecution", {{"nodeSelectorTerms", out}}}}}};
}

json encode_tolerations(const std::vector<Toleration>& list) {
  json out = json::array();
  for (const auto& t : list) {
    json x = json::object();
    if (!t.key.empty()) x["key"] = t.key;
    if (!t.operator_.empty()) x["operator"] = t.operator_;
    if (!t.value.empty()) x["value"] = t.value;
    if (!t.effect.empty()) x["effect"] = t.effect;
    out.push_back(std::move(x));
  }
  return out;
}

json encode_pod_set(const PodSet& ps) {
  json spec = {{"containers", encode_containers(ps.template_.containers)}};
  if (!ps.template_.init_containers.empty()) spec["initContainers"] = encode_containers(ps.template_.init_containers);
  if (!ps.template_.node_selector.empty()) spec["nodeSelector"] = ps.template_.node_selector;
  if (!ps.template_.tolerations.empty()) spec["tolerations"] = encode_tolerations(ps.template_.tolerations);
  if (!ps.template_.required_node_affinity.empty()) spec["affinity"] = encode_affinity(ps.template_.required_node_affinity);
  json tmpl = {{"spec", spec}};
  if (!ps.template_.labels.empty()) tmpl["metadata"]["labels"] = ps.template_.labels;
  if (!ps.template_.annotations.empty()) tmpl["metadata"]["annotations"] = ps.template_.annotations;
  json out = {{"name", ps.name}, {"count", ps.count}, {"template", tmpl}};
  if (!ps.required_topology_level.empty()) out["topologyRequest"] = {{"required", ps.required_topology_level}};
  return out;
}

json encode_admission(const Admission& a) {
  json assignments = json::array();
  for (const auto& psa : a.pod_set_assignments) {
    json x = {{"name", psa.name}, {"flavors", psa.flavors}, {"resourceUsage", encode_resource_list(psa.resource_usage)}, {"count", psa.count}};
    if (psa.topology_assignment) {
      json domains = json::array();
      for (const auto& d : psa.topology_assignment->domains) domains.push_back({{"values", d.values}, {"count", d.count}});
      x["topologyAssignment"] = {{"levels", psa.topology_assignment->levels}, {"domains", domains}};
    }
    assignments.push_back(std::move(x));
  }
  return {{"clusterQueue", a.cluster_queue}, {"podSetAssignments", assignments}};
}

}  // namespace

json encode_workload(const Workload& w) {
  json pod_sets = json::array();
  for (const auto& ps : w.pod_sets) pod_sets.push_back(encode_pod_set(ps));
  json o = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
            {"kind", "Workload"},
            {"metadata", encode_object_meta(w.metadata)},
            {"spec", {{"queueName", w.queue_name}, {"priority", w.priority}, {"active", w.active}, {"podSets", pod_sets}}}};
  if (w.priority_class_ref)
    o["spec"]["priorityClassRef"] = {
        {"group", w.priority_class_ref->group}, {"kind", w.priority_class_ref->kind}, {"name", w.priority_class_ref->name}};
  json status = json::object();
  if (w.status.admission) status["admission"] = encode_admission(*w.status.admission);
  if (!w.status.conditions.empty()) status["conditions"] = encode_conditions(w.status.conditions);
  if (!w.status.admission_checks.empty()) {
    json checks = json::array();
    for (const auto& c : w.status.admission_checks)
      checks.push_back({{"name", c.name}, {"state", std::string(to_string(c.state))}, {"message", c.message}});
    status["admissionChecks"] = checks;
  }
  if (!status.empty()) o["status"] = status;
  return o;
}

namespace {

// Decoding: every reader throws codec::DecodeError naming the field's path.
using codec::find_member;

Container decode_container(const json& o, const std::string& path, bool init) {
  codec::expect_object(o, path);
  Container c;
  c.name = codec::read_string(o, "name", path);
  if (const json* resources = find_member(o, "resources")) {
    const std::string at = codec::member_path(path, "resources");
    codec::expect_object(*resources, at);
    if (const json* r = find_member(*resources, "requests")) c.requests = codec::decode_resource_list_at(*r, codec::member_path(at, "requests"));
    // The API server defaults a missing request to its limit; a template is never defaulted, so
    // the reader does what the server will do to the Pods.
    if (const json* l = find_member(*resources, "limits"))
      for (auto& [name, q] : codec::decode_resource_list_at(*l, codec::member_path(at, "limits"))) c.requests.emplace(name, q);
  }
  c.restartable = init && codec::read_string(o, "restartPolicy", path) == "Always";
  return c;
}

NodeSelectorRequirement decode_requirement(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  return {codec::read_string(o, "key", path), codec::read_string(o, "operator", path),
          codec::read_string_list(o, "values", path)};
}

NodeSelectorTerm decode_term(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  return {codec::read_list(o, "matchExpressions", path, decode_requirement),
          codec::read_list(o, "matchFields", path, decode_requirement)};
}

Toleration decode_toleration(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  return {codec::read_string(o, "key", path), codec::read_string(o, "operator", path),
          codec::read_string(o, "value", path), codec::read_string(o, "effect", path)};
}

PodSet decode_pod_set(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  PodSet ps;
  ps.name = codec::read_string(o, "name", path);
  if (ps.name.empty()) codec::fail(codec::member_path(path, "name"), "must not be empty");
  ps.count = find_member(o, "count") ? static_cast<int32_t>(codec::read_int(o, "count", path, 0, INT32_MAX)) : 1;
  const std::string tpath = codec::member_path(path, "template");
  if (const json* t = find_member(o, "template")) {
    codec::expect_object(*t, tpath);
    if (const json* m = find_member(*t, "metadata")) {
      const std::string mpath = codec::member_path(tpath, "metadata");
      codec::expect_object(*m, mpath);
      ps.template_.labels = codec::read_string_map(*m, "labels", mpath);
      ps.template_.annotations = codec::read_string_map(*m, "annotations", mpath);
    }
    if (const json* spec = find_member(*t, "spec")) {
      const std::string spath = codec::member_path(tpath, "spec");
      codec::expect_object(*spec, spath);
      ps.template_.containers = codec::read_list(*spec, "containers", spath,
                                                 [](const json& c, const std::string& p) { return decode_container(c, p, false); });
      ps.template_.init_containers = codec::read_list(*spec, "initContainers", spath,
                                                      [](const json& c, const std::string& p) { return decode_container(c, p, true); });
      ps.template_.node_selector = codec::read_string_map(*spec, "nodeSelector", spath);
      ps.template_.tolerations = codec::read_list(*spec, "tolerations", spath, decode_toleration);
      const json* affinity = find_member(*spec, "affinity");
      const json* node_affinity = affinity != nullptr && affinity->is_object() ? find_member(*affinity, "nodeAffinity") : nullptr;
      const json* required = node_affinity != nullptr && node_affinity->is_object()
                                 ? find_member(*node_affinity, "requiredDuringSchedulingIgnoredDuringExecution")
                                 : nullptr;
      if (required != nullptr)
        ps.template_.required_node_affinity = codec::read_list(
            *required, "nodeSelectorTerms",
            spath + ".affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution", decode_term);
    }
  }
  if (const json* tr = find_member(o, "topologyRequest")) {
    codec::expect_object(*tr, codec::member_path(path, "topologyRequest"));
    ps.required_topology_level = codec::read_string(*tr, "required", codec::member_path(path, "topologyRequest"));
  }
  if (ps.required_topology_level.empty()) {
    const auto a = ps.template_.annotations.find(std::string(kPodSetRequiredTopologyAnnotation));
    if (a != ps.template_.annotations.end()) ps.required_topology_level = a->second;
  }
  return ps;
}

TopologyAssignment decode_topology_assignment(const json& o, const std::string& path) {
  TopologyAssignment t;
  t.levels = codec::read_string_list(o, "levels", path);
  t.domains = codec::read_list(o, "domains", path, [](const json& d, const std::string& p) {
    codec::expect_object(d, p);
    return TopologyDomainAssignment{codec::read_string_list(d, "values", p),
                                    static_cast<int32_t>(codec::read_int(d, "count", p, 0, INT32_MAX))};
  });
  return t;
}

PodSetAssignment decode_assignment(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  PodSetAssignment a;
  a.name = codec::read_string(o, "name", path);
  for (const auto& [resource, flavor] : codec::read_string_map(o, "flavors", path)) a.flavors[resource] = flavor;
  if (const json* u = find_member(o, "resourceUsage")) a.resource_usage = codec::decode_resource_list_at(*u, codec::member_path(path, "resourceUsage"));
  a.count = static_cast<int32_t>(codec::read_int(o, "count", path, 0, INT32_MAX));
  if (const json* t = find_member(o, "topologyAssignment")) {
    codec::expect_object(*t, codec::member_path(path, "topologyAssignment"));
    // Kueue's compact encoding of many domains (slices) is not read: the model keeps the admission
    // without it, which the chain reads only for TAS queues the operator creates afresh.
    if (find_member(*t, "domains") != nullptr) a.topology_assignment = decode_topology_assignment(*t, codec::member_path(path, "topologyAssignment"));
  }
  return a;
}

AdmissionCheckState decode_check_state(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  AdmissionCheckState c;
  c.name = codec::read_string(o, "name", path);
  const std::string state = codec::read_string(o, "state", path);
  bool known = false;
  for (const CheckState s : {CheckState::kPending, CheckState::kReady, CheckState::kRetry, CheckState::kRejected})
    if (to_string(s) == state) c.state = s, known = true;
  if (!known)
    codec::fail(codec::member_path(path, "state"), "expected Pending, Ready, Retry or Rejected, got " + json(state).dump());
  c.message = codec::read_string(o, "message", path);
  return c;
}

Workload decode_workload_at(const json& document) {
  codec::expect_object(document, "");
  codec::expect_type_meta(document, {"kueue.x-k8s.io/v1beta2", "kueue.x-k8s.io/v1beta1"}, "Workload");
  Workload w;
  const json* meta = find_member(document, "metadata");
  if (meta == nullptr) codec::fail("metadata", "is required");
  w.metadata = codec::decode_object_meta_at(*meta, "metadata");
  const json* spec = find_member(document, "spec");
  if (spec == nullptr) codec::fail("spec", "is required");
  codec::expect_object(*spec, "spec");
  w.queue_name = codec::read_string(*spec, "queueName", "spec");
  w.priority = static_cast<int32_t>(codec::read_int(*spec, "priority", "spec", INT32_MIN, INT32_MAX));
  if (const json* ref = find_member(*spec, "priorityClassRef"); ref != nullptr && !ref->is_null()) {
    codec::expect_object(*ref, "spec.priorityClassRef");
    PriorityClassRef r{codec::read_string(*ref, "group", "spec.priorityClassRef"),
                       codec::read_string(*ref, "kind", "spec.priorityClassRef"),
                       codec::read_string(*ref, "name", "spec.priorityClassRef")};
    // Kueue's CEL rules on the reference.
    if (!((r.group == "kueue.x-k8s.io" && r.kind == "WorkloadPriorityClass") ||
          (r.group == "scheduling.k8s.io" && r.kind == "PriorityClass")))
      codec::fail("spec.priorityClassRef", "group '" + r.group + "' and kind '" + r.kind +
                                               "': expected kueue.x-k8s.io/WorkloadPriorityClass or "
                                               "scheduling.k8s.io/PriorityClass");
    if (r.name.empty()) codec::fail("spec.priorityClassRef.name", "Required value");
    w.priority_class_ref = std::move(r);
  } else if (const std::string source = codec::read_string(*spec, "priorityClassSource", "spec"); !source.empty()) {
    w.priority_class_ref = priority_class_ref(source, codec::read_string(*spec, "priorityClassName", "spec"));  // v1beta1
  }
  w.active = find_member(*spec, "active") == nullptr || codec::read_bool(*spec, "active", "spec");  // nil reads as true
  w.pod_sets = codec::read_list(*spec, "podSets", "spec", decode_pod_set);
  if (w.pod_sets.empty()) codec::fail("spec.podSets", "must have at least one PodSet");
  if (const json* status = find_member(document, "status")) {
    codec::expect_object(*status, "status");
    if (const json* a = find_member(*status, "admission")) {
      codec::expect_object(*a, "status.admission");
      Admission admission;
      admission.cluster_queue = codec::read_string(*a, "clusterQueue", "status.admission");
      admission.pod_set_assignments = codec::read_list(*a, "podSetAssignments", "status.admission", decode_assignment);
      w.status.admission = std::move(admission);
    }
    if (const json* c = find_member(*status, "conditions")) w.status.conditions = codec::decode_conditions_at(*c, "status.conditions");
    w.status.admission_checks = codec::read_list(*status, "admissionChecks", "status", decode_check_state);
  }
  return w;
}

}  // namespace

Result<Workload> decode_workload(const json& document) {
  try {
    return decode_workload_at(document);
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
