// Condition list encoding and path-aware decoding.
#include "model/kueue/condition_codec.h"

#include <limits>

#include "model/api/codec_support.h"

namespace chaintwin::model {

nlohmann::json encode_conditions(const std::vector<Condition>& conditions) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : conditions) {
    nlohmann::json j{{"type", c.type}, {"status", c.status}, {"reason", c.reason}, {"message", c.message}};
    if (c.observed_generation != 0) j["observedGeneration"] = c.observed_generation;
    out.push_back(std::move(j));
  }
  return out;
}

namespace codec {

std::vector<Condition> decode_conditions_at(const json& list, const std::string& path) {
  if (!list.is_array()) fail(path, "expected an array, got " + list.dump());
  std::vector<Condition> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = index_path(path, i);
    expect_object(list[i], at);
    Condition c;
    c.type = read_string(list[i], "type", at);
    if (c.type.empty()) fail(member_path(at, "type"), "must not be empty");
    c.status = read_string(list[i], "status", at);
    if (c.status != "True" && c.status != "False" && c.status != "Unknown")
      fail(member_path(at, "status"), "expected \"True\", \"False\" or \"Unknown\", got " + json(c.status).dump());
    c.reason = read_string(list[i], "reason", at);
    c.message = read_string(list[i], "message", at);
    c.observed_generation = read_int(list[i], "observedGeneration", at, 0, std::numeric_limits<int64_t>::max());
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace codec

Result<std::vector<Condition>> decode_conditions(const nlohmann::json& list) {
  try {
    return codec::decode_conditions_at(list, "");
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
