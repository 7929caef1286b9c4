// Path-aware typed reads for the JSON codecs.
#include "model/api/codec_support.h"

#include <limits>

namespace chaintwin::model::codec {
namespace {

const json& empty_array() {
  static const json kEmpty = json::array();
  return kEmpty;
}

std::string range_name(int64_t min, int64_t max) {
  if (min == std::numeric_limits<int32_t>::min() && max == std::numeric_limits<int32_t>::max()) return "int32";
  if (min == 0 && max == std::numeric_limits<int32_t>::max()) return "int32";
  if (min == 0 && max == std::numeric_limits<uint32_t>::max()) return "uint32";
  if (min == 0 && max == std::numeric_limits<int64_t>::max()) return "int64";
  return "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

}  // namespace

std::string member_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return std::string(parent) + "." + std::string(key);
}

std::string index_path(std::string_view parent, std::size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

std::string key_path(std::string_view parent, std::string_view key) {
  return std::string(parent) + "[" + json(std::string(key)).dump() + "]";
}

void fail(const std::string& path, const std::string& what) {
  throw DecodeError(path.empty() ? what : path + ": " + what);
}

const json* find_member(const json& object, std::string_view key) {
  const auto it = object.find(std::string(key));
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

void expect_object(const json& value, const std::string& path) {
  if (!value.is_object()) fail(path, "expected an object, got " + value.dump());
}

void expect_type_meta(const json& document, std::initializer_list<std::string_view> api_versions,
                      std::string_view kind) {
  if (const json* k = find_member(document, "kind")) {
    const auto got = as_string(*k, "kind");
    if (got != kind) fail("kind", "expected " + json(std::string(kind)).dump() + ", got " + k->dump());
  }
  if (const json* v = find_member(document, "apiVersion")) {
    const auto got = as_string(*v, "apiVersion");
    std::string accepted;
    for (auto a : api_versions) {
      if (got == a) return;
      accepted += (accepted.empty() ? "" : " or ") + json(std::string(a)).dump();
    }
    fail("apiVersion", "expected " + accepted + ", got " + v->dump());
  }
}

std::string as_string(const json& value, const std::string& path) {
  if (!value.is_string()) fail(path, "expected a string, got " + value.dump());
  return value.get<std::string>();
}

Quantity as_quantity(const json& value, const std::string& path) {
  std::string text;
  if (value.is_string()) {
    text = value.get<std::string>();
  } else if (value.is_number()) {
    text = value.dump();
  } else {
    fail(path, "expected a quantity string, got " + value.dump());
  }
  auto q = Quantity::parse(text);
  if (!q) fail(path, q.error());
  return *q;
}

int64_t as_int(const json& value, const std::string& path, int64_t min, int64_t max) {
  if (!value.is_number_integer()) fail(path, "expected an integer, got " + value.dump());
  if (value.is_number_unsigned()) {
    const auto u = value.get<uint64_t>();
    if (u > static_cast<uint64_t>(max))
      fail(path, "expected an integer within " + range_name(min, max) + ", got " + value.dump());
    return static_cast<int64_t>(u);
  }
  const auto v = value.get<int64_t>();
  if (v < 0 && min == 0) fail(path, "must not be negative, got " + value.dump());
  if (v < min || v > max)
    fail(path, "expected an integer within " + range_name(min, max) + ", got " + value.dump());
  return v;
}

uint64_t as_uint64(const json& value, const std::string& path) {
  if (!value.is_number_integer()) fail(path, "expected an integer, got " + value.dump());
  if (!value.is_number_unsigned() && value.get<int64_t>() < 0)
    fail(path, "must not be negative, got " + value.dump());
  return value.get<uint64_t>();
}

std::string read_string(const json& object, std::string_view key, const std::string& parent) {
  const json* v = find_member(object, key);
  return v == nullptr ? std::string{} : as_string(*v, member_path(parent, key));
}

bool read_bool(const json& object, std::string_view key, const std::string& parent) {
  const json* v = find_member(object, key);
  if (v == nullptr) return false;
  if (!v->is_boolean()) fail(member_path(parent, key), "expected a boolean, got " + v->dump());
  return v->get<bool>();
}

int64_t read_int(const json& object, std::string_view key, const std::string& parent, int64_t min,
                 int64_t max) {
  const json* v = find_member(object, key);
  return v == nullptr ? 0 : as_int(*v, member_path(parent, key), min, max);
}

uint64_t read_uint64(const json& object, std::string_view key, const std::string& parent) {
  const json* v = find_member(object, key);
  return v == nullptr ? 0 : as_uint64(*v, member_path(parent, key));
}

const json& read_array(const json& object, std::string_view key, const std::string& parent) {
  const json* v = find_member(object, key);
  if (v == nullptr) return empty_array();
  if (!v->is_array()) fail(member_path(parent, key), "expected an array, got " + v->dump());
  return *v;
}

StringMap read_string_map(const json& object, std::string_view key, const std::string& parent) {
  StringMap out;
  const json* v = find_member(object, key);
  if (v == nullptr) return out;
  const std::string path = member_path(parent, key);
  expect_object(*v, path);
  for (const auto& [k, value] : v->items()) out[k] = as_string(value, key_path(path, k));
  return out;
}

std::vector<std::string> read_string_list(const json& object, std::string_view key,
                                          const std::string& parent) {
  return read_list(object, key, parent, as_string);
}

}  // namespace chaintwin::model::codec
