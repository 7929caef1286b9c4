// Members of JSON that came from outside the program: an API server's reply, a watch event, an exec
// credential plugin's output, a file a user gave. nlohmann's `value(key, default)` throws when the
// value is not an object or the member has another type; these read such a member as empty instead,
// so a hostile or broken reply is refused or set aside by the caller, never an escaping exception.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace chaintwin::live {

// The member `key` of `j` when `j` is an object and the member is an object; else an empty object.
const nlohmann::json& object_member(const nlohmann::json& j, std::string_view key);
// The member `key` of `j` when `j` is an object and the member is an array; else an empty array.
const nlohmann::json& array_member(const nlohmann::json& j, std::string_view key);
// The member `key` of `j` when `j` is an object and the member is a string; else "".
std::string string_member(const nlohmann::json& j, std::string_view key);

}  // namespace chaintwin::live
