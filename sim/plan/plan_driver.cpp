#include "sim/plan/plan_driver.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "model/stage3/card_ledger.h"
#include "sim/plan/run_metrics.h"
#include "sim/runner/simulation.h"

namespace chaintwin::sim::plan {
namespace {

bool structural(const Variable& v) {
  return v.kind == Variable::Kind::kNodeCount || v.kind == Variable::Kind::kNodeTemplate ||
         v.kind == Variable::Kind::kPartitioning || v.kind == Variable::Kind::kPatch;
}

// The node template a node name belongs to: the longest template it starts with.
std::optional<double> node_price(const Objective& o, const std::string& node) {
  std::optional<double> price;
  size_t longest = 0;
  for (const auto& [templ, p] : o.node_prices)
    if (node.compare(0, templ.size(), templ) == 0 && templ.size() >= longest) {
      longest = templ.size();
      price = p;
    }
  return price;
}

}  // namespace

PlanDriver::PlanDriver(const Plan& plan, const Configurations& configs, PlanStore& store, DriverOptions options)
    : plan_(plan), configs_(configs), store_(store), options_(std::move(options)) {}

model::Status PlanDriver::costs(PlanOutcome& out) const {
  out.grid = configs_.grid();
  out.cost.assign(out.grid.size(), 0);
  out.cards.assign(out.grid.size(), 0);
  std::map<Point, std::pair<double, double>> cache;  // structural indices → (cards, cost)
  for (size_t i = 0; i < out.grid.size(); ++i) {
    Point key = out.grid[i];
    for (size_t v = 0; v < key.size(); ++v)
      if (!structural(plan_.variables[v])) key[v] = 0;
    auto it = cache.find(key);
    if (it == cache.end()) {
      auto s = configs_.scenario(key);
      if (!s) return model::err("configuration " + configs_.label(out.grid[i]) + ": " + s.error());
      double cards = 0, cost = 0;
      for (const auto& [name, d] : s->cluster.devices)
        for (const auto& g : model::card_groups_of(d)) {
          cards += static_cast<double>(g.cards.size());
          if (const auto p = plan_.objective.card_prices.find(g.accelerator_key()); p != plan_.objective.card_prices.end())
            cost += p->second * static_cast<double>(g.cards.size());
        }
      for (const auto& [name, n] : s->cluster.nodes)
        if (const auto p = node_price(plan_.objective, name)) cost += *p;
      it = cache.emplace(key, std::make_pair(cards, cost)).first;
    }
    out.cards[i] = it->second.first;
    switch (plan_.objective.kind) {
      case Objective::Kind::kMinimizeCards: out.cost[i] = it->second.first; break;
      case Objective::Kind::kMinimizeCost: out.cost[i] = it->second.second; break;
      case Objective::Kind::kMaximizeVariable:
        for (size_t v = 0; v < plan_.variables.size(); ++v)
          if (plan_.variables[v].name == plan_.objective.variable)
            out.cost[i] = -*plan_.variables[v].values[static_cast<size_t>(out.grid[i][v])].number;
        break;
    }
  }
  return model::Ok{};
}

model::Status PlanDriver::simulate(const std::vector<std::pair<size_t, uint64_t>>& runs, const PlanOutcome& out,
                                   int64_t round, int64_t& done, int64_t total) {
  // Each configuration's scenario is loaded once, then copied into every seed's run.
  std::vector<size_t> points;
  for (const auto& [i, seed] : runs)
    if (std::find(points.begin(), points.end(), i) == points.end()) points.push_back(i);
  std::map<size_t, Scenario> scenarios;
  for (size_t i : points) {
    auto s = configs_.scenario(out.grid[i]);
    if (!s) return model::err("configuration " + configs_.label(out.grid[i]) + ": " + s.error());
    scenarios.emplace(i, std::move(s.value()));
  }
  struct Done {
    size_t slot;
    std::optional<RunMetrics> metrics;
    std::string error;
    int64_t wall_ms = 0;
  };
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Done> finished;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  const size_t threads = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(options_.jobs), runs.size()));
  size_t active = threads;  // guarded by mu
  const auto worker = [&] {
    for (;;) {
      const size_t slot = next.fetch_add(1);
      if (slot >= runs.size() || stop.load()) break;
      const auto [i, seed] = runs[slot];
      const auto t0 = std::chrono::steady_clock::now();
      RunOptions o;
      o.seed = seed;
      o.keep_events = false;
      o.keep_final_objects = false;
      o.version = options_.version;
      Simulation sim(scenarios.at(i), o);
      auto record = sim.run();
      Done d{slot, std::nullopt, "", 0};
      if (!record.ok()) d.error = record.error();
      else if (!sim.failures().empty()) d.error = "an expectation failed: " + sim.failures().front().str();
      else d.metrics = run_metrics(plan_, record.value());
      d.wall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
      {
        std::lock_guard<std::mutex> lock(mu);
        finished.push_back(std::move(d));
      }
      cv.notify_one();
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      --active;
    }
    cv.notify_one();
  };
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  std::string failure;
  for (;;) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return !finished.empty() || active == 0; });
    if (finished.empty()) break;  // every worker has left and every result is in
    Done d = std::move(finished.front());
    finished.pop_front();
    lock.unlock();
    if (!failure.empty()) continue;  // runs already under way when one failed: dropped
    const auto [i, seed] = runs[d.slot];
    if (!d.metrics) {
      failure = "configuration " + configs_.label(out.grid[i]) + ", seed " + std::to_string(seed) + ": " + d.error;
      stop = true;
      continue;
    }
    StoredRun r;
    r.point = configs_.key(out.grid[i]);
    r.seed = seed;
    r.round = round;
    r.metrics = d.metrics->slos;
    r.wall_ms = d.wall_ms;
    if (auto s = store_.add(std::move(r), *d.metrics); !s.ok()) {
      failure = s.error();
      stop = true;
      continue;
    }
    ++done;
    if (options_.on_progress) options_.on_progress(done, total, best_label_, round);
  }
  for (auto& t : pool) t.join();
  if (!failure.empty()) return model::err(failure);
  return model::Ok{};
}

