// A ClusterRole's rules and the check kube-apiserver's RBAC authorizer makes with them, for
// `serve --role TOKEN=ROLE.yaml`: a request bearing TOKEN may do only what the role allows, so the
// tests prove that the ClusterRoles shipped in docs/rbac/ are enough for each mode. A rule allows a
// request when its apiGroups, resources and verbs each contain the request's (or "*");
// resources name subresources as "<resource>/<subresource>". resourceNames and nonResourceURLs are
// not modelled (a rule with resourceNames is refused when read).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/result.h"

namespace chaintwin::live {

struct PolicyRule {
  std::vector<std::string> api_groups, resources, verbs;
};

struct ClusterRole {
  std::string name;
  std::vector<PolicyRule> rules;
};

// From a parsed ClusterRole document; errors name the field.
model::Result<ClusterRole> decode_cluster_role(const nlohmann::json& document);

// `resource` is "nodes" or "nodes/status"; `verb` one of get, list, watch, create, update, patch,
// delete.
bool allows(const ClusterRole& role, const std::string& api_group, const std::string& resource, const std::string& verb);

}  // namespace chaintwin::live
