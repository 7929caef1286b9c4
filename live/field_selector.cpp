#include "live/field_selector.h"

#include <algorithm>

namespace chaintwin::live {
namespace {

// Terms split at commas that are not escaped.
std::vector<std::string> split_terms(std::string_view s) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  size_t start = 0;
  bool escaped = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (escaped) escaped = false;
    else if (s[i] == '\\') escaped = true;
    else if (s[i] == ',') {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  out.emplace_back(s.substr(start));
  return out;
}

model::Result<std::string> unescape(std::string_view s) {
  std::string out;
  bool escaped = false;
  for (char c : s) {
    if (escaped) {
      if (c != '\\' && c != ',' && c != '=')
        return model::err(std::string("invalid field selector: invalid escape sequence: \\") + c);
      out += c;
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == ',' || c == '=') {
      return model::err(std::string("invalid field selector: unescaped character in value: ") + c);
    } else {
      out += c;
    }
  }
  if (escaped) return model::err("invalid field selector: invalid escape sequence: \\");
  return out;
}

// The string at `key` of `o`, or "" when there is none (or it is not a string).
std::string field_text(const nlohmann::json& o, const char* key) {
  if (!o.is_object()) return "";
  const auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

bool FieldSelector::matches(const Fields& fields) const {
  return std::all_of(terms.begin(), terms.end(), [&](const FieldTerm& t) {
    const auto it = fields.find(t.field);
    const std::string have = it == fields.end() ? "" : it->second;
    return (have == t.value) == t.equal;
  });
}

model::Result<FieldSelector> parse_field_selector(std::string_view text) {
  FieldSelector out;
  std::vector<std::string> parts = split_terms(text);
  std::sort(parts.begin(), parts.end());
  for (const std::string& part : parts) {
    if (part.empty()) continue;
    // The first operator from the left; at one place `!=` before `==` before `=`.
    size_t at = std::string::npos, len = 0;
    bool equal = true;
    for (size_t i = 0; i < part.size() && at == std::string::npos; ++i) {
      const std::string_view rest = std::string_view(part).substr(i);
      if (rest.rfind("!=", 0) == 0) at = i, len = 2, equal = false;
      else if (rest.rfind("==", 0) == 0) at = i, len = 2;
      else if (rest.rfind("=", 0) == 0) at = i, len = 1;
    }
    if (at == std::string::npos)
      return model::err("invalid selector: '" + std::string(text) + "'; can't understand '" + part + "'");
    auto value = unescape(std::string_view(part).substr(at + len));
    if (!value) return model::err(value.error());
    out.terms.push_back({part.substr(0, at), equal, std::move(value).value()});
  }
  return out;
}

model::Status check_selectable(const FieldSelector& selector, std::string_view kind, bool namespaced) {
  for (const FieldTerm& t : selector.terms) {
    const bool ok = t.field == "metadata.name" || (namespaced && t.field == "metadata.namespace") ||
                    (kind == "Node" && t.field == "spec.unschedulable") ||
                    (kind == "Namespace" && t.field == "status.phase");
    if (!ok) return model::err("field label not supported: " + t.field);
  }
  return model::Ok{};
}

Selectable selectable_of(std::string_view kind, const nlohmann::json& object) {
  Selectable out;
  static const nlohmann::json kNone = nlohmann::json::object();
  const auto part = [&](const char* key) -> const nlohmann::json& {
    const auto it = object.is_object() ? object.find(key) : object.end();
    return it != object.end() && it->is_object() ? *it : kNone;
  };
  const nlohmann::json& meta = part("metadata");
  if (const auto labels = meta.find("labels"); labels != meta.end() && labels->is_object())
    for (const auto& [k, v] : labels->items())
      if (v.is_string()) out.labels.emplace(k, v.get<std::string>());
  out.fields["metadata.name"] = field_text(meta, "name");
  out.fields["metadata.namespace"] = field_text(meta, "namespace");
  if (kind == "Node") {
    const auto u = part("spec").find("unschedulable");
    out.fields["spec.unschedulable"] = u != part("spec").end() && u->is_boolean() && u->get<bool>() ? "true" : "false";
  } else if (kind == "Namespace") {
    // kube sets a Namespace's phase when it is created; one served without a status is Active.
    const std::string phase = field_text(part("status"), "phase");
    out.fields["status.phase"] = phase.empty() ? "Active" : phase;
  }
  return out;
}

}  // namespace chaintwin::live