model::Result<PlanOutcome> PlanDriver::drive(bool simulate_missing) {
  PlanOutcome out;
  if (auto s = costs(out); !s.ok()) return model::err(s.error());
  Search search(plan_, out.grid, out.cost, out.cards, [&] {
    std::vector<double> demand(out.grid.size(), 1.0);
    for (size_t i = 0; i < out.grid.size(); ++i)
      for (size_t v = 0; v < plan_.variables.size(); ++v)
        if (plan_.variables[v].kind == Variable::Kind::kDemandScale)
          demand[i] *= plan_.variables[v].values[static_cast<size_t>(out.grid[i][v])].demand_scale;
    return demand;
  }());
  int64_t done = 0;
  for (int64_t round = 1;; ++round) {
    const Proposal proposal = search.propose(out.known);
    if (proposal.points.empty()) {
      out.finished = true;
      break;
    }
    std::vector<std::pair<size_t, uint64_t>> missing;
    for (size_t i : proposal.points)
      for (uint64_t seed : plan_.seeds)
        if (!store_.has(configs_.key(out.grid[i]), seed)) missing.emplace_back(i, seed);
    out.rounds.push_back({proposal.points, proposal.why});
    if (!missing.empty()) {
      if (!simulate_missing) break;  // replay: the store stops here
      if (options_.shard) {
        std::vector<std::pair<size_t, uint64_t>> mine;
        for (size_t k = 0; k < missing.size(); ++k)
          if (static_cast<int64_t>(k % static_cast<size_t>(options_.shard->count)) == options_.shard->index)
            mine.push_back(missing[k]);
        const int64_t total = static_cast<int64_t>(mine.size());
        if (auto s = simulate(mine, out, round, done, total); !s.ok()) return model::err(s.error());
        out.runs_simulated = done;
        break;
      }
      const int64_t total = done + static_cast<int64_t>(missing.size());
      if (auto s = simulate(missing, out, round, done, total); !s.ok()) return model::err(s.error());
      out.runs_simulated = done;
    }
    for (size_t i : proposal.points) {
      PointOutcome o;
      o.feasible = true;
      for (size_t s = 0; s < plan_.slos.size(); ++s) {
        std::vector<MetricValue> per_seed;
        for (uint64_t seed : plan_.seeds) per_seed.push_back(store_.find(configs_.key(out.grid[i]), seed)->metrics.at(s));
        o.slos.push_back(summarize(plan_.slos[s], plan_.search.judge, per_seed));
        o.feasible = o.feasible && o.slos.back().met;
      }
      out.known[i] = std::move(o);
    }
    if (const auto b = search.best(out.known))
      best_label_ = configs_.label(out.grid[*b]) + " (" + cost_text(plan_, out.cost[*b]) + ")";
  }
  out.knowledge = search.knowledge(out.known);
  best_label_.clear();
  out.best = search.best(out.known);
  out.runs_total = static_cast<int64_t>(out.known.size() * plan_.seeds.size());
  return out;
}

model::Result<PlanOutcome> PlanDriver::run() { return drive(true); }
model::Result<PlanOutcome> PlanDriver::replay() { return drive(false); }

}  // namespace chaintwin::sim::plan
