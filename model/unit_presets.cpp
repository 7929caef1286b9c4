// The preset lookup over a validated table, with a local copy of device.NormalizeName.
#include "model/unit_presets.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace chaintwin::model {
namespace data {
extern const std::string_view kUnitResourcesPresetJson;  // generated from the JSON table
}  // namespace data

namespace {

bool is_separator(char c) { return c == '-' || c == '_' || c == '.'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equal_fold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Drops "(R)", "(r)", "(TM)", "(tm)" in one left-to-right pass.
std::string drop_trademarks(std::string_view s) {
  static constexpr std::string_view kMarks[] = {"(R)", "(r)", "(TM)", "(tm)"};
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    bool dropped = false;
    for (auto mark : kMarks) {
      if (s.substr(i, mark.size()) == mark) {
        i += mark.size();
        dropped = true;
        break;
      }
    }
    if (!dropped) out.push_back(s[i++]);
  }
  return out;
}

// Length of one leading "Genuine " or "<n>st|nd|rd|th Gen " at the front of s, or 0.
std::size_t leading_cruft(std::string_view s) {
  if (s.substr(0, 8) == "Genuine ") return 8;
  std::size_t i = 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i == 0) return 0;
  const auto ordinal = s.substr(i, 2);
  if (ordinal != "st" && ordinal != "nd" && ordinal != "rd" && ordinal != "th") return 0;
  if (s.substr(i + 2, 5) != " Gen ") return 0;
  return i + 7;
}

// Cuts a trailing " <n>-Core" / " <n>-Cores" (letters in any case).
std::string_view drop_core_count(std::string_view s) {
  std::size_t end = s.size();
  if (end > 0 && lower(s[end - 1]) == 's') --end;
  if (end < 5 || !equal_fold(s.substr(end - 5, 5), "-core")) return s;
  std::size_t i = end - 5;
  const std::size_t digits_end = i;
  while (i > 0 && is_digit(s[i - 1])) --i;
  if (i == digits_end || i == 0 || s[i - 1] != ' ') return s;
  return s.substr(0, i - 1);
}

std::string_view trim_space(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

std::string strip_cpu_cruft(std::string_view name) {
  if (const auto at = name.find(" @ "); at != std::string_view::npos) name = name.substr(0, at);
  std::string s = drop_trademarks(name);
  std::string_view v = s;
  for (std::size_t n = leading_cruft(v); n > 0; n = leading_cruft(v)) v.remove_prefix(n);
  v = trim_space(v);
  if (ends_with(v, " CPU")) v.remove_suffix(4);
  if (ends_with(v, " Processor")) v.remove_suffix(10);
  return std::string(drop_core_count(v));
}

std::string normalize_name(std::string_view name_in, std::string_view prefix, std::size_t max_length,
                           bool strip_cruft) {
  const std::string name = strip_cruft ? strip_cpu_cruft(name_in) : std::string(name_in);
  if (max_length == 0) max_length = name.size();
  std::string buf;
  char previous = 0;
  for (const char c : name) {
    char r = 0;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c)) {
      r = lower(c);
    } else if (c == ' ' || is_separator(c)) {
      if (buf.empty() || is_separator(previous)) continue;
      r = c == ' ' ? '-' : c;
    } else {
      continue;  // every other byte, including all of a multi-byte rune, is dropped
    }
    buf.push_back(r);
    previous = r;
    if (buf.size() == prefix.size() && equal_fold(buf, prefix)) {
      buf.clear();
      previous = 0;
    }
    if (buf.size() >= max_length) break;
  }
  if (!buf.empty() && is_separator(buf.back())) buf.pop_back();
  return buf;
}

// Removes leading strip sequences until none leads the tokens.
std::vector<std::string> strip_leading_marketing(const PresetTable& table, std::vector<std::string> tokens) {
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (const auto& s : table.strip) {
      const auto sequence = split_preset_tokens(s);
      if (sequence.empty() || !has_token_prefix(tokens, sequence)) continue;
      tokens.erase(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(sequence.size()));
      stripped = true;
      break;
    }
  }
  return tokens;
}

UnitResourcesPreset of_tier(const PresetTable& table, const std::string& tier, const std::string& family) {
  const auto& t = table.tiers.at(tier);
  return UnitResourcesPreset{t.cpu, t.ram, tier, family};
}

PresetTable load_shipped_table() {
  const auto doc = nlohmann::json::parse(data::kUnitResourcesPresetJson, nullptr, false);
  if (doc.is_discarded())
    throw std::logic_error("model/data/unit_resources_preset.json: embedded preset table is not JSON");
  auto table = parse_preset_table(doc);
  if (!table)
    throw std::logic_error("model/data/unit_resources_preset.json: embedded preset table is invalid: " +
                           table.error());
  return std::move(table).value();
}

}  // namespace

const PresetTable& shipped_preset_table() {
  static const PresetTable kTable = load_shipped_table();
  return kTable;
}

std::string preset_key(std::string_view manufacturer, std::string_view product) {
  return normalize_name(product, manufacturer, 0, false);
}

UnitResourcesPreset preset_unit_resources(const PresetTable& table, std::string_view manufacturer,
                                          std::string_view product) {
  const std::string fallback(kFallbackTier);
  const auto family = table.families.find(std::string(manufacturer));
  if (family == table.families.end() || family->second.empty()) return of_tier(table, fallback, "");
  const auto tokens = strip_leading_marketing(table, split_preset_tokens(preset_key(manufacturer, product)));
  if (tokens.empty()) return of_tier(table, fallback, "");
  for (const auto& entry : family->second) {
    if (!has_token_prefix(tokens, split_preset_tokens(entry.prefix))) continue;
    for (const auto& variant : entry.by)
      if (std::find(tokens.begin(), tokens.end(), variant.token) != tokens.end())
        return of_tier(table, variant.tier, variant.family);
    return of_tier(table, entry.tier, entry.family);
  }
  return of_tier(table, fallback, "");
}

UnitResourcesPreset preset_unit_resources(std::string_view manufacturer, std::string_view product) {
  return preset_unit_resources(shipped_preset_table(), manufacturer, product);
}

std::string unit_presets_normalize_name(std::string_view name, std::string_view prefix,
                                        std::size_t max_length, bool strip_cruft) {
  return normalize_name(name, prefix, max_length, strip_cruft);
}

}  // namespace chaintwin::model
