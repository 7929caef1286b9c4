// Runs a plan: the objective's cost of every configuration, then round after round of the search
// (search.h) — each round's runs that the plan's store does not hold yet are simulated on `jobs`
// threads, each run with its own Simulation on its own copy of the configuration's scenario, and
// written to the store as they complete. The rounds are replayed from the store from the first
// one, so a resumed plan, a plan run with another -j and the merge of shards all take the same
// decisions. With a shard (I of N), only the shard's share of the first round that still misses
// runs is simulated, and the driver stops there.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/result.h"
#include "sim/plan/plan.h"
#include "sim/plan/plan_space.h"
#include "sim/plan/plan_store.h"
#include "sim/plan/search.h"

namespace chaintwin::sim::plan {

struct Shard {
  int64_t index = 0, count = 1;
};

struct DriverOptions {
  int32_t jobs = 1;
  std::optional<Shard> shard;
  std::string version;
  // After every completed run: runs done so far and the total of the current plan of work, the
  // label of the best configuration so far ("" when none), and the round.
  std::function<void(int64_t done, int64_t total, const std::string& best, int64_t round)> on_progress;
};

struct RoundRecord {
  std::vector<size_t> points;
  std::vector<std::string> why;
};

struct PlanOutcome {
  std::vector<Point> grid;
  std::vector<double> cost, cards;
  std::vector<RoundRecord> rounds;
  std::map<size_t, PointOutcome> known;
  std::vector<Knowledge> knowledge;
  std::optional<size_t> best;
  bool finished = false;       // the search is over (false: a shard stopped after its share)
  int64_t runs_simulated = 0;  // by this invocation
  int64_t runs_total = 0;      // in the store, for this plan's decisions
};

class PlanDriver {
 public:
  PlanDriver(const Plan& plan, const Configurations& configs, PlanStore& store, DriverOptions options);
  model::Result<PlanOutcome> run();
  // The same decisions from the store alone, simulating nothing (`--report`, the GUI).
  model::Result<PlanOutcome> replay();

 private:
  const Plan& plan_;
  const Configurations& configs_;
  PlanStore& store_;
  DriverOptions options_;
  std::string best_label_;  // the best configuration so far, for the progress line
  model::Result<PlanOutcome> drive(bool simulate);
  model::Status costs(PlanOutcome& out) const;
  model::Status simulate(const std::vector<std::pair<size_t, uint64_t>>& runs, const PlanOutcome& out, int64_t round,
                         int64_t& done, int64_t total);
};

}  // namespace chaintwin::sim::plan
