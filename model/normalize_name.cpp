// Name sanitizers (pkg/device/helper.go NormalizeName / ConstructGroupID / formatMemory,
// pkg/kubemeta SanitizeLabelValue, pkg/utils/quantityx FormatBinarySI).
//
// The slug loops walk bytes rather than runes: every kept character is ASCII and every byte
// of a multi-byte UTF-8 sequence (or of an invalid one) is >= 0x80 and so dropped, exactly as
// the Go loops drop the whole rune.
#include "model/normalize_name.h"

#include <array>

namespace chaintwin::model {
namespace {

bool is_separator(char c) { return c == '-' || c == '_' || c == '.'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals_ascii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

// The UTF-8 encodings of the non-ASCII runes unicode.IsSpace accepts.
constexpr std::array<std::string_view, 18> kWideSpaces{
    "\xC2\x85",     "\xC2\xA0",     "\xE1\x9A\x80", "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82",
    "\xE2\x80\x83", "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86", "\xE2\x80\x87", "\xE2\x80\x88",
    "\xE2\x80\x89", "\xE2\x80\x8A", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F",
};
constexpr std::string_view kIdeographicSpace = "\xE3\x80\x80";

bool ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// Whether a byte can start a non-ASCII space of kWideSpaces or kIdeographicSpace (their lead bytes).
bool wide_space_lead(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u == 0xC2 || u == 0xE1 || u == 0xE2 || u == 0xE3;
}

size_t leading_space(std::string_view s) {
  if (s.empty()) return 0;
  if (ascii_space(s.front())) return 1;
  if (!wide_space_lead(s.front())) return 0;
  for (const auto w : kWideSpaces)
    if (s.substr(0, w.size()) == w) return w.size();
  if (s.substr(0, kIdeographicSpace.size()) == kIdeographicSpace) return kIdeographicSpace.size();
  return 0;
}

size_t trailing_space(std::string_view s) {
  if (s.empty()) return 0;
  if (ascii_space(s.back())) return 1;
  // Every wide space ends in a continuation byte (0x80..0xBF).
  if ((static_cast<unsigned char>(s.back()) & 0xC0) != 0x80) return 0;
  for (const auto w : kWideSpaces)
    if (s.ends_with(w)) return w.size();
  if (s.ends_with(kIdeographicSpace)) return kIdeographicSpace.size();
  return 0;
}

// strings.TrimSpace.
std::string_view trim_space(std::string_view s) {
  for (size_t n = leading_space(s); n > 0; n = leading_space(s)) s.remove_prefix(n);
  for (size_t n = trailing_space(s); n > 0; n = trailing_space(s)) s.remove_suffix(n);
  return s;
}

// strings.NewReplacer("(R)", "", "(r)", "", "(TM)", "", "(tm)", ""): one left-to-right pass.
std::string drop_trademark_markers(std::string_view s) {
  static constexpr std::array<std::string_view, 4> kMarkers{"(R)", "(r)", "(TM)", "(tm)"};
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '(') {  // every marker starts with '('
      out.push_back(s[i++]);
      continue;
    }
    bool matched = false;
    for (const auto m : kMarkers) {
      if (s.substr(i, m.size()) == m) {
        i += m.size();
        matched = true;
        break;
      }
    }
    if (!matched) out.push_back(s[i++]);
  }
  return out;
}

// Length of one "Genuine " or "<digits>(st|nd|rd|th) Gen " at the start of s, or 0.
size_t prefix_cruft_unit(std::string_view s) {
  if (s.substr(0, 8) == "Genuine ") return 8;
  size_t i = 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i == 0) return 0;
  const std::string_view ordinal = s.substr(i, 2);
  if (ordinal != "st" && ordinal != "nd" && ordinal != "rd" && ordinal != "th") return 0;
  if (s.substr(i + 2, 5) != " Gen ") return 0;
  return i + 7;
}

// Removes a trailing (?i) " [0-9]+-cores?" from s.
std::string_view drop_core_count_suffix(std::string_view s) {
  for (const std::string_view tail : {std::string_view("-cores"), std::string_view("-core")}) {
    if (s.size() < tail.size() || !iequals_ascii(s.substr(s.size() - tail.size()), tail)) continue;
    size_t start = s.size() - tail.size();
    const size_t digits_end = start;
    while (start > 0 && is_digit(s[start - 1])) --start;
    if (start == digits_end || start == 0 || s[start - 1] != ' ') continue;
    return s.substr(0, start - 1);
  }
  return s;
}

