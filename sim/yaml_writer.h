// Writes JSON values as block-style YAML the way kubectl prints objects: maps in key order,
// strings quoted only when YAML would otherwise read them as something else ('16', 'true').
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace chaintwin::sim {

std::string to_yaml(const nlohmann::json& value);
std::string to_yaml(const nlohmann::ordered_json& value);  // keeps insertion order
// Several documents separated by `---`.
std::string to_yaml_documents(const nlohmann::json& documents);
std::string to_yaml_documents(const nlohmann::ordered_json& documents);

}  // namespace chaintwin::sim
