// An ExplainResult for people (text) and for programs (-o json). Amounts read in Kueue's units and
// in plain ones: credits as cards (M = 1,600,000 a card), cpu in cores, memory in GiB.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/explain/explain_run.h"

namespace chaintwin::sim {

std::string explain_text(const ExplainResult& result);
nlohmann::json explain_json(const ExplainResult& result);

// A Kueue amount of `resource` in plain units: "2.5 cards", "4 cores", "16 GiB", else the number.
std::string plain_amount(const std::string& resource, int64_t amount);

}  // namespace chaintwin::sim
