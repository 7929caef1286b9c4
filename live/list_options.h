// The query parameters of a list or watch (GET on a collection), read as kube-apiserver reads
// them into its ListOptions: labelSelector, fieldSelector, watch, allowWatchBookmarks,
// resourceVersion, timeoutSeconds, limit and continue. A parameter that does not read is refused
// with kube's words, which `serve` answers as 400 BadRequest: a selector that does not parse, a
// field the kind cannot be selected by, `limit=abc` or `timeoutSeconds=abc` (Go's strconv error),
// `resourceVersion=bogus`, a continue token this server did not write or one given together with a
// resourceVersion. A limit of 0 or less means no limit, as in kube. Called by KubeApiServer; pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "live/field_selector.h"
#include "live/label_selector.h"
#include "live/list_paging.h"
#include "model/result.h"

namespace chaintwin::live {

struct ListOptions {
  LabelSelector labels;
  FieldSelector fields;
  bool watch = false;
  bool bookmarks = false;
  std::string resource_version;  // as given ("" or a number; "0" means any)
  int64_t since = 0;             // resource_version as a number
  std::optional<int64_t> timeout_seconds;
  int64_t limit = 0;
  std::optional<ContinueToken> continue_from;
  // Whether the selectors select an object with these labels and fields.
  bool selects(const Selectable& s) const { return labels.matches(s.labels) && fields.matches(s.fields); }
  bool selects_everything() const { return labels.empty() && fields.empty(); }
};

// The parameters (name → first value given) of a request on a collection of `kind`.
model::Result<ListOptions> parse_list_options(const std::map<std::string, std::string, std::less<>>& params,
                                              std::string_view kind, bool namespaced);
// resourceVersion on its own (a get): "" and "0" are any version; otherwise a decimal number.
model::Result<int64_t> parse_resource_version(std::string_view text);

}  // namespace chaintwin::live
