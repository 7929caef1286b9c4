// The published JSON Schema (docs/scenario.schema.json) and the loader accept the same fields in
// every place of a scenario, so an editor's completion never offers what the loader refuses and
// the loader never takes a field the schema would flag.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "sim/scenario/scenario_fields.h"

namespace {

using Names = std::set<std::string>;

nlohmann::json schema() {
  std::ifstream in(std::string(CHAINTWIN_SOURCE_DIR) + "/docs/scenario.schema.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

Names keys_of(const nlohmann::json& properties) {
  Names out;
  for (const auto& item : properties.items()) out.insert(item.key());
  return out;
}

}  // namespace

TEST_CASE("the schema and the loader accept the same fields in every place of a scenario", "[scenario]") {
  const auto s = schema();
  Names places;
  for (const auto& [place, fields] : chaintwin::sim::scenario_fields()) {
    INFO("place " << place);
    places.insert(place);
    const nlohmann::json& def = place == "Scenario" ? s : s.at("$defs").at(place);
    CHECK(keys_of(def.at("properties")) == Names(fields.begin(), fields.end()));
    CHECK(def.at("additionalProperties") == false);  // unknown keys are errors in both
  }
  Names defs = keys_of(s.at("$defs"));
  defs.insert("Scenario");
  CHECK(defs == places);
}
