// Issue 17, unit-spec presets: a multi-word brand survives NormalizeName's manufacturer trim (the
// trim fires only when the buffer equals the manufacturer at that instant), so only a strip
// sequence of its own lets the preset table match. Expected values worked by hand from
// operator-code-rules.md §3c (NormalizeName) and §3f (the lookup), and the purpose-built tables of
// unit_resources_preset_test.go TestPresetUnitResourcesNormalization (tiers of §3f).
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/catalog/unit_presets.h"

namespace model = chaintwin::model;
using nlohmann::json;

namespace {

// The operator fixture's table: the five tiers, the given strip list, the given families.
model::PresetTable fixture_table(const json& strip, const json& families) {
  json doc{{"tiers",
            {{"fallback", {{"cpu", "4"}, {"ram", "16Gi"}}},
             {"small", {{"cpu", "8"}, {"ram", "32Gi"}}},
             {"medium", {{"cpu", "8"}, {"ram", "64Gi"}}},
             {"large", {{"cpu", "12"}, {"ram", "128Gi"}}},
             {"xlarge", {{"cpu", "12"}, {"ram", "192Gi"}}}}},
           {"strip", strip},
           {"families", families}};
  auto table = model::parse_preset_table(doc);
  if (!table) FAIL("fixture table refused: " << table.error());
  return std::move(table).value();
}

struct Row {
  std::string name;
  json strip;
  json families;
  std::string manufacturer;
  std::string product;
  std::string key;                  // NormalizeName(product, manufacturer, 0, false)
  std::vector<std::string> tokens;  // after the strip
  std::string cpu;
  std::string ram;
};

}  // namespace

TEST_CASE("a multi-word brand needs its strip sequence before the preset table matches", "[unit_presets][issue17]") {
  const json metax = json::parse(R"({"metax": [{"prefix": "c500", "family": "c500", "tier": "large"}]})");
  const json mthreads =
      json::parse(R"({"mthreads": [{"prefix": "mtt-s4000", "family": "mtt-s4000", "tier": "medium"}]})");
  const json amd = json::parse(R"({"amd": [{"prefix": "mi300x", "family": "mi300x", "tier": "xlarge"}]})");
  const std::vector<Row> rows{
      // "Meta X C500": buffer "meta-" has metax's length but not its letters, so no trim.
      {"Meta X C500 with strip [meta-x] reaches the c500 entry", {"meta-x"}, metax, "metax", "Meta X C500",
       "meta-x-c500", {"c500"}, "12", "128Gi"},
      {"Meta X C500 without the brand's strip sequence falls back", {"tesla"}, metax, "metax", "Meta X C500",
       "meta-x-c500", {"meta", "x", "c500"}, "4", "16Gi"},
      // "MetaX C500": the buffer reads "metax" at length 5 and is cleared — the trim, no strip needed.
      {"the one-word brand is trimmed and needs no strip", {"tesla"}, metax, "metax", "MetaX C500", "c500", {"c500"},
       "12", "128Gi"},
      {"Moore Threads MTT S4000 with strip [moore-threads] reaches mtt-s4000", {"moore-threads"}, mthreads,
       "mthreads", "Moore Threads MTT S4000", "moore-threads-mtt-s4000", {"mtt", "s4000"}, "8", "64Gi"},
      {"Moore Threads MTT S4000 without it falls back", {"tesla"}, mthreads, "mthreads", "Moore Threads MTT S4000",
       "moore-threads-mtt-s4000", {"moore", "threads", "mtt", "s4000"}, "4", "16Gi"},
      // Two sequences stripped in successive passes (the Go comment's own example).
      {"radeon then instinct are stripped in two passes", {"radeon", "instinct"}, amd, "amd",
       "AMD Radeon Instinct MI300X OAM", "radeon-instinct-mi300x-oam", {"mi300x", "oam"}, "12", "192Gi"},
      // Strip order is not semantic: listed the other way round the same two passes happen.
      {"the strip list order does not matter", {"instinct", "radeon"}, amd, "amd", "AMD Radeon Instinct MI300X OAM",
       "radeon-instinct-mi300x-oam", {"mi300x", "oam"}, "12", "192Gi"},
  };
  for (const auto& row : rows) {
    SECTION(row.name) {
      const auto table = fixture_table(row.strip, row.families);
      CHECK(model::preset_key(row.manufacturer, row.product) == row.key);
      CHECK(model::preset_lookup_tokens(table, row.manufacturer, row.product) == row.tokens);
      const auto preset = model::preset_unit_resources(table, row.manufacturer, row.product);
      CHECK(preset.cpu == row.cpu);
      CHECK(preset.ram == row.ram);
    }
  }
}

TEST_CASE("the shipped table strips marketing words but carries no multi-word brand sequence",
          "[unit_presets][issue17]") {
  // unit_resources_preset.yaml @9c359ba5: strip = tesla, geforce, quadro, radeon, instinct.
  struct Shipped {
    std::string manufacturer, product, cpu, ram;
  };
  const std::vector<Shipped> rows{
      {"amd", "AMD Radeon Instinct MI300X OAM", "12", "192Gi"},  // mi300x xlarge
      {"nvidia", "NVIDIA GeForce RTX 4090", "8", "64Gi"},        // rtx-4090 medium
      {"nvidia", "NVIDIA Quadro RTX 6000", "8", "32Gi"},         // rtx-6000 small
      {"nvidia", "Tesla V100-SXM2-32GB", "8", "64Gi"},           // v100 by 32gb → medium
      {"metax", "MetaX MXC500", "8", "64Gi"},                    // trimmed, mxc500 medium
      {"metax", "Meta X MXC500", "4", "16Gi"},                   // "meta-x" survives, no strip → fallback
      {"mthreads", "Moore Threads MTT S4000", "4", "16Gi"},      // same for "moore-threads"
      {"mthreads", "MTT S4000", "8", "64Gi"},                    // mtt-s4000 medium
  };
  for (const auto& row : rows) {
    SECTION(row.manufacturer + " " + row.product) {
      const auto preset = model::preset_unit_resources(row.manufacturer, row.product);
      CHECK(preset.cpu == row.cpu);
      CHECK(preset.ram == row.ram);
    }
  }
}
