#include "live/unknown_fields.h"

#include <string>

namespace chaintwin::live {
namespace {

using json = nlohmann::json;

// The list item of `list` that `item` corresponds to: the one with the same name, or the one at
// the same position when neither list names its items and the lengths agree.
const json* counterpart(const json& list, const json& item, size_t index, size_t length) {
  if (item.is_object() && item.contains("name")) {
    for (const auto& candidate : list)
      if (candidate.is_object() && candidate.value("name", json()) == item["name"]) return &candidate;
    return nullptr;
  }
  return list.size() == length && index < list.size() ? &list[index] : nullptr;
}

}  // namespace

json unknown_fields(const json& sent, const json& round_trip) {
  if (sent.is_object() && round_trip.is_object()) {
    json out = json::object();
    for (auto it = sent.begin(); it != sent.end(); ++it) {
      if (!round_trip.contains(it.key())) {
        out[it.key()] = it.value();
        continue;
      }
      json inner = unknown_fields(it.value(), round_trip[it.key()]);
      if (!inner.is_null()) out[it.key()] = std::move(inner);
    }
    return out.empty() ? json() : out;
  }
  if (sent.is_array() && round_trip.is_array()) {
    // A list keeps its items' unknown parts, each under the item's name (or position).
    json out = json::array();
    for (size_t i = 0; i < sent.size(); ++i) {
      const json* twin = counterpart(round_trip, sent[i], i, sent.size());
      if (twin == nullptr) continue;  // an item the model dropped is the model's to drop
      json inner = unknown_fields(sent[i], *twin);
      if (inner.is_null()) continue;
      if (sent[i].is_object() && sent[i].contains("name")) inner["name"] = sent[i]["name"];
      out.push_back({{"at", i}, {"of", sent.size()}, {"fields", std::move(inner)}});
    }
    return out.empty() ? json() : json{{"$items", out}};
  }
  return json();  // scalars the model read are the model's
}

json with_unknown_fields(json planned, const json& unknown) {
  if (!unknown.is_object()) return planned;
  if (unknown.contains("$items")) {
    if (!planned.is_array()) return planned;
    for (const auto& entry : unknown["$items"]) {
      const json& fields = entry["fields"];
      json* target = nullptr;
      if (fields.contains("name")) {
        for (auto& candidate : planned)
          if (candidate.is_object() && candidate.value("name", json()) == fields["name"]) target = &candidate;
      } else if (planned.size() == entry["of"].get<size_t>()) {
        target = &planned[entry["at"].get<size_t>()];
      }
      if (target != nullptr) *target = with_unknown_fields(std::move(*target), fields);
    }
    return planned;
  }
  if (!planned.is_object()) return planned;
  for (auto it = unknown.begin(); it != unknown.end(); ++it) {
    if (!planned.contains(it.key())) planned[it.key()] = it.value();
    else planned[it.key()] = with_unknown_fields(std::move(planned[it.key()]), it.value());
  }
  return planned;
}

}  // namespace chaintwin::live
