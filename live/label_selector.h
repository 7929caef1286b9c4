// The `labelSelector` of a list or watch, as kube-apiserver reads it (k8s.io/apimachinery's
// labels.Parse): comma-separated requirements, all of which must hold — `k=v`, `k==v`, `k!=v`,
// `k in (a,b)`, `k notin (a,b)`, `k` (exists), `!k` (does not exist), `k>3`, `k<3` (integers). Keys
// must be label keys and values label values. A selector that does not parse is refused with
// kube's wording ("unable to parse requirement: ..."), which `serve` answers as 400 BadRequest.
// Called by KubeApiServer for every list and watch; pure, no I/O.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"

namespace chaintwin::live {

using Labels = std::map<std::string, std::string, std::less<>>;

struct LabelRequirement {
  enum class Op { kIn, kNotIn, kEquals, kDoubleEquals, kNotEquals, kExists, kDoesNotExist, kGreaterThan, kLessThan };
  std::string key;
  Op op = Op::kExists;
  std::vector<std::string> values;  // sorted, no duplicates (as Go's string set)
  bool matches(const Labels& labels) const;
};

struct LabelSelector {
  std::vector<LabelRequirement> requirements;  // sorted by key, as kube sorts them
  bool empty() const { return requirements.empty(); }
  bool matches(const Labels& labels) const;
};

// The selector, or why not in kube-apiserver's words. The empty text selects everything.
model::Result<LabelSelector> parse_label_selector(std::string_view text);

}  // namespace chaintwin::live
