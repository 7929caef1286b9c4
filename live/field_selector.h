// The `fieldSelector` of a list or watch, as kube-apiserver reads it (k8s.io/apimachinery's
// fields.ParseSelector): comma-separated terms `field=value`, `field==value`, `field!=value`, all of
// which must hold; `\,` `\=` `\\` escape in values. Which fields a kind may be selected by is kube's
// per kind: metadata.name everywhere, metadata.namespace for namespaced kinds, spec.unschedulable
// for Nodes, status.phase for Namespaces; any other is refused ("field label not supported: X").
// Called by KubeApiServer for every list and watch, and by ServedObjects to remember what a changed
// object was selectable by; pure.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "live/label_selector.h"
#include "model/result.h"

namespace chaintwin::live {

using Fields = std::map<std::string, std::string, std::less<>>;

struct FieldTerm {
  std::string field;
  bool equal = true;  // false: !=
  std::string value;
};

struct FieldSelector {
  std::vector<FieldTerm> terms;
  bool empty() const { return terms.empty(); }
  bool matches(const Fields& fields) const;
};

// The selector, or why not in kube-apiserver's words. The empty text selects everything.
model::Result<FieldSelector> parse_field_selector(std::string_view text);
// Ok, or "field label not supported: X" for the first term `kind` cannot be selected by.
model::Status check_selectable(const FieldSelector& selector, std::string_view kind, bool namespaced);

// What an object can be selected by: its labels and its selectable fields' values.
struct Selectable {
  Labels labels;
  Fields fields;
};
Selectable selectable_of(std::string_view kind, const nlohmann::json& object);

}  // namespace chaintwin::live