// The shared slug loop of NormalizeName (lower-casing, prefix clearing) and
// SanitizeLabelValue (case kept, no prefix).
std::string slug(std::string_view name, std::string_view prefix, bool clear_prefix, bool lower, size_t max_length) {
  std::string buf;
  char previous = 0;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      if (lower) c = ascii_lower(c);
    } else if ((c >= 'a' && c <= 'z') || is_digit(c)) {
      // kept
    } else if (c == ' ' || is_separator(c)) {
      if (c == ' ') c = '-';
      if (buf.empty() || is_separator(previous)) continue;
    } else {
      continue;
    }
    buf.push_back(c);
    previous = c;
    if (clear_prefix && buf.size() == prefix.size() && iequals_ascii(buf, prefix)) {
      buf.clear();
      previous = 0;
    }
    if (buf.size() >= max_length) break;
  }
  if (!buf.empty() && is_separator(buf.back())) buf.pop_back();
  return buf;
}

}  // namespace

std::string strip_cpu_name_cruft(std::string_view name) {
  if (const size_t at = name.find(" @ "); at != std::string_view::npos) name = name.substr(0, at);
  const std::string unmarked = drop_trademark_markers(name);
  std::string_view s = unmarked;
  for (size_t n = prefix_cruft_unit(s); n > 0; n = prefix_cruft_unit(s)) s.remove_prefix(n);
  s = trim_space(s);
  if (s.ends_with(" CPU")) s.remove_suffix(4);
  if (s.ends_with(" Processor")) s.remove_suffix(10);
  return std::string(drop_core_count_suffix(s));
}

std::string normalize_name(std::string_view name, std::string_view prefix, int max_length, bool strip_cpu_cruft) {
  std::string stripped;
  if (strip_cpu_cruft) {
    stripped = strip_cpu_name_cruft(name);
    name = stripped;
  }
  const size_t limit = max_length <= 0 ? name.size() : static_cast<size_t>(max_length);
  return slug(name, prefix, true, true, limit);
}

std::string sanitize_label_value(std::string_view value) { return slug(value, {}, false, false, 63); }

std::string format_binary_si_mib(uint64_t mib) {
  if (mib == 0) return "0";
  struct Unit {
    uint64_t scale_mib;
    const char* suffix;
  };
  static constexpr std::array<Unit, 5> kUnits{{
      {1ULL << 40, "Ei"}, {1ULL << 30, "Pi"}, {1ULL << 20, "Ti"}, {1ULL << 10, "Gi"}, {1ULL, "Mi"}}};
  for (const auto& u : kUnits) {
    if (mib >= u.scale_mib) return std::to_string((mib + u.scale_mib / 2) / u.scale_mib) + u.suffix;
  }
  return std::to_string(mib);  // unreachable: every non-zero value reaches Mi
}

std::string format_group_memory(uint64_t mib) {
  if (mib == 0) return "0g";
  if (mib < 1024) return "1g";
  std::string r = format_binary_si_mib(mib);
  for (char& c : r) c = ascii_lower(c);
  r.pop_back();
  return r;
}

std::string construct_group_id(std::string_view manufacturer, std::string_view product, uint64_t memory_mib,
                               bool with_memory) {
  int budget = 63 - static_cast<int>(manufacturer.size()) - 1;
  if (with_memory) budget -= 7;  // room for the longest "-<memory>" suffix
  std::string id = normalize_name(product, manufacturer, budget, false);
  if (!with_memory) return id;
  return id + "-" + format_group_memory(memory_mib);
}

std::string accelerator_key(std::string_view manufacturer, std::string_view group_id) {
  return std::string(manufacturer) + "-" + std::string(group_id);
}

bool is_accelerator_key(std::string_view key, std::string_view manufacturer, std::string_view group_id) {
  return key.size() == manufacturer.size() + 1 + group_id.size() && key.starts_with(manufacturer) &&
         key[manufacturer.size()] == '-' && key.ends_with(group_id);
}

}  // namespace chaintwin::model
