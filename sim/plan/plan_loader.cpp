#include "sim/plan/plan_loader.h"
#include "sim/input_file.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "model/stage3/card_ledger.h"
#include "model/fnv.h"
#include "sim/kube_documents.h"
#include "sim/plan/field_patch.h"
#include "sim/plan/plan_space.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/default_scenario.h"
#include "sim/scenario/scenario_reader.h"

namespace chaintwin::sim::plan {
namespace {

using namespace scenario_detail;

double as_number(const Val& v, const std::string& expected) {
  if (!v.json->is_number()) fail(v, "expected " + expected + ", got " + type_name(*v.json));
  const double d = v.json->get<double>();
  if (!std::isfinite(d)) fail(v, "expected " + expected + ", got a value that is not finite");
  return d;
}

// A compact, exact-enough label for a numeric value: "3", "1.5", "0.125".
std::string number_label(double d) {
  if (d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<int64_t>(d));
  std::ostringstream os;
  os.precision(10);
  os << d;
  return os.str();
}

// `range: {from, to, step}` or `values: [...]` of numbers, ascending and distinct.
std::vector<double> read_numbers(const Val& var, bool integers, double min_value, const std::string& what) {
  const bool has_range = var.has("range"), has_values = var.has("values");
  if (has_range == has_values) fail(var, "give exactly one of range {from, to, step} or values [...] (" + what + ")");
  std::vector<double> out;
  if (has_range) {
    const Val r = var.at("range");
    expect_keys(r, {"from", "to", "step"}, "a range {from, to, step}");
    const std::string num = integers ? "an integer" : "a number";
    const double from = integers ? static_cast<double>(as_int(req(r, "from", num), static_cast<int64_t>(min_value), 1000000))
                                 : as_number(req(r, "from", num), num);
    const double to = integers ? static_cast<double>(as_int(req(r, "to", num), static_cast<int64_t>(min_value), 1000000))
                               : as_number(req(r, "to", num), num);
    double step = 1;
    if (const auto s = opt(r, "step"))
      step = integers ? static_cast<double>(as_int(*s, 1, 1000000)) : as_number(*s, "a number > 0");
    if (!(step > 0)) fail(r.at("step"), "must be greater than 0");
    if (from < min_value) fail(r.at("from"), number_label(from) + " is below " + number_label(min_value));
    if (to < from) fail(r, "empty range: to (" + number_label(to) + ") is below from (" + number_label(from) + ")");
    const double n = std::floor((to - from) / step + 1e-9);
    if (n > 10000) fail(r, "more than 10,000 values (widen step)");
    for (int64_t i = 0; i <= static_cast<int64_t>(n); ++i) out.push_back(from + static_cast<double>(i) * step);
  } else {
    const auto list = as_list(var.at("values"), integers ? "integers" : "numbers");
    if (list.empty()) fail(var.at("values"), "empty list (expected at least one value)");
    for (const auto& item : list) {
      const double d = integers ? static_cast<double>(as_int(item, static_cast<int64_t>(min_value), 1000000))
                                : as_number(item, "a number");
      if (d < min_value) fail(item, number_label(d) + " is below " + number_label(min_value));
      if (!out.empty() && d <= out.back()) fail(item, "values must be ascending and distinct");
      out.push_back(d);
    }
  }
  return out;
}

// Named alternatives in the order the file writes them (a parsed mapping sorts its keys): by the
// line each starts on, then by name.
void in_file_order(std::vector<std::pair<std::string, Val>>& alternatives) {
  std::stable_sort(alternatives.begin(), alternatives.end(), [](const auto& a, const auto& b) {
    return a.second.ref().line < b.second.ref().line;
  });
}

// `values: {label: anything, ...}` (named alternatives, in file order) or a list.
std::vector<std::pair<std::string, Val>> read_alternatives(const Val& var, const std::string& what) {
  const Val values = req(var, "values", what);
  std::vector<std::pair<std::string, Val>> out;
  if (values.is_object()) {
    for (const auto& item : values.json->items()) out.emplace_back(item.key(), values.at(item.key()));
    in_file_order(out);
  } else if (values.is_array()) {
    for (size_t i = 0; i < values.json->size(); ++i) {
      const Val item = values.at(i);
      out.emplace_back(item.json->is_string() ? item.json->get<std::string>() : item.json->dump(), item);
    }
  } else {
    fail(values, "expected " + what + ", got " + type_name(*values.json));
  }
  if (out.empty()) fail(values, "no values (expected at least one)");
  std::set<std::string> seen;
  for (const auto& [label, v] : out)
    if (!seen.insert(label).second) fail(v, "value '" + label + "' is given twice");
  return out;
}

std::string node_entry_path(const std::string& templ) { return "cluster.nodes[" + templ + "]"; }

Variable read_variable(const Val& v, std::set<std::string>& names) {
  static const std::vector<std::string> kKinds{"nodeCount", "nodeTemplate", "partitioning", "setting",
                                               "demandScale", "horizon", "patch"};
  expect_keys(v, {"name", "nodeCount", "nodeTemplate", "partitioning", "setting", "demandScale", "horizon", "patch",
                  "range", "values", "monotone"},
              "a variable {name, one of " + join(kKinds) + ", range or values}");
  Variable var;
  var.where = v.ref();
  var.name = as_string(req(v, "name", "the variable's name"));
  if (var.name.empty() || var.name.find_first_of(" =\"") != std::string::npos)
    fail(v.at("name"), "'" + var.name + "' is not a usable name (no spaces, '=' or quotes)");
  if (!names.insert(var.name).second) fail(v.at("name"), "variable '" + var.name + "' is defined twice");
  std::vector<std::string> kinds;
  for (const auto& k : kKinds)
    if (v.has(k.c_str())) kinds.push_back(k);
  if (kinds.size() != 1)
    fail(v, "give exactly one of " + join(kKinds) + (kinds.empty() ? "" : " (got " + join(kinds) + ")"));
  const std::string kind = kinds.front();
  const Val target = v.at(kind);
  if (kind == "nodeCount") {
    var.kind = Variable::Kind::kNodeCount;
    var.monotone = Variable::Monotone::kMoreIsBetter;
    var.target = as_string(target, "a cluster.nodes entry's name or namePrefix");
    for (double d : read_numbers(v, true, 0, "node counts")) {
      VariableValue value;
      value.number = d;
      value.label = number_label(d);
      value.patches.push_back({node_entry_path(var.target) + ".count", static_cast<int64_t>(d)});
      var.values.push_back(std::move(value));
    }
  } else if (kind == "demandScale") {
    var.kind = Variable::Kind::kDemandScale;
    var.monotone = Variable::Monotone::kMoreIsWorse;
    expect_keys(target, {"class"}, "{} (every class and the trace) or {class: NAME}");
    if (const auto c = opt(target, "class")) var.target = as_string(*c, "a workload class (generator name)");
    for (double d : read_numbers(v, false, 0, "demand scale factors")) {
      if (!(d > 0)) fail(v, "a demand scale must be greater than 0 (got " + number_label(d) + ")");
      VariableValue value;
      value.number = d;
      value.label = number_label(d);
      value.demand_scale = d;
      var.values.push_back(std::move(value));
    }
  } else if (kind == "horizon") {
    var.kind = Variable::Kind::kHorizon;
    if (v.has("range") || v.has("values")) fail(v, "a horizon variable lists its durations: horizon: [12h, 24h]");
    const auto list = as_list(target, "durations such as 12h");
    if (list.empty()) fail(target, "empty list (expected at least one duration)");
    for (const auto& item : list) {
      VariableValue value;
      value.horizon = as_duration(item);
      if (value.horizon->us() <= 0) fail(item, "must be longer than 0s");
      if (!var.values.empty() && *value.horizon <= *var.values.back().horizon)
        fail(item, "durations must be ascending and distinct");
      value.number = static_cast<double>(value.horizon->us()) / 3.6e9;  // hours
      value.label = item.json->get<std::string>();
      var.values.push_back(std::move(value));
    }
  } else if (kind == "setting") {
    var.kind = Variable::Kind::kSetting;
    var.target = as_string(target, "an operator setting name");
    for (auto& [label, val] : read_alternatives(v, "the setting's values, e.g. [true, false]")) {
      VariableValue value;
      value.label = label;
      value.patches.push_back({"settings[\"" + var.target + "\"]", *val.json});
      if (!val.json->is_boolean()) fail(val, "expected true or false, got " + type_name(*val.json));
      value.label = val.json->get<bool>() ? "true" : "false";
      var.values.push_back(std::move(value));
    }
  } else if (kind == "nodeTemplate" || kind == "partitioning") {
    var.kind = kind == "nodeTemplate" ? Variable::Kind::kNodeTemplate : Variable::Kind::kPartitioning;
    var.target = as_string(target, "a cluster.nodes entry's name or namePrefix");
    const std::string what = kind == "nodeTemplate"
                                 ? "named node templates {label: {fields merged into the entry}}"
                                 : "named layouts {label: [partitioning entries] or [] for whole cards}";
    for (auto& [label, val] : read_alternatives(v, what)) {
      VariableValue value;
      value.label = label;
      if (kind == "nodeTemplate") {
        if (!val.is_object()) fail(val, "expected the fields to merge into the node entry (a mapping), got " + type_name(*val.json));
        value.patches.push_back({node_entry_path(var.target), *val.json});
      } else {
        if (!val.is_array()) fail(val, "expected a partitioning list ([] = every card whole), got " + type_name(*val.json));
        value.patches.push_back({node_entry_path(var.target) + ".accelerators.partitioning",
                                 val.json->empty() ? nlohmann::json() : *val.json});
      }
      var.values.push_back(std::move(value));
    }
  } else {  // patch
    var.kind = Variable::Kind::kPatch;
    if (!target.is_object() || target.json->empty())
      fail(target, "expected named alternatives {label: [{path, value}, ...]}");
    std::vector<std::pair<std::string, Val>> alternatives;
    for (const auto& item : target.json->items()) alternatives.emplace_back(item.key(), target.at(item.key()));
    in_file_order(alternatives);
    for (const auto& [label, alt] : alternatives) {
      VariableValue value;
      value.label = label;
      for (const auto& p : as_list(alt, "field writes {path, value}")) {
        expect_keys(p, {"path", "value"}, "a field write {path, value}");
        FieldPatch fp{as_string(req(p, "path", "a field path such as workloads[chat].podSets[0].request")),
                      *req(p, "value", "the value written there").json};
        if (auto steps = parse_field_path(fp.path); !steps) fail(p.at("path"), steps.error());
        value.patches.push_back(std::move(fp));
      }
      var.values.push_back(std::move(value));
    }
    if (v.has("range") || v.has("values")) fail(v, "a patch variable's values are its named alternatives");
  }
  if (const auto m = opt(v, "monotone")) {
    const std::string s = as_choice(*m, {"moreIsBetter", "moreIsWorse", "none"});
    const bool numeric = var.values.front().number.has_value();
    if (!numeric && s != "none") fail(*m, "only a numeric variable (nodeCount, demandScale, horizon) can be monotone");
    var.monotone = s == "moreIsBetter" ? Variable::Monotone::kMoreIsBetter
                   : s == "moreIsWorse" ? Variable::Monotone::kMoreIsWorse
                                        : Variable::Monotone::kNone;
  }
  return var;
}

// "15m" as a duration, or a number of seconds.
double wait_bound_seconds(const Val& v) {
  if (v.json->is_number()) return as_number(v, "seconds");
  return static_cast<double>(as_duration(v).us()) / 1e6;
}

std::vector<Slo> read_slo(const Val& v) {
  expect_keys(v, {"class", "pool", "gpuModel", "all", "wait", "admittedFraction", "neverAdmitted", "utilization"},
              "an SLO {class|pool|gpuModel|all, wait|admittedFraction|neverAdmitted|utilization}");
  Slo base;
  base.where = v.ref();
  int subjects = 0;
  if (const auto c = opt(v, "class")) ++subjects, base.subject = Slo::Subject::kClass, base.name = as_string(*c);
  if (const auto p = opt(v, "pool")) ++subjects, base.subject = Slo::Subject::kPool, base.name = as_string(*p);
  if (const auto g = opt(v, "gpuModel")) ++subjects, base.subject = Slo::Subject::kGpuModel, base.name = as_string(*g);
  if (const auto a = opt(v, "all")) {
    ++subjects;
    base.subject = Slo::Subject::kAll;
    if (!as_bool(*a)) fail(*a, "all: true is the only form (every Workload)");
  }
  if (subjects != 1) fail(v, "give exactly one subject: class, pool, gpuModel or all: true");
  std::vector<Slo> out;
  if (const auto w = opt(v, "wait")) {
    if (!w->is_object() || w->json->empty()) fail(*w, "expected {p50|p90|p95|p99|max: DURATION}");
    for (const auto& item : w->json->items()) {
      Slo s = base;
      s.metric = Slo::Metric::kWait;
      const std::string& k = item.key();
      if (k == "p50") s.percentile = 50;
      else if (k == "p90") s.percentile = 90;
      else if (k == "p95") s.percentile = 95;
      else if (k == "p99") s.percentile = 99;
      else if (k == "max") s.percentile = 100;
      else fail(w->at(k), "unknown percentile (expected one of: p50, p90, p95, p99, max)");
      s.bound = wait_bound_seconds(w->at(k));
      if (s.bound < 0) fail(w->at(k), "must be 0 or more");
      out.push_back(s);
    }
  }
  if (const auto f = opt(v, "admittedFraction")) {
    Slo s = base;
    s.metric = Slo::Metric::kAdmittedFraction;
    s.bound = as_number(*f, "a fraction between 0 and 1");
    if (s.bound < 0 || s.bound > 1) fail(*f, "expected a fraction between 0 and 1");
    out.push_back(s);
  }
  if (const auto n = opt(v, "neverAdmitted")) {
    Slo s = base;
    s.metric = Slo::Metric::kNeverAdmitted;
    s.bound = static_cast<double>(as_int(*n, 0));
    out.push_back(s);
  }
  if (const auto u = opt(v, "utilization")) {
    Slo s = base;
    s.metric = Slo::Metric::kUtilization;
    if (base.subject == Slo::Subject::kClass || base.subject == Slo::Subject::kAll)
      fail(*u, "utilization is a pool's or a GPU model's (give pool: or gpuModel:)");
    s.bound = as_number(*u, "a fraction between 0 and 1");
    if (s.bound < 0 || s.bound > 1) fail(*u, "expected a fraction between 0 and 1");
    out.push_back(s);
  }
  if (out.empty()) fail(v, "no objective given (expected wait, admittedFraction, neverAdmitted or utilization)");
  return out;
}

Objective read_objective(const Val& v, const std::vector<Variable>& variables) {
  expect_keys(v, {"minimize", "maximize", "prices"}, "an objective {minimize: cards|cost} or {maximize: VARIABLE}");
  Objective o;
  if (v.has("minimize") == v.has("maximize")) fail(v, "give exactly one of minimize or maximize");
  if (const auto m = opt(v, "minimize")) {
    const std::string what = as_choice(*m, {"cards", "cost"});
    o.kind = what == "cards" ? Objective::Kind::kMinimizeCards : Objective::Kind::kMinimizeCost;
    if (o.kind == Objective::Kind::kMinimizeCost) {
      const Val prices = req(v, "prices", "prices {cards: {GPU model: per card}, nodes: {template: per node}}");
      expect_keys(prices, {"cards", "nodes"}, "prices {cards: {...}, nodes: {...}}");
      for (const char* k : {"cards", "nodes"})
        if (const auto table = opt(prices, k)) {
          if (!table->is_object()) fail(*table, "expected a mapping of names to prices");
          for (const auto& item : table->json->items()) {
            const double p = as_number(table->at(item.key()), "a price >= 0");
            if (p < 0) fail(table->at(item.key()), "a price must be 0 or more");
            (std::string(k) == "cards" ? o.card_prices : o.node_prices)[item.key()] = p;
          }
        }
      if (o.card_prices.empty() && o.node_prices.empty()) fail(prices, "no prices given");
    } else if (v.has("prices")) {
      fail(v.at("prices"), "prices go with minimize: cost");
    }
  } else {
    o.kind = Objective::Kind::kMaximizeVariable;
    o.variable = as_string(v.at("maximize"), "a numeric variable's name");
    bool found = false;
    for (const auto& var : variables)
      if (var.name == o.variable) {
        found = true;
        if (!var.values.front().number) fail(v.at("maximize"), "variable '" + o.variable + "' is not numeric");
      }
    if (!found) fail(v.at("maximize"), "no variable named '" + o.variable + "'");
    if (v.has("prices")) fail(v.at("prices"), "prices go with minimize: cost");
  }
  return o;
}

std::string hex64(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<size_t>(i)] = kDigits[v & 0xfU];
  return out;
}

std::string directory_of(const std::string& file) {
  const size_t slash = file.find_last_of('/');
  return slash == std::string::npos ? "" : file.substr(0, slash + 1);
}

// The names an SLO may refer to, from the base scenario (classes, GPU models) and its converged
// chain (ClusterQueues).
void check_slo_names(const std::vector<Slo>& slos, const std::vector<Val>& where, const Scenario& base) {
  std::set<std::string> classes, gpu_models;
  for (const auto& w : base.workloads) classes.insert(w.name);
  if (!base.trace_workloads.empty()) classes.insert("trace");
  for (const auto& [name, d] : base.cluster.devices)
    for (const auto& g : model::card_groups_of(d)) gpu_models.insert(g.accelerator_key());
  std::set<std::string> pools;
  bool pools_read = false;
  for (size_t i = 0; i < slos.size(); ++i) {
    const Slo& s = slos[i];
    if (s.subject == Slo::Subject::kClass && !classes.count(s.name))
      fail(where[i].at("class"), "no workload class '" + s.name + "' in the base scenario (classes: " +
                                     join(std::vector<std::string>(classes.begin(), classes.end())) + ")");
    if (s.subject == Slo::Subject::kGpuModel && !gpu_models.count(s.name))
      fail(where[i].at("gpuModel"), "no GPU model '" + s.name + "' in the base scenario (models: " +
                                        join(std::vector<std::string>(gpu_models.begin(), gpu_models.end())) + ")");
    if (s.subject == Slo::Subject::kPool) {
      if (!pools_read) {
        RunOptions o;
        o.keep_events = false;
        Simulation sim(base, o);
        if (auto st = sim.start(); st.ok())
          for (const auto& [name, cq] : sim.cluster().cluster_queues) pools.insert(name);
        pools_read = true;
      }
      if (!pools.count(s.name))
        fail(where[i].at("pool"), "no ClusterQueue '" + s.name + "' in the base scenario's chain (ClusterQueues: " +
                                      join(std::vector<std::string>(pools.begin(), pools.end())) + ")");
    }
  }
}

Plan read_plan(const SourceObject& doc, const std::string& file, const std::optional<std::string>& base_text) {
  const Val root{&doc, &doc.object, ""};
  expect_keys(root, {"apiVersion", "kind", "metadata", "base", "expectations", "replications", "variables", "slos",
                     "objective", "search"},
              "a Plan");
  Plan plan;
  plan.file = file;
  if (as_string(req(root, "apiVersion", "chaintwin/v1")) != "chaintwin/v1")
    fail(root.at("apiVersion"), "unknown apiVersion (expected chaintwin/v1)");
  if (as_string(req(root, "kind", "Plan")) != "Plan") fail(root.at("kind"), "expected kind Plan");
  if (const auto m = opt(root, "metadata")) {
    expect_keys(*m, {"name", "description"}, "metadata {name, description}");
    if (const auto n = opt(*m, "name")) plan.name = as_string(*n);
    if (const auto d = opt(*m, "description")) plan.description = as_string(*d);
  }
  if (plan.name.empty()) {
    const size_t slash = file.find_last_of('/');
    plan.name = file.substr(slash == std::string::npos ? 0 : slash + 1);
  }
  const Val base = req(root, "base", "the base scenario: a file (relative to the plan), or default");
  const std::string base_name = as_string(base, "a scenario file, or default");
  if (base_name == "default") {
    plan.base_text = std::string(data::kDefaultScenarioYaml);
  } else if (base_text) {
    plan.base = base_name.front() == '/' ? base_name : directory_of(file) + base_name;
    plan.base_text = *base_text;
  } else {
    plan.base = base_name.front() == '/' ? base_name : directory_of(file) + base_name;
    if (const std::string why = input_file_problem(plan.base); !why.empty()) fail(base, "the base scenario '" + plan.base + "' " + why);
    std::ifstream in(plan.base, std::ios::binary);
    if (!in) fail(base, "cannot read the base scenario '" + plan.base + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    plan.base_text = ss.str();
  }
  if (const auto e = opt(root, "expectations")) plan.expectations = as_bool(*e);
  const Val reps = req(root, "replications", "replications {seeds: [..]} or {count: N, firstSeed: S}");
  expect_keys(reps, {"seeds", "count", "firstSeed"}, "replications {seeds: [..]} or {count: N, firstSeed: S}");
  if (reps.has("seeds") == reps.has("count")) fail(reps, "give exactly one of seeds or count");
  if (const auto s = opt(reps, "seeds")) {
    const auto list = as_list(*s, "seeds (integers >= 0)");
    if (list.empty()) fail(*s, "no seeds (expected at least one)");
    std::set<uint64_t> seen;
    for (const auto& item : list) {
      const auto seed = static_cast<uint64_t>(as_int(item, 0));
      if (!seen.insert(seed).second) fail(item, "seed " + std::to_string(seed) + " is given twice");
      plan.seeds.push_back(seed);
    }
  } else {
    const int64_t count = as_int(reps.at("count"), 1, 1000);
    const int64_t first = reps.has("firstSeed") ? as_int(reps.at("firstSeed"), 0) : 1;
    for (int64_t i = 0; i < count; ++i) plan.seeds.push_back(static_cast<uint64_t>(first + i));
  }
  std::set<std::string> names;
  if (const auto vars = opt(root, "variables"))
    for (const auto& v : as_list(*vars, "variables")) plan.variables.push_back(read_variable(v, names));
  const Val slos = req(root, "slos", "the SLOs every configuration is judged by");
  std::vector<Val> slo_where;
  for (const auto& s : as_list(slos, "SLOs")) {
    for (auto& one : read_slo(s)) {
      plan.slos.push_back(std::move(one));
      slo_where.push_back(s);
    }
  }
  if (plan.slos.empty()) fail(slos, "no SLOs (expected at least one)");
  if (const auto o = opt(root, "objective")) plan.objective = read_objective(*o, plan.variables);
  if (const auto s = opt(root, "search")) {
    expect_keys(*s, {"mode", "judge", "batch"}, "search {mode: adaptive|grid, judge: mean|confidence, batch: N}");
    if (const auto m = opt(*s, "mode"))
      plan.search.mode = as_choice(*m, {"adaptive", "grid"}) == "grid" ? SearchOptions::Mode::kGrid : SearchOptions::Mode::kAdaptive;
    if (const auto j = opt(*s, "judge"))
      plan.search.judge = as_choice(*j, {"mean", "confidence"}) == "mean" ? SearchOptions::Judge::kMean
                                                                          : SearchOptions::Judge::kConfidence;
    if (const auto b = opt(*s, "batch")) plan.search.batch = static_cast<int32_t>(as_int(*b, 1, 256));
  }
  if (plan.search.judge == SearchOptions::Judge::kConfidence && plan.seeds.size() < 2)
    fail(root.at("search").at("judge"), "judge: confidence needs at least two seeds");
  // What the runs depend on: everything but the metadata, the objective and the search, which only
  // choose among runs (so a file serves a plan whose objective or search changed).
  nlohmann::json runs_depend_on = doc.object;
  for (const char* k : {"metadata", "objective", "search"}) runs_depend_on.erase(k);
  uint64_t h = model::fnv1a64_update(model::kFnv64OffsetBasis, runs_depend_on.dump());
  h = model::fnv1a64_update(h, plan.base_text);
  plan.content_hash = hex64(h);

  // Every value of every variable must give a scenario the loader accepts; the base must load.
  auto configs = Configurations::create(plan);
  if (!configs) fail(base, configs.error());
  auto base_scenario = configs->base();
  if (!base_scenario) fail(base, "the base scenario does not load: " + base_scenario.error());
  for (size_t v = 0; v < plan.variables.size(); ++v) {
    const Variable& var = plan.variables[v];
    for (size_t i = 0; i < var.values.size(); ++i) {
      if (var.kind == Variable::Kind::kHorizon) continue;
      if (var.kind == Variable::Kind::kDemandScale && i > 0) continue;  // one value checks the class name
      auto s = configs->scenario_with(v, i);
      if (!s) {
        const Val vv = root.at("variables").at(v);
        fail(vv, "value " + var.values[i].label + " does not give a loadable scenario: " + s.error());
      }
    }
  }
  check_slo_names(plan.slos, slo_where, *base_scenario);
  return plan;
}

}  // namespace

model::Result<Plan> load_plan_text(const std::string& text, const std::string& name_for_messages,
                                   const std::optional<std::string>& base_text) {
  auto docs = parse_kubernetes_objects(text, name_for_messages);
  if (!docs) return model::err(docs.error());
  if (docs->size() != 1)
    return model::err(name_for_messages + ":1: (document): expected exactly one Plan document, found " +
                      std::to_string(docs->size()));
  try {
    return read_plan(docs->front(), name_for_messages, base_text);
  } catch (const ScenarioError& e) {
    return model::err(e.message);
  }
}

model::Result<Plan> load_plan(const std::string& path) {
  if (const std::string why = input_file_problem(path); !why.empty()) return model::err(path + ": the plan file " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) return model::err(path + ": cannot read the plan file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return load_plan_text(ss.str(), path, std::nullopt);
}

}  // namespace chaintwin::sim::plan
