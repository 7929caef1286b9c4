// The unit-resources preset table as data (the operator's pkg/nodefeature/unit_resources_preset.yaml,
// shipped here as model/data/unit_resources_preset.json): the tier ladder, the leading marketing
// token sequences to strip, and per-manufacturer prefix entries with ordered variants.
// parse_preset_table decodes strictly and applies the operator's load-time rules, so a bad edit is
// refused with the place it went wrong. The lookup that reads the table is in unit_presets.h.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/result.h"

namespace chaintwin::model {

// One rung of the ladder: the per-whole-card unit CPU and RAM, held as the strings the
// InstanceType carries ("8", "64Gi").
struct PresetTier {
  std::string cpu;
  std::string ram;
  bool operator==(const PresetTier&) const = default;
};

// Refines an entry when `token` appears as a whole token anywhere in the product key.
struct PresetVariant {
  std::string token;
  std::string family;
  std::string tier;
  bool operator==(const PresetVariant&) const = default;
};

// One accelerator family of one manufacturer. `prefix` is a token sequence ("rtx-4090"); `by` is
// the only ordered part of the table: its first variant whose token the key carries wins.
struct PresetEntry {
  std::string prefix;
  std::string family;
  std::string tier;
  std::vector<PresetVariant> by;
  bool operator==(const PresetEntry&) const = default;
};

struct PresetTable {
  std::map<std::string, PresetTier> tiers;                   // exactly kPresetTierNames
  std::vector<std::string> strip;                            // leading marketing sequences
  std::map<std::string, std::vector<PresetEntry>> families;  // manufacturer key -> entries
  bool operator==(const PresetTable&) const = default;
};

inline constexpr std::string_view kFallbackTier = "fallback";

// The tier ladder, smallest first: fallback, small, medium, large, xlarge.
std::span<const std::string_view> preset_tier_names();

// Splits a normalized key into its tokens on '-', '_' and '.', dropping empty pieces.
std::vector<std::string> split_preset_tokens(std::string_view key);

// Whether `prefix` is a token-prefix of `tokens` (whole tokens: "a10" does not lead "a100").
bool has_token_prefix(const std::vector<std::string>& tokens, const std::vector<std::string>& prefix);

// Strictly decodes a table document ({tiers, strip, families}; an "about" string is allowed as
// documentation) and validates it. Unknown keys and wrong types are refused by path.
Result<PresetTable> parse_preset_table(const nlohmann::json& document);

// The operator's load-time rules: the exact tier set with the pinned 4/16Gi fallback, a monotonic
// ladder of webhook-acceptable values; well-formed, non-redundant strip sequences; per manufacturer
// a detectable key, prefixes that can never both match one key, family names unique across the
// table, well-formed variant tokens, and no entry made dead by the strip or the manufacturer trim.
Status validate_preset_table(const PresetTable& table);

}  // namespace chaintwin::model
