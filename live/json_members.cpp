#include "live/json_members.h"

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

const json* member(const json& j, std::string_view key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

}  // namespace

const json& object_member(const json& j, std::string_view key) {
  static const json empty = json::object();
  const json* m = member(j, key);
  return m != nullptr && m->is_object() ? *m : empty;
}

const json& array_member(const json& j, std::string_view key) {
  static const json empty = json::array();
  const json* m = member(j, key);
  return m != nullptr && m->is_array() ? *m : empty;
}

std::string string_member(const json& j, std::string_view key) {
  const json* m = member(j, key);
  return m != nullptr && m->is_string() ? m->get<std::string>() : std::string();
}

}  // namespace chaintwin::live
