// Plan: a loaded and checked plan file (chaintwin/v1 kind Plan, docs/planning.md) — the base
// scenario, the variables that span the configurations, the SLOs every configuration is judged
// by, the seeds each configuration runs with, the objective and how the space is searched.
// Produced by load_plan() (plan_loader.h); every value here has already been validated.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/scenario/scenario.h"
#include "sim/sim_time.h"

namespace chaintwin::sim::plan {

// One field a variable's value writes into the base scenario document: `path` names the field
// (`cluster.nodes[h100-0].count`, `workloads[h100-chat].podSets[0].request`; a `[...]` that is not
// a number selects the list entry whose name or namePrefix it is), `value` is what is written
// there: a mapping is merged into the mapping already there (JSON merge patch), anything else
// replaces it.
struct FieldPatch {
  std::string path;
  nlohmann::json value;
  bool operator==(const FieldPatch&) const = default;
};

// One value a variable can take.
struct VariableValue {
  std::string label;                // how reports and the SQLite file name it ("3", "mig", "1.5")
  std::optional<double> number;     // numeric variables: the value itself
  std::vector<FieldPatch> patches;  // what it writes into the scenario document
  double demand_scale = 1;          // demandScale variables
  std::optional<SimTime> horizon;   // horizon variables
};

struct Variable {
  enum class Kind { kNodeCount, kNodeTemplate, kPartitioning, kSetting, kDemandScale, kHorizon, kPatch };
  // How feasibility moves along the values (in their order): more capacity never hurts
  // (node counts: a configuration that meets every SLO still meets them with more), more demand
  // never helps (demand scale). kNone: no assumption, every value must be run.
  enum class Monotone { kNone, kMoreIsBetter, kMoreIsWorse };
  std::string name;
  Kind kind = Kind::kPatch;
  Monotone monotone = Monotone::kNone;
  std::string target;      // node template, setting name, or workload class ("" = all classes)
  std::vector<VariableValue> values;  // in ascending order for numeric variables
  SourceRef where;
};

// A service level objective judged on every configuration's runs.
struct Slo {
  enum class Subject { kClass, kPool, kGpuModel, kAll };
  enum class Metric { kWait, kAdmittedFraction, kNeverAdmitted, kUtilization };
  Subject subject = Subject::kClass;
  std::string name;        // workload class (generator), ClusterQueue, or accelerator key
  Metric metric = Metric::kWait;
  int32_t percentile = 95;  // kWait: 50, 90, 95, 99, or 100 (the maximum)
  double bound = 0;         // kWait: seconds (at most); kAdmittedFraction / kUtilization: at least;
                            // kNeverAdmitted: at most
  SourceRef where;
  // "class h100-chat wait p95 <= 15m"
  std::string describe() const;
  // true when the metric must stay at or below the bound, false when at or above it.
  bool at_most() const { return metric == Metric::kWait || metric == Metric::kNeverAdmitted; }
};

struct Objective {
  enum class Kind { kMinimizeCards, kMinimizeCost, kMaximizeVariable };
  Kind kind = Kind::kMinimizeCards;
  std::map<std::string, double> card_prices;  // accelerator key or product → price per card
  std::map<std::string, double> node_prices;  // node template (name or namePrefix) → price per node
  std::string variable;                       // kMaximizeVariable
};

struct SearchOptions {
  enum class Mode { kAdaptive, kGrid };
  enum class Judge { kMean, kConfidence };  // the mean over seeds, or its pessimistic 95 % bound
  Mode mode = Mode::kAdaptive;
  Judge judge = Judge::kMean;
  int32_t batch = 4;  // configurations proposed per adaptive round (fixed, so -j never changes a decision)
};

struct Plan {
  std::string file;  // as given
  std::string name;
  std::string description;
  std::string base;       // the base scenario file as resolved ("" = the embedded default)
  std::string base_text;  // its text
  bool expectations = false;  // judge the base scenario's `expect:` blocks in every run
  std::vector<uint64_t> seeds;
  std::vector<Variable> variables;
  std::vector<Slo> slos;
  Objective objective;
  SearchOptions search;
  // FNV-64 hex over what the runs depend on: the plan without its metadata, objective and search,
  // and the base scenario's text. A plan file (SQLite) serves every plan with the same hash.
  std::string content_hash;
};

// A cost in the objective's terms: "24 cards", "cost 71.50", "demand 2.5" (plan_report.cpp).
std::string cost_text(const Plan& plan, double cost);

}  // namespace chaintwin::sim::plan
