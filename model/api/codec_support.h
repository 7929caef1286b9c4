// Shared pieces of the Kubernetes JSON codecs (object_meta_codec, node_codec, devices_codec):
// JSON-path spelling of decode errors and typed, range-checked reads that name the field they
// refuse, e.g. `spec.groups[0].accelerators[1].status.logicalSliced.count: expected an integer,
// got "x"`. Readers throw DecodeError inside a codec; each public decode_* turns it into a Result.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/api/object_meta.h"

namespace chaintwin::model::codec {

using json = nlohmann::json;

class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "parent.key" (or "key" at the root), "parent[3]", "parent[\"key\"]".
std::string member_path(std::string_view parent, std::string_view key);
std::string index_path(std::string_view parent, std::size_t index);
std::string key_path(std::string_view parent, std::string_view key);

[[noreturn]] void fail(const std::string& path, const std::string& what);

// The member `key` of `object`, or nullptr when it is absent or JSON null (Go reads both as zero).
const json* find_member(const json& object, std::string_view key);

// Throws unless `value` is an object; `path` names it.
void expect_object(const json& value, const std::string& path);

// Checks `kind` and `apiVersion` when the document carries them (absent ones are accepted).
void expect_type_meta(const json& document, std::initializer_list<std::string_view> api_versions,
                      std::string_view kind);

// Typed members of an object at `parent` (absent or null reads as the zero value).
std::string read_string(const json& object, std::string_view key, const std::string& parent);
bool read_bool(const json& object, std::string_view key, const std::string& parent);
// An integer within [min, max]; below 0 when min is 0 reads "must not be negative".
int64_t read_int(const json& object, std::string_view key, const std::string& parent, int64_t min,
                 int64_t max);
uint64_t read_uint64(const json& object, std::string_view key, const std::string& parent);
// The same checks for a value already found at `path`.
int64_t as_int(const json& value, const std::string& path, int64_t min, int64_t max);
uint64_t as_uint64(const json& value, const std::string& path);
std::string as_string(const json& value, const std::string& path);
// A Kubernetes quantity written as a string ("1600k") or a plain JSON number.
Quantity as_quantity(const json& value, const std::string& path);

// An array member (empty when absent); throws when present but not an array.
const json& read_array(const json& object, std::string_view key, const std::string& parent);
// An array member decoded element by element, in order: decode(element, "<parent>.<key>[i]").
template <typename Decode>
auto read_list(const json& object, std::string_view key, const std::string& parent, Decode&& decode) {
  using T = std::decay_t<std::invoke_result_t<Decode&, const json&, const std::string&>>;
  std::vector<T> out;
  const json& list = read_array(object, key, parent);
  const std::string path = member_path(parent, key);
  for (std::size_t i = 0; i < list.size(); ++i) out.push_back(decode(list[i], index_path(path, i)));
  return out;
}
StringMap read_string_map(const json& object, std::string_view key, const std::string& parent);
std::vector<std::string> read_string_list(const json& object, std::string_view key,
                                          const std::string& parent);

}  // namespace chaintwin::model::codec
