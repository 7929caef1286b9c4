// The fields the scenario loader accepts at each place of a scenario file, by the name the JSON
// Schema (docs/scenario.schema.json) gives that place under `$defs`. The loader checks every
// mapping against this table, and a unit test checks the schema's `properties` against it, so
// the two cannot drift apart.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace chaintwin::sim {

// `$defs` name → accepted field names (schema order). "Scenario" is the document root.
const std::map<std::string, std::vector<std::string>>& scenario_fields();
// The fields of one place; aborts on an unknown place (a programming error).
const std::vector<std::string>& scenario_fields_at(const std::string& place);

}  // namespace chaintwin::sim
