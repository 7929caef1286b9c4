// The preset lookup over a validated table.
#include "model/catalog/unit_presets.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "model/normalize_name.h"

namespace chaintwin::model {
namespace data {
extern const std::string_view kUnitResourcesPresetJson;  // generated from the JSON table
}  // namespace data

namespace {

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

std::vector<std::string> preset_lookup_tokens(const PresetTable& table, std::string_view manufacturer,
                                              std::string_view product) {
  return strip_leading_marketing(table, split_preset_tokens(preset_key(manufacturer, product)));
}

std::string preset_key(std::string_view manufacturer, std::string_view product) {
  return normalize_name(product, manufacturer, 0, false);
}

UnitResourcesPreset preset_unit_resources(const PresetTable& table, std::string_view manufacturer,
                                          std::string_view product) {
  const std::string fallback(kFallbackTier);
  const auto family = table.families.find(std::string(manufacturer));
  if (family == table.families.end() || family->second.empty()) return of_tier(table, fallback, "");
  const auto tokens = preset_lookup_tokens(table, manufacturer, product);
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

}  // namespace chaintwin::model
