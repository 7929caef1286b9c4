// The default scenario (scenarios/default.yaml), embedded in the binary at build time so that
// `chaintwin run` with no SCENARIO works from any directory.
#pragma once

#include <string_view>

namespace chaintwin::sim::data {

extern const std::string_view kDefaultScenarioYaml;

}  // namespace chaintwin::sim::data
