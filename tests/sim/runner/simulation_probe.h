// A scenario given as text, run to a time and handed back for inspection, and what the runner
// tests read off the cluster it left. Shared by the runner tests that drive timeline actions.
#pragma once

#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace chaintwin::sim::testing {

// Loads `text` (named `name` in load errors), starts it and steps until `until`.
inline std::unique_ptr<Simulation> run_until(const std::string& text, SimTime until,
                                             const std::string& name = "scenario.yaml") {
  auto scenario = load_scenario_text(text, name);
  REQUIRE(scenario.ok());
  RunOptions options;
  options.until = until;
  auto simulation = std::make_unique<Simulation>(std::move(*scenario), options);
  REQUIRE(simulation->start().ok());
  while (simulation->step()) {
  }
  return simulation;
}

// A Node's status.capacity of `key`, or "(absent)".
inline std::string capacity_of(const Simulation& s, const std::string& node, const std::string& key) {
  const auto& c = s.cluster().nodes.at(node).status.capacity;
  const auto it = c.find(key);
  return it == c.end() ? "(absent)" : it->second.to_string();
}

}  // namespace chaintwin::sim::testing
