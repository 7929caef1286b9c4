#include "live/list_options.h"

#include <algorithm>
#include <cctype>

#include "live/go_strconv.h"

namespace chaintwin::live {
namespace {

const std::string* param(const std::map<std::string, std::string, std::less<>>& params, std::string_view name) {
  const auto it = params.find(name);
  return it == params.end() ? nullptr : &it->second;
}

// Go's reading of a boolean query parameter: anything but "0" and "false" (any case) is true.
bool query_bool(const std::string& v) {
  std::string lower = v;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return v != "0" && lower != "false";
}

}  // namespace

model::Result<int64_t> parse_resource_version(std::string_view text) {
  if (text.empty() || text == "0") return int64_t{0};
  auto v = go_parse_uint(text);
  if (!v || *v > static_cast<uint64_t>(INT64_MAX))
    return model::err("invalid resource version: resourceVersion: Invalid value: " + go_quote(text) + ": " +
                      (v ? "strconv.ParseUint: parsing " + go_quote(text) + ": value out of range" : v.error()));
  return static_cast<int64_t>(*v);
}

model::Result<ListOptions> parse_list_options(const std::map<std::string, std::string, std::less<>>& params,
                                              std::string_view kind, bool namespaced) {
  ListOptions out;
  if (const auto* v = param(params, "labelSelector")) {
    auto s = parse_label_selector(*v);
    if (!s) return model::err(s.error());
    out.labels = std::move(s).value();
  }
  if (const auto* v = param(params, "fieldSelector")) {
    auto s = parse_field_selector(*v);
    if (!s) return model::err(s.error());
    out.fields = std::move(s).value();
  }
  if (const auto* v = param(params, "watch")) out.watch = query_bool(*v);
  if (const auto* v = param(params, "allowWatchBookmarks")) out.bookmarks = query_bool(*v);
  if (const auto* v = param(params, "resourceVersion")) out.resource_version = *v;
  if (const auto* v = param(params, "timeoutSeconds"); v != nullptr && !v->empty()) {
    auto n = go_parse_int(*v);
    if (!n) return model::err(n.error());
    out.timeout_seconds = *n;
  }
  if (const auto* v = param(params, "limit")) {
    auto n = go_parse_int(*v);
    if (!n) return model::err(n.error());
    out.limit = *n;
  }
  // What the fields are checked against comes after the parameters are read, as in kube.
  if (auto ok = check_selectable(out.fields, kind, namespaced); !ok) return model::err(ok.error());
  const auto* token = param(params, "continue");
  if (token != nullptr && !token->empty() && !out.watch) {
    auto t = decode_continue(*token);
    if (!t) return model::err("invalid continue token: " + t.error());
    if (!out.resource_version.empty() && out.resource_version != "0")
      return model::err("specifying resource version is not allowed when using continue");
    out.continue_from = std::move(t).value();
  }
  auto rv = parse_resource_version(out.resource_version);
  if (!rv) return model::err(rv.error());
  out.since = *rv;
  return out;
}

}  // namespace chaintwin::live
