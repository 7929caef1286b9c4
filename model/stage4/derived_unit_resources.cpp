// The derived unit spec of an operator-authored InstanceType.
#include "model/stage4/derived_unit_resources.h"

namespace chaintwin::model {
namespace {

// Length of the UTF-8 sequence starting at s[i]; 1 for a stray or truncated byte.
std::size_t rune_length(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = 1;
  if (b >= 0xF0 && b <= 0xF4) n = 4;
  else if (b >= 0xE0) n = (b <= 0xEF) ? 3 : 1;
  else if (b >= 0xC2) n = 2;
  if (n == 1 || i + n > s.size()) return 1;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 1;
  return n;
}

}  // namespace

InstanceTypeUnitResources derived_unit_resources(const NodeFlavor& flavor, const PresetTable& table) {
  if (!flavor.acceleratable)
    return {std::string(kNonAcceleratedUnitCpu), std::string(kNonAcceleratedUnitRam)};
  const auto preset = preset_unit_resources(table, flavor.manufacturer, flavor.product);
  return {preset.cpu, preset.ram};
}

std::string derived_display_name(const NodeFlavor& flavor, bool cpu_aware) {
  if (!flavor.acceleratable && !cpu_aware) return std::string(kCpuOnlyDisplayName);
  return truncate_runes(flavor.product, kDisplayNameMaxRunes);
}

DerivedUnitSpec derived_unit_spec(const NodeFlavor& flavor, bool cpu_aware, const PresetTable& table) {
  DerivedUnitSpec spec;
  spec.local_storage = std::string(kDerivedLocalStorage);
  spec.display_name = derived_display_name(flavor, cpu_aware);
  if (!flavor.acceleratable) {
    spec.unit_resources = derived_unit_resources(flavor, table);
    spec.reason = "not accelerated: fixed 1 CPU / 2Gi";
    return spec;
  }
  const auto preset = preset_unit_resources(table, flavor.manufacturer, flavor.product);
  spec.unit_resources = {preset.cpu, preset.ram};
  spec.reason = preset.family.empty()
                    ? "no preset entry for " + flavor.manufacturer + " product '" + flavor.product +
                          "': fallback " + preset.cpu + " CPU / " + preset.ram
                    : "preset tier " + preset.tier + " (" + preset.family + ")";
  return spec;
}

std::string truncate_runes(std::string_view text, std::size_t max_runes) {
  std::size_t i = 0;
  for (std::size_t runes = 0; i < text.size() && runes < max_runes; ++runes) i += rune_length(text, i);
  return std::string(text.substr(0, i));
}

}  // namespace chaintwin::model
