// The strict field reader the scenario loader is built on: a Val is one JSON value of a parsed
// scenario document with its field path and the document's line map, and the helpers below
// read it as the scenario format demands — known keys only, exact types, units — or stop the
// load with `file:line: field.path: what was wrong (what was expected)`.
//
// Inside the loader a refusal is thrown as ScenarioError and caught once at the boundary
// (load_scenario / load_scenario_text), which turns it into a model::Result; nothing outside
// sim/scenario ever sees the exception.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/api/quantity.h"
#include "sim/kube_documents.h"
#include "sim/scenario/scenario.h"
#include "sim/sim_time.h"

namespace chaintwin::sim::scenario_detail {

struct ScenarioError {
  std::string message;
};

struct Val {
  const SourceObject* doc = nullptr;  // the document (file + line map)
  const nlohmann::json* json = nullptr;
  std::string path;  // field path inside the document, "" for the root

  std::string where() const { return doc->where(path); }  // "file:line"
  SourceRef ref() const;
  bool is_null() const { return json->is_null(); }
  bool is_object() const { return json->is_object(); }
  bool is_array() const { return json->is_array(); }
  bool is_string() const { return json->is_string(); }
  bool has(const char* key) const { return json->is_object() && json->contains(key); }
  Val at(const std::string& key) const;  // the child (must exist)
  Val at(size_t index) const;
};

// Stops the load: "<file:line>: <path>: <message>".
[[noreturn]] void fail(const Val& v, const std::string& message);

// The JSON type of a value, for messages: "a string", "a mapping", ...
std::string type_name(const nlohmann::json& j);

// Refuses keys not in `allowed` (the message lists them); the value must be a mapping.
void expect_keys(const Val& v, const std::vector<std::string>& allowed, const std::string& what);
std::optional<Val> opt(const Val& v, const char* key);
Val req(const Val& v, const char* key, const std::string& expected);

std::string as_string(const Val& v, const std::string& expected = "a string");
bool as_bool(const Val& v);
int64_t as_int(const Val& v, int64_t min, int64_t max = INT64_MAX);
SimTime as_duration(const Val& v);
model::Quantity as_quantity(const Val& v);
std::vector<Val> as_list(const Val& v, const std::string& expected);
// A mapping of string keys to string values (numbers and booleans are refused: quote them).
model::StringMap as_string_map(const Val& v);
// One of `choices`.
std::string as_choice(const Val& v, const std::vector<std::string>& choices);
// "12/h", "1.5/h", "0.25/m" → per second (units s, m, h, d). The count is a plain positive decimal
// (no sign, exponent or bare point: "0.5", not ".5"); the rate must pass rate_in_range. Refuses
// anything else.
double as_rate(const Val& v);
// A counter check: an integer (== n) or a comparison string ">= 480".
Comparison as_comparison(const Val& v);
std::string join(const std::vector<std::string>& items, const char* sep = ", ");

}  // namespace chaintwin::sim::scenario_detail
