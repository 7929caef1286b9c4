#include "sim/yaml_writer.h"

#include <sstream>

namespace chaintwin::sim {
namespace {

using nlohmann::json;

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

std::string scalar(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return v.dump();
  const std::string s = v.get<std::string>();
  if (!needs_quotes(s)) return s;
  bool control = false;
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20) control = true;
  if (control) return json(s).dump();  // double-quoted with escapes
  std::string out = "'";
  for (char c : s) out += (c == '\'') ? std::string("''") : std::string(1, c);
  return out + "'";
}

bool is_container(const json& v) { return (v.is_object() || v.is_array()) && !v.empty(); }

void write(std::ostringstream& out, const json& v, int indent);

void write_map(std::ostringstream& out, const json& v, int indent) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  for (const auto& [k, item] : v.items()) {
    out << pad << scalar(json(k)) << ":";
    if (is_container(item)) {
      out << "\n";
      write(out, item, item.is_array() ? indent : indent + 2);
    } else {
      out << " " << (item.is_object() ? "{}" : item.is_array() ? "[]" : scalar(item)) << "\n";
    }
  }
}

void write_seq(std::ostringstream& out, const json& v, int indent) {
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

void write(std::ostringstream& out, const json& v, int indent) {
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

}  // namespace

std::string to_yaml(const nlohmann::json& value) {
  std::ostringstream out;
  write(out, value, 0);
  return out.str();
}

std::string to_yaml_documents(const nlohmann::json& documents) {
  std::string out;
  bool first = true;
  for (const auto& d : documents) {
    if (!first) out += "---\n";
    first = false;
    out += to_yaml(d);
  }
  return out;
}

}  // namespace chaintwin::sim
