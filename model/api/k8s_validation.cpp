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

}  // namespace chaintwin::model
