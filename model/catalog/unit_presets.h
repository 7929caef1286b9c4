// Unit-resource presets (PresetUnitResources in pkg/nodefeature/unit_resources_preset.go): the
// per-whole-card CPU and RAM stamped on a node-derived accelerated InstanceType, looked up by the
// accelerator's manufacturer and product in the preset table (unit_preset_table.h). Called by
// derived_unit_resources.h when an InstanceType is authored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/catalog/unit_preset_table.h"

namespace chaintwin::model {

// The outcome of one lookup: the unit spec plus which rung and family decided it (family is empty
// when the fallback applied), so callers can say why a pool got its size.
struct UnitResourcesPreset {
  std::string cpu;
  std::string ram;
  std::string tier;
  std::string family;
  bool operator==(const UnitResourcesPreset&) const = default;
};

// The table shipped inside the binary (model/data/unit_resources_preset.json, the operator's table
// @9c359ba5). Parsed and validated once; an invalid embedded table is a build defect and throws
// std::logic_error naming the rule it broke.
const PresetTable& shipped_preset_table();

// The lookup key: NormalizeName(product, manufacturer, 0, false) — no length budget, because a
// bounded one would cut a trailing capacity token.
std::string preset_key(std::string_view manufacturer, std::string_view product);

// stripLeadingMarketing: drops the table's strip sequences from the front of `tokens`, again and
// again until none leads them ("radeon-instinct-mi300x-oam" loses "radeon", then "instinct"). A
// multi-word brand the manufacturer trim leaves in place ("Meta X C500" under metax keys as
// "meta-x-c500") is reachable only through a strip sequence of its own ("meta-x").
std::vector<std::string> strip_leading_marketing(const PresetTable& table, std::vector<std::string> tokens);
// The tokens the lookup matches entries against: preset_key split on "-_." (splitPresetTokens),
// then strip_leading_marketing.
std::vector<std::string> preset_lookup_tokens(const PresetTable& table, std::string_view manufacturer,
                                              std::string_view product);

// The lookup: a manufacturer without entries, an empty key, a key that is only stripped marketing
// tokens, or a key no entry's prefix tokens lead all give the fallback tier. Otherwise the first
// entry whose prefix tokens lead the (stripped) key decides; its ordered `by` list picks a variant
// on a whole-token match anywhere in the key, else the entry's own tier. `table` must be valid.
UnitResourcesPreset preset_unit_resources(const PresetTable& table, std::string_view manufacturer,
                                          std::string_view product);
// The same against the shipped table.
UnitResourcesPreset preset_unit_resources(std::string_view manufacturer, std::string_view product);

}  // namespace chaintwin::model
