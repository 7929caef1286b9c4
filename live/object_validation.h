// What `chaintwin serve` checks in an object written to it before storing it, as kube-apiserver
// would: metadata.name present and a DNS-1123 subdomain (a label for Namespaces), label keys and
// values and annotation keys well formed, and quantities that parse — a Node's status.capacity and
// status.allocatable (kube cannot decode such a Node: 400 BadRequest), a ClusterQueue's quotas and a
// Workload's container requests and limits (the CRD schema refuses them: 422 Invalid). Called by
// ServedObjects on every create, replace and patch; pure. The rules themselves are model/api's
// (k8s_validation.h, quantity.h); this file only says which fields they apply to and how kube words
// a refusal.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace chaintwin::live {

// One field's problem: reason FieldValueInvalid or FieldValueRequired, as a Status cause.
struct FieldCause {
  std::string reason, field, message;  // message without the field: `Invalid value: "x": why`
};

// A refused object: 422 Invalid with its causes, or 400 BadRequest (`causes` empty).
struct ObjectRefusal {
  int code = 422;
  std::string reason = "Invalid";
  std::string message;
  std::vector<FieldCause> causes;
  // The Status body kube sends for it (details with name, group, kind and causes for 422).
  nlohmann::json status(std::string_view group, std::string_view kind, std::string_view name) const;
};

// The problems of `object` (of `kind`, in API group `group`), or nullopt when it may be stored.
std::optional<ObjectRefusal> validate_object(std::string_view group, std::string_view kind, const nlohmann::json& object);

}  // namespace chaintwin::live
