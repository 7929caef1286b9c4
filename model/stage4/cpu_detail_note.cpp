// The cpuDetail note: CPU detail from Node annotations, marshalled as the operator's Go structs.
#include "model/stage4/cpu_detail_note.h"


#include "model/stage3/node_keys.h"

namespace chaintwin::model {
namespace {

const char* const kHex = "0123456789abcdef";

void append_unicode_escape(std::string& out, unsigned code) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(code >> static_cast<unsigned>(shift)) & 0xFu]);
}

// Length of the valid UTF-8 sequence starting at `i` (0 when invalid), and its code point.
size_t utf8_sequence(std::string_view s, size_t i, unsigned& code) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned b0 = byte(i);
  size_t len = 0;
  unsigned min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) len = 2, code = b0 & 0x1Fu, min = 0x80;
  else if (b0 >= 0xE0 && b0 <= 0xEF) len = 3, code = b0 & 0x0Fu, min = 0x800;
  else if (b0 >= 0xF0 && b0 <= 0xF4) len = 4, code = b0 & 0x07u, min = 0x10000;
  else return 0;
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const unsigned b = byte(i + k);
    if ((b & 0xC0u) != 0x80u) return 0;
    code = (code << 6) | (b & 0x3Fu);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return len;
}

void add_field(std::string& out, bool& first, std::string_view name, const std::string& value) {
  if (value.empty()) return;  // omitempty
  if (!first) out.push_back(',');
  first = false;
  out += go_json_string(name);
  out.push_back(':');
  out += go_json_string(value);
}

}  // namespace

std::string go_json_string(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '<': case '>': case '&': append_unicode_escape(out, c); break;
        default:
          if (c < 0x20) append_unicode_escape(out, c);
          else out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    unsigned code = 0;
    const size_t len = utf8_sequence(text, i, code);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (code == 0x2028 || code == 0x2029) append_unicode_escape(out, code);
    else out.append(text.substr(i, len));
    i += len;
  }
  out.push_back('"');
  return out;
}

CpuDetail extract_general_detail(const Node& node) {
  CpuDetail d;
  d.manufacturer = general_node_manufacturer(node);
  d.product = general_feature_annotation(node, "name");
  d.family = general_feature_annotation(node, "family");
  d.physical_cores = general_feature_annotation(node, "physical-cores");
  d.threads_per_physical_core = general_feature_annotation(node, "threads-per-core");
  d.logical_cores = general_feature_annotation(node, "logical-cores");
  d.stepping = general_feature_annotation(node, "stepping");
  d.clock_speed = general_feature_annotation(node, "hz");
  d.max_clock_speed = general_feature_annotation(node, "boost-freq");
  d.cache_line = general_feature_annotation(node, "cache-line");
  d.cache_l1i = general_feature_annotation(node, "cache-l1i");
  d.cache_l1d = general_feature_annotation(node, "cache-l1d");
  d.cache_l2 = general_feature_annotation(node, "cache-l2");
  d.cache_l3 = general_feature_annotation(node, "cache-l3");
  return d;
}

std::string cpu_detail_note(const CpuDetail& d, bool acceleratable) {
  std::string out = "{";
  bool first = true;
  if (acceleratable) {
    add_field(out, first, "manufacturer", d.manufacturer);
    add_field(out, first, "product", d.product);
    add_field(out, first, "family", d.family);
  }
  add_field(out, first, "physicalCores", d.physical_cores);
  add_field(out, first, "threadsPerPhysicalCore", d.threads_per_physical_core);
  add_field(out, first, "logicalCores", d.logical_cores);
  add_field(out, first, "stepping", d.stepping);
  add_field(out, first, "clockSpeed", d.clock_speed);
  add_field(out, first, "maxClockSpeed", d.max_clock_speed);
  add_field(out, first, "cacheLine", d.cache_line);
  // A struct-typed field is never omitted by encoding/json, omitempty or not.
  if (!first) out.push_back(',');
  out += "\"cache\":{";
  bool first_cache = true;
  add_field(out, first_cache, "l1i", d.cache_l1i);
  add_field(out, first_cache, "l1d", d.cache_l1d);
  add_field(out, first_cache, "l2", d.cache_l2);
  add_field(out, first_cache, "l3", d.cache_l3);
  out += "}}";
  return out;
}

}  // namespace chaintwin::model
