#include "live/cluster_role.h"
#include "live/json_members.h"

#include <algorithm>

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

std::vector<std::string> strings(const json& rule, const char* key, const std::string& at) {
  std::vector<std::string> out;
  if (!rule.contains(key)) return out;
  if (!rule[key].is_array()) throw std::runtime_error(at + "." + key + ": expected a list of strings");
  for (const auto& v : rule[key]) {
    if (!v.is_string()) throw std::runtime_error(at + "." + key + ": expected a list of strings, got " + v.dump());
    out.push_back(v.get<std::string>());
  }
  return out;
}

bool has(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end() ||
         std::find(list.begin(), list.end(), "*") != list.end();
}

}  // namespace

model::Result<ClusterRole> decode_cluster_role(const json& document) {
  if (string_member(document, "kind") != "ClusterRole" || string_member(document, "apiVersion") != "rbac.authorization.k8s.io/v1")
    return model::err("expected a ClusterRole (rbac.authorization.k8s.io/v1)");
  ClusterRole role;
  role.name = string_member(object_member(document, "metadata"), "name");
  const json rules = document.contains("rules") ? document["rules"] : json::array();
  if (!rules.is_array()) return model::err("rules: expected a list");
  try {
    for (size_t i = 0; i < rules.size(); ++i) {
      const std::string at = "rules[" + std::to_string(i) + "]";
      if (!rules[i].is_object()) return model::err(at + ": expected a rule");
      if (rules[i].contains("resourceNames") || rules[i].contains("nonResourceURLs"))
        return model::err(at + ": resourceNames and nonResourceURLs are not modelled");
      role.rules.push_back({strings(rules[i], "apiGroups", at), strings(rules[i], "resources", at), strings(rules[i], "verbs", at)});
    }
  } catch (const std::runtime_error& e) {
    return model::err(e.what());
  }
  return role;
}

bool allows(const ClusterRole& role, const std::string& api_group, const std::string& resource, const std::string& verb) {
  return std::any_of(role.rules.begin(), role.rules.end(), [&](const PolicyRule& r) {
    return has(r.api_groups, api_group) && has(r.resources, resource) && has(r.verbs, verb);
  });
}

}  // namespace chaintwin::live
