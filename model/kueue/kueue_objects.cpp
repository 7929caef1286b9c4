#include "model/kueue/kueue_objects.h"

namespace chaintwin::model {

std::string_view to_string(StopPolicy p) {
  switch (p) {
    case StopPolicy::kHold: return "Hold";
    case StopPolicy::kHoldAndDrain: return "HoldAndDrain";
    case StopPolicy::kNone: break;
  }
  return "None";
}

std::optional<StopPolicy> parse_stop_policy(std::string_view text) {
  if (text == "None") return StopPolicy::kNone;
  if (text == "Hold") return StopPolicy::kHold;
  if (text == "HoldAndDrain") return StopPolicy::kHoldAndDrain;
  return std::nullopt;
}

const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type) {
  for (const auto& c : conditions)
    if (c.type == type) return &c;
  return nullptr;
}

bool set_condition(std::vector<Condition>& conditions, Condition c) {
  for (auto& existing : conditions) {
    if (existing.type != c.type) continue;
    if (existing == c) return false;
    existing = std::move(c);
    return true;
  }
  conditions.push_back(std::move(c));
  return true;
}

bool set_condition(std::vector<Condition>& conditions, std::string_view type, bool status, std::string_view reason,
                   std::string_view message) {
  const std::string_view status_text = status ? "True" : "False";
  for (auto& existing : conditions) {
    if (existing.type != type) continue;
    if (existing.status == status_text && existing.reason == reason && existing.message == message &&
        existing.observed_generation == 0)
      return false;
    existing.status.assign(status_text);
    existing.reason.assign(reason);
    existing.message.assign(message);
    existing.observed_generation = 0;
    return true;
  }
  conditions.push_back(Condition{std::string(type), std::string(status_text), std::string(reason), std::string(message), 0});
  return true;
}

bool AdmissionCheck::active() const {
  const Condition* c = find_condition(conditions, "Active");
  return c != nullptr && c->status == "True";
}

}  // namespace chaintwin::model
