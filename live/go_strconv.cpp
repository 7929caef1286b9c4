#include "live/go_strconv.h"

#include <string>

namespace chaintwin::live {
namespace {

model::Error strconv_error(const char* func, std::string_view text, const char* why) {
  return model::err(std::string("strconv.") + func + ": parsing " + go_quote(text) + ": " + why);
}

// The digits as an unsigned magnitude; false when one is not a digit, `range` when it overflows.
bool digits(std::string_view text, uint64_t& out, bool& range) {
  if (text.empty()) return false;
  out = 0;
  range = false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (out > (UINT64_MAX - d) / 10) range = true;
    else out = out * 10 + d;
  }
  return true;
}

}  // namespace

model::Result<int64_t> go_parse_int(std::string_view text) {
  std::string_view rest = text;
  bool negative = false;
  if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
    negative = rest[0] == '-';
    rest.remove_prefix(1);
  }
  uint64_t magnitude = 0;
  bool range = false;
  if (!digits(rest, magnitude, range)) return strconv_error("ParseInt", text, "invalid syntax");
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (range || magnitude > limit) return strconv_error("ParseInt", text, "value out of range");
  if (negative) return magnitude == (uint64_t{1} << 63) ? INT64_MIN : -static_cast<int64_t>(magnitude);
  return static_cast<int64_t>(magnitude);
}

model::Result<uint64_t> go_parse_uint(std::string_view text) {
  uint64_t value = 0;
  bool range = false;
  if (!digits(text, value, range)) return strconv_error("ParseUint", text, "invalid syntax");
  if (range) return strconv_error("ParseUint", text, "value out of range");
  return value;
}

std::string go_quote(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace chaintwin::live
