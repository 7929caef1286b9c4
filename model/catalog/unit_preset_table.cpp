// Decoding and validating the unit-resources preset table (the rules of
// pkg/nodefeature/unit_resources_preset.go's loader, restated).
#include "model/catalog/unit_preset_table.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>

#include <nlohmann/json.hpp>

#include "model/catalog/manufacturer.h"

namespace chaintwin::model {
namespace {

using json = nlohmann::json;

constexpr std::array<std::string_view, 5> kPresetTierNames{"fallback", "small", "medium", "large",
                                                           "xlarge"};
constexpr std::string_view kSeparators = "-_.";
constexpr std::string_view kRamSuffix = "Gi";
const PresetTier kPinnedFallback{"4", "16Gi"};

bool is_separator(char c) { return kSeparators.find(c) != std::string_view::npos; }
bool is_token_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// ---- strict decoding -------------------------------------------------------------------------

Status check_keys(const json& object, const std::string& path, std::set<std::string_view> allowed) {
  for (const auto& [key, value] : object.items()) {
    if (!allowed.count(key)) return err(path + ": unknown field " + in_quotes(key));
  }
  return Ok{};
}

Result<std::string> string_field(const json& object, const char* key, const std::string& path,
                                 bool required) {
  const auto it = object.find(key);
  if (it == object.end()) {
    if (required) return err(path + "." + key + ": is required");
    return std::string{};
  }
  if (!it->is_string()) return err(path + "." + key + ": expected a string, got " + it->dump());
  return it->get<std::string>();
}

Result<PresetVariant> decode_variant(const json& j, const std::string& path) {
  if (!j.is_object()) return err(path + ": expected an object, got " + j.dump());
  if (auto s = check_keys(j, path, {"token", "family", "tier"}); !s) return err(s.error());
  PresetVariant v;
  using Field = std::pair<const char*, std::string*>;
  for (auto [key, out] : std::array<Field, 3>{{{"token", &v.token}, {"family", &v.family}, {"tier", &v.tier}}}) {
    auto s = string_field(j, key, path, true);
    if (!s) return err(s.error());
    *out = std::move(s).value();
  }
  return v;
}

Result<PresetEntry> decode_entry(const json& j, const std::string& path) {
  if (!j.is_object()) return err(path + ": expected an object, got " + j.dump());
  if (auto s = check_keys(j, path, {"prefix", "family", "tier", "by"}); !s) return err(s.error());
  PresetEntry e;
  using Field = std::pair<const char*, std::string*>;
  for (auto [key, out] : std::array<Field, 3>{{{"prefix", &e.prefix}, {"family", &e.family}, {"tier", &e.tier}}}) {
    auto s = string_field(j, key, path, true);
    if (!s) return err(s.error());
    *out = std::move(s).value();
  }
  if (const auto by = j.find("by"); by != j.end()) {
    if (!by->is_array()) return err(path + ".by: expected an array, got " + by->dump());
    for (std::size_t i = 0; i < by->size(); ++i) {
      auto v = decode_variant((*by)[i], path + ".by[" + std::to_string(i) + "]");
      if (!v) return err(v.error());
      e.by.push_back(std::move(v).value());
    }
  }
  return e;
}

Result<PresetTable> decode_table(const json& doc) {
  if (!doc.is_object()) return err("preset table: expected an object, got " + doc.dump());
  if (auto s = check_keys(doc, "preset table", {"about", "tiers", "strip", "families"}); !s)
    return err(s.error());
  if (const auto about = doc.find("about"); about != doc.end() && !about->is_string())
    return err("about: expected a string, got " + about->dump());
  PresetTable t;
  const auto tiers = doc.find("tiers");
  if (tiers == doc.end() || !tiers->is_object()) return err("tiers: expected an object of tiers");
  for (const auto& [name, tier] : tiers->items()) {
    const std::string path = "tiers." + name;
    if (!tier.is_object()) return err(path + ": expected an object, got " + tier.dump());
    if (auto s = check_keys(tier, path, {"cpu", "ram"}); !s) return err(s.error());
    auto cpu = string_field(tier, "cpu", path, true);
    if (!cpu) return err(cpu.error());
    auto ram = string_field(tier, "ram", path, true);
    if (!ram) return err(ram.error());
    t.tiers[name] = PresetTier{cpu.value(), ram.value()};
  }
  if (const auto strip = doc.find("strip"); strip != doc.end()) {
    if (!strip->is_array()) return err("strip: expected an array, got " + strip->dump());
    for (std::size_t i = 0; i < strip->size(); ++i) {
      const auto& s = (*strip)[i];
      if (!s.is_string())
        return err("strip[" + std::to_string(i) + "]: expected a string, got " + s.dump());
      t.strip.push_back(s.get<std::string>());
    }
  }
  if (const auto families = doc.find("families"); families != doc.end()) {
    if (!families->is_object()) return err("families: expected an object, got " + families->dump());
    for (const auto& [manufacturer, entries] : families->items()) {
      const std::string path = "families." + manufacturer;
      if (!entries.is_array()) return err(path + ": expected an array, got " + entries.dump());
      auto& out = t.families[manufacturer];
      for (std::size_t i = 0; i < entries.size(); ++i) {
        auto e = decode_entry(entries[i], path + "[" + std::to_string(i) + "]");
        if (!e) return err(e.error());
        out.push_back(std::move(e).value());
      }
    }
  }
  return t;
}

// ---- validation ------------------------------------------------------------------------------

// A unitless positive integer within int32, the webhook's unit-CPU rule.
Result<int32_t> parse_unit_count(std::string_view v) {
  const std::string shown = in_quotes(v);
  std::string_view digits = v;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  int64_t n = 0;
  bool ok = !digits.empty();
  for (char c : digits) {
    if (c < '0' || c > '9' || n > INT32_MAX) {
      ok = false;
      break;
    }
    n = n * 10 + (c - '0');
  }
  if (!ok || negative || n <= 0 || n > INT32_MAX)
    return err(shown + " must be a positive integer with no unit suffix");
  return static_cast<int32_t>(n);
}

Result<int32_t> parse_unit_ram(std::string_view v) {
  if (v.size() < kRamSuffix.size() || v.substr(v.size() - kRamSuffix.size()) != kRamSuffix)
    return err(in_quotes(v) + " must carry a case-sensitive \"Gi\" suffix");
  return parse_unit_count(v.substr(0, v.size() - kRamSuffix.size()));
}

Status validate_tiers(const PresetTable& t) {
  if (t.tiers.size() != kPresetTierNames.size())
    return err("tiers: must define exactly fallback, small, medium, large, xlarge; got " +
               std::to_string(t.tiers.size()));
  int32_t prev_cpu = 0, prev_ram = 0;
  for (std::size_t i = 0; i < kPresetTierNames.size(); ++i) {
    const std::string name(kPresetTierNames[i]);
    const auto it = t.tiers.find(name);
    if (it == t.tiers.end()) return err("tiers: " + in_quotes(name) + " is missing");
    if (name == kFallbackTier && it->second != kPinnedFallback)
      return err("tiers[fallback]: must stay 4 CPU / 16Gi, the value stamped before presets existed");
    const auto cpu = parse_unit_count(it->second.cpu);
    if (!cpu) return err("tiers[" + name + "].cpu: " + cpu.error());
    const auto ram = parse_unit_ram(it->second.ram);
    if (!ram) return err("tiers[" + name + "].ram: " + ram.error());
    if (i == 1 && (*cpu <= prev_cpu || *ram <= prev_ram))
      return err("tiers[" + name + "]: must be strictly larger than \"fallback\" on both axes");
    if (i > 1 && (*cpu < prev_cpu || *ram < prev_ram))
      return err("tiers[" + name + "]: must not be smaller than " + in_quotes(kPresetTierNames[i - 1]) +
                 " on either axis");
    prev_cpu = *cpu;
    prev_ram = *ram;
  }
  return Ok{};
}

// A prefix or strip sequence: lower-case [a-z0-9] plus separators, at least one token.
Status validate_sequence(std::string_view s) {
  for (char c : s)
    if (!is_token_char(c) && !is_separator(c))
      return err("must be lowercase [a-z0-9] plus the token separators \"-_.\"");
  if (split_preset_tokens(s).empty()) return err("must carry at least one token");
  return Ok{};
}

Status validate_token(std::string_view s) {
  if (s.empty()) return err("must not be empty");
  for (char c : s)
    if (!is_token_char(c)) return err("must be a single lowercase [a-z0-9] token");
  return Ok{};
}

Status validate_strip(const PresetTable& t) {
  std::set<std::string> seen;
  for (const auto& s : t.strip) {
    if (auto st = validate_sequence(s); !st) return err("strip[" + in_quotes(s) + "]: " + st.error());
    if (!seen.insert(s).second) return err("strip[" + in_quotes(s) + "]: is listed twice");
  }
  for (std::size_t i = 0; i < t.strip.size(); ++i)
    for (std::size_t j = 0; j < t.strip.size(); ++j)
      if (i != j && has_token_prefix(split_preset_tokens(t.strip[j]), split_preset_tokens(t.strip[i])))
        return err("strip[" + in_quotes(t.strip[i]) + "]: is a token-prefix of strip[" + in_quotes(t.strip[j]) +
                   "], so stripping would depend on the order the two are listed in");
  return Ok{};
}

Status claim_family(const PresetTable& t, const std::string& at, const std::string& family,
                    const std::string& tier, std::set<std::string>& claimed) {
  if (family.empty()) return err(at + ".family: must not be empty");
  if (!claimed.insert(family).second)
    return err(at + ".family: " + in_quotes(family) + " is already claimed elsewhere in the table");
  if (!t.tiers.count(tier)) return err(at + ".tier: " + in_quotes(tier) + " is not a defined tier");
  return Ok{};
}

Status validate_entry(const PresetTable& t, const std::string& manufacturer, const PresetEntry& e,
                      std::set<std::string>& claimed) {
  const std::string at = "families[" + manufacturer + "][" + e.prefix + "]";
  if (auto s = validate_sequence(e.prefix); !s) return err(at + ".prefix: " + s.error());
  const auto prefix = split_preset_tokens(e.prefix);
  if (has_token_prefix(prefix, split_preset_tokens(manufacturer)))
    return err(at + ".prefix: starts with its own manufacturer name, which normalization removes");
  for (const auto& s : t.strip)
    if (has_token_prefix(prefix, split_preset_tokens(s)))
      return err(at + ".prefix: starts with the stripped sequence " + in_quotes(s) + ", so it never matches");
  if (auto s = claim_family(t, at, e.family, e.tier, claimed); !s) return s;
  std::set<std::string> tokens;
  for (const auto& v : e.by) {
    const std::string vat = at + ".by[" + in_quotes(v.token) + "]";
    if (auto s = validate_token(v.token); !s) return err(vat + ".token: " + s.error());
    if (!tokens.insert(v.token).second) return err(vat + ".token: is listed twice");
    if (std::find(prefix.begin(), prefix.end(), v.token) != prefix.end())
      return err(vat + ".token: is a token of the entry's own prefix, which makes the entry's own tier unreachable");
    // The operator names a variant's family and tier by its bare token: families[m][p].by[80gb].family.
    if (auto s = claim_family(t, at + ".by[" + v.token + "]", v.family, v.tier, claimed); !s) return s;
  }
  return Ok{};
}

Status validate_families(const PresetTable& t) {
  std::set<std::string> claimed;
  for (const auto& [manufacturer, entries] : t.families) {
    if (!find_manufacturer(manufacturer))
      return err("families[" + manufacturer + "]: is not a manufacturer the operator can detect");
    for (const auto& e : entries)
      if (auto s = validate_entry(t, manufacturer, e, claimed); !s) return s;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      for (std::size_t j = 0; j < entries.size(); ++j) {
        if (i == j) continue;
        const auto& outer = entries[i].prefix;
        const auto& inner = entries[j].prefix;
        if (!has_token_prefix(split_preset_tokens(inner), split_preset_tokens(outer))) continue;
        if (outer == inner) return err("families[" + manufacturer + "]: prefix " + in_quotes(outer) + " is used twice");
        return err("families[" + manufacturer + "]: prefix " + in_quotes(outer) + " is a token-prefix of " +
                   in_quotes(inner) + ", so a key could match both");
      }
    }
  }
  return Ok{};
}

}  // namespace

std::span<const std::string_view> preset_tier_names() { return kPresetTierNames; }

std::vector<std::string> split_preset_tokens(std::string_view key) {
  std::vector<std::string> tokens;
  std::string current;
  for (char c : key) {
    if (is_separator(c)) {
      if (!current.empty()) tokens.push_back(std::move(current));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  return tokens;
}

bool has_token_prefix(const std::vector<std::string>& tokens, const std::vector<std::string>& prefix) {
  return prefix.size() <= tokens.size() && std::equal(prefix.begin(), prefix.end(), tokens.begin());
}

Result<PresetTable> parse_preset_table(const nlohmann::json& document) {
  auto table = decode_table(document);
  if (!table) return table;
  if (auto s = validate_preset_table(*table); !s) return err(s.error());
  return table;
}

Status validate_preset_table(const PresetTable& table) {
  if (auto s = validate_tiers(table); !s) return s;
  if (auto s = validate_strip(table); !s) return s;
  return validate_families(table);
}

}  // namespace chaintwin::model
