#include "sim/yaml_writer.h"

#include <sstream>

namespace chaintwin::sim {
namespace {

bool looks_like_number(const std::string& s) {
  if (s.empty()) return false;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i >= s.size()) return false;
  bool digit = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-' && c != '_' && c != 'x' && c != 'o') {
      return false;
    }
  }
  return digit;
}

bool needs_quotes(const std::string& s) {
  if (s.empty()) return true;
  static const char* kWords[] = {"true", "false", "True", "False", "TRUE", "FALSE", "null", "Null", "NULL", "~",
                                 "yes", "no", "Yes", "No", "YES", "NO", "on", "off", "On", "Off", "ON", "OFF", "y", "n"};
  for (const char* w : kWords)
    if (s == w) return true;
  if (looks_like_number(s)) return true;
  if (s.front() == ' ' || s.back() == ' ') return true;
  if (std::string("-?:,[]{}#&*!|>'\"%@`").find(s.front()) != std::string::npos) return true;
  if (s.find(": ") != std::string::npos || s.find(" #") != std::string::npos) return true;
  if (s.back() == ':') return true;
  for (char c : s)
    if (c == '\n' || c == '\t' || static_cast<unsigned char>(c) < 0x20) return true;
  return false;
}

template <typename J>
std::string scalar(const J& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return v.template get<bool>() ? "true" : "false";
  if (v.is_number()) return v.dump();
  const std::string s = v.template get<std::string>();
  if (!needs_quotes(s)) return s;
  bool control = false;
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20) control = true;
  if (control) return J(s).dump();  // double-quoted with escapes
  std::string out = "'";
  for (char c : s) out += (c == '\'') ? std::string("''") : std::string(1, c);
  return out + "'";
}

template <typename J>
bool is_container(const J& v) { return (v.is_object() || v.is_array()) && !v.empty(); }

template <typename J>
void write(std::ostringstream& out, const J& v, int indent);

template <typename J>
void write_map(std::ostringstream& out, const J& v, int indent) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  for (const auto& [k, item] : v.items()) {
    out << pad << scalar(J(k)) << ":";
    if (is_container(item)) {
      out << "\n";
      write(out, item, item.is_array() ? indent : indent + 2);
    } else {
      out << " " << (item.is_object() ? "{}" : item.is_array() ? "[]" : scalar(item)) << "\n";
    }
  }
}

template <typename J>
void write_seq(std::ostringstream& out, const J& v, int indent) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  for (const auto& item : v) {
    if (item.is_object() && !item.empty()) {
      std::ostringstream inner;
      write_map(inner, item, indent + 2);
      std::string text = inner.str();
      text.replace(0, static_cast<size_t>(indent) + 2, pad + "- ");
      out << text;
    } else if (item.is_array() && !item.empty()) {
      out << pad << "-\n";
      write_seq(out, item, indent + 2);
    } else {
      out << pad << "- " << (item.is_object() ? "{}" : item.is_array() ? "[]" : scalar(item)) << "\n";
    }
  }
}

template <typename J>
void write(std::ostringstream& out, const J& v, int indent) {
  if (v.is_object()) {
    if (v.empty()) out << std::string(static_cast<size_t>(indent), ' ') << "{}\n";
    else write_map(out, v, indent);
  } else if (v.is_array()) {
    if (v.empty()) out << std::string(static_cast<size_t>(indent), ' ') << "[]\n";
    else write_seq(out, v, indent);
  } else {
    out << std::string(static_cast<size_t>(indent), ' ') << scalar(v) << "\n";
  }
}

template <typename J>
std::string yaml_of(const J& value) {
  std::ostringstream out;
  write(out, value, 0);
  return out.str();
}

template <typename J>
std::string documents_of(const J& documents) {
  std::string out;
  bool first = true;
  for (const auto& d : documents) {
    if (!first) out += "---\n";
    first = false;
    out += yaml_of(d);
  }
  return out;
}

}  // namespace

std::string to_yaml(const nlohmann::json& value) { return yaml_of(value); }
std::string to_yaml(const nlohmann::ordered_json& value) { return yaml_of(value); }
std::string to_yaml_documents(const nlohmann::json& documents) { return documents_of(documents); }
std::string to_yaml_documents(const nlohmann::ordered_json& documents) { return documents_of(documents); }

}  // namespace chaintwin::sim
