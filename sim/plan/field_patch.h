// Writing a plan variable's value into the base scenario document: a field path such as
// `cluster.nodes[h100-0].count` or `workloads[h100-chat].podSets[0].request` is walked from the
// document's root — `.key` enters a mapping, `[N]` takes a list's N-th entry, `[text]` the list
// entry whose `name` (or `namePrefix`) is text, or the mapping key text (quote keys with dots:
// `labels["topology.kubernetes.io/zone"]`). The value then replaces the field, or is merged into
// it when both are mappings (JSON merge patch: a null removes a key).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/result.h"
#include "sim/plan/plan.h"

namespace chaintwin::sim::plan {

// One step of a field path.
struct PathStep {
  enum class Kind { kKey, kIndex, kSelector };
  Kind kind = Kind::kKey;
  std::string text;  // key or selector
  size_t index = 0;
};

// Splits a field path; refuses an empty path, an empty key or an unclosed bracket.
model::Result<std::vector<PathStep>> parse_field_path(const std::string& path);

// Applies one patch to `document`. Intermediate mappings that do not exist yet are created; a
// list entry that does not exist is an error naming the path and the entries there are.
model::Status apply_patch(nlohmann::json& document, const FieldPatch& patch);

// RFC 7386 merge patch of `patch` into `target`.
void merge_patch(nlohmann::json& target, const nlohmann::json& patch);

}  // namespace chaintwin::sim::plan
