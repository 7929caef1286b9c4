#include "model/api/k8s_validation.h"

namespace chaintwin::model {
namespace {

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool qualified_name_part(std::string_view s) {
  if (s.empty() || s.size() > kMaxLabelLength) return false;
  if (!alnum(s.front()) || !alnum(s.back())) return false;
  for (char c : s)
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

}  // namespace

bool is_dns1123_label(std::string_view s) {
  if (s.empty() || s.size() > kMaxLabelLength) return false;
  if (!lower_alnum(s.front()) || !lower_alnum(s.back())) return false;
  for (char c : s)
    if (!lower_alnum(c) && c != '-') return false;
  return true;
}

bool is_dns1123_subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  while (true) {
    const size_t dot = s.find('.', start);
    const std::string_view part = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (part.empty() || !lower_alnum(part.front()) || !lower_alnum(part.back())) return false;
    for (char c : part)
      if (!lower_alnum(c) && c != '-') return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool is_qualified_name(std::string_view value) {
  const size_t slash = value.find('/');
  if (slash == std::string_view::npos) return qualified_name_part(value);
  if (value.find('/', slash + 1) != std::string_view::npos) return false;
  const std::string_view prefix = value.substr(0, slash);
  return is_dns1123_subdomain(prefix) && qualified_name_part(value.substr(slash + 1));
}

bool is_label_value(std::string_view value) { return value.empty() || qualified_name_part(value); }

std::optional<size_t> bad_text_byte(std::string_view v) {
  size_t i = 0;
  while (i < v.size()) {
    const auto c = static_cast<unsigned char>(v[i]);
    if (c == 0) return i;
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07;
    else return i;
    if (i + len > v.size()) return i;
    for (size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(v[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::nullopt;
}

std::string bad_text_byte_text(std::string_view value, size_t at) {
  const auto c = static_cast<unsigned char>(value[at]);
  if (c == 0) return "a NUL byte at offset " + std::to_string(at);
  static constexpr char kHex[] = "0123456789ABCDEF";
  return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15] + " at offset " + std::to_string(at);
}


namespace {
constexpr const char* kNameChars =
    "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
}  // namespace

std::string dns1123_subdomain_problem(std::string_view v) {
  if (model::is_dns1123_subdomain(v)) return "";
  if (v.size() > 253) return "must be no more than 253 characters";
  return "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
         "start and end with an alphanumeric character";
}

std::string dns1123_label_problem(std::string_view v) {
  if (model::is_dns1123_label(v)) return "";
  if (v.size() > model::kMaxLabelLength) return "must be no more than 63 characters";
  return "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
         "end with an alphanumeric character";
}

std::string label_key_problem(std::string_view key) {
  if (model::is_qualified_name(key)) return "";
  const size_t slash = key.find('/');
  if (slash != std::string_view::npos && key.find('/', slash + 1) != std::string_view::npos)
    return std::string("a qualified name must ") + kNameChars + ", with an optional DNS subdomain prefix and '/'";
  std::string_view name = key;
  if (slash != std::string_view::npos) {
    const std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) return "prefix part must be non-empty";
    if (const std::string why = dns1123_subdomain_problem(prefix); !why.empty()) return "prefix part " + why;
  }
  if (name.empty()) return "name part must be non-empty";
  if (name.size() > model::kMaxLabelLength) return "name part must be no more than 63 characters";
  return std::string("name part must ") + kNameChars;
}

std::string label_value_problem(std::string_view value) {
  if (model::is_label_value(value)) return "";
  if (value.size() > model::kMaxLabelLength) return "must be no more than 63 characters";
  return std::string("a valid label must be an empty string or ") + kNameChars;
}

}  // namespace chaintwin::model
