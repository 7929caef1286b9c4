#include "model/workload/workload_codec.h"

#include "model/kueue/condition_codec.h"
#include "model/node_codec.h"
#include "model/object_meta_codec.h"

namespace chaintwin::model {
namespace {

using json = nlohmann::json;

json encode_containers(const std::vector<Container>& containers) {
  json out = json::array();
  for (const auto& c : containers) out.push_back({{"name", c.name}, {"resources", {{"requests", encode_resource_list(c.requests)}}}});
  return out;
}

json encode_pod_set(const PodSet& ps) {
  json spec = {{"containers", encode_containers(ps.template_.containers)}};
  if (!ps.template_.init_containers.empty()) spec["initContainers"] = encode_containers(ps.template_.init_containers);
  if (!ps.template_.node_selector.empty()) spec["nodeSelector"] = ps.template_.node_selector;
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

}  // namespace chaintwin::model
