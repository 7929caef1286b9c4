#include "sim/scenario/scenario_loader.h"

#include "sim/input_file.h"
#include "sim/scenario/default_scenario.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "model/fnv.h"
#include "sim/cluster_objects.h"
#include "sim/scenario/scenario_fields.h"
#include "sim/scenario/scenario_sections.h"

namespace chaintwin::sim {
namespace {

using namespace scenario_detail;

void read_settings(const Val& v, model::Settings& settings) {
  expect_keys(v, scenario_fields_at("Settings"), "operator settings {name: true|false}");
  for (const auto& item : v.json->items()) {
    const Val value = v.at(item.key());
    // model-artifact-delivery-mode is the one setting that is not a boolean.
    const std::string text = item.key() == "model-artifact-delivery-mode"
                                 ? as_choice(value, {"Engine", "Node"})
                                 : (as_bool(value) ? "true" : "false");
    const auto ok = model::is_environment_name(item.key()) ? model::set_environment(settings, item.key(), text)
                                                           : model::set_setting(settings, item.key(), text);
    if (!ok) fail(value, ok.error());
  }
}

// fairSharing.preemptionStrategies, as Kueue's configuration validation takes it: one of three lists.
std::vector<model::FairSharingStrategy> fair_preemption_strategies(const Val& v) {
  using model::FairSharingStrategy;
  std::vector<FairSharingStrategy> out;
  std::string given;
  bool known = true;
  for (const Val& item : as_list(v, "a list of preemption strategies")) {
    const std::string name = as_string(item);
    given += (given.empty() ? "" : ", ") + name;
    if (name == "LessThanOrEqualToFinalShare") out.push_back(FairSharingStrategy::kLessThanOrEqualToFinalShare);
    else if (name == "LessThanInitialShare") out.push_back(FairSharingStrategy::kLessThanInitialShare);
    else known = false;
  }
  const std::vector<std::vector<FairSharingStrategy>> valid = {
      {FairSharingStrategy::kLessThanOrEqualToFinalShare},
      {FairSharingStrategy::kLessThanInitialShare},
      {FairSharingStrategy::kLessThanOrEqualToFinalShare, FairSharingStrategy::kLessThanInitialShare}};
  if (!known || std::find(valid.begin(), valid.end(), out) == valid.end())
    fail(v, "unsupported value [" + given +
                "]: Kueue accepts [LessThanOrEqualToFinalShare], [LessThanInitialShare] or "
                "[LessThanOrEqualToFinalShare, LessThanInitialShare] (the default)");
  return out;
}

void read_kueue(const Val& v, KueueOptions& k) {
  // The first wave's fixed cycle period, refused with advice rather than as an unknown field.
  if (const auto d = opt(v, "schedulingCyclePeriod"))
    fail(*d, "no longer a setting: Kueue runs its cycles back to back and backs off (1 ms to 100 ms) only "
             "when a cycle admits nothing; set schedulingCycleCost, the time one cycle takes, instead");
  expect_keys(v, scenario_fields_at("Kueue"), "kueue options");
  if (const auto s = opt(v, "queueingStrategy")) k.queueing_strategy = as_choice(*s, {"BestEffortFIFO", "StrictFIFO"});
  if (const auto d = opt(v, "admissionCheckRetryDelay")) k.admission_check_retry_delay = as_duration(*d);
  if (const auto d = opt(v, "schedulingCycleCost")) {
    k.scheduling_cycle_cost = as_duration(*d);
    if (k.scheduling_cycle_cost.us() < 0) fail(*d, "must not be negative");
    if (k.scheduling_cycle_cost > SimTime::minutes(1)) fail(*d, "must be at most 1m (the time one cycle takes)");
  }
  if (const auto d = opt(v, "statusLag")) k.status_lag = as_duration(*d);
  if (const auto ver = opt(v, "version")) {
    const std::string text = as_string(*ver);
    const auto parsed = model::parse_kueue_version(text);
    if (!parsed) fail(*ver, "'" + text + "' is not a Kueue version the twin knows (expected v0.14.0 … v0.20.x, e.g. v0.18.9)");
    k.version = *parsed;
    k.gates = model::default_feature_gates(k.version);
  }
  if (const auto fs = opt(v, "fairSharing")) {
    expect_keys(*fs, scenario_fields_at("FairSharing"), "Kueue's fair sharing configuration");
    if (const auto e = opt(*fs, "enable")) k.fair_sharing = as_bool(*e);
    if (const auto list = opt(*fs, "preemptionStrategies")) k.fair_preemption_strategies = fair_preemption_strategies(*list);
  }
  if (const auto afs = opt(v, "admissionFairSharing")) {
    expect_keys(*afs, scenario_fields_at("AdmissionFairSharing"), "Kueue's admission fair sharing configuration");
    model::AdmissionFairSharingConfig c;
    if (const auto d = opt(*afs, "usageHalfLifeTime")) {
      c.usage_half_life_time = as_duration(*d).us();
      if (c.usage_half_life_time < 0) fail(*d, "must be greater than or equal to 0");
    }
    if (const auto d = opt(*afs, "usageSamplingInterval")) {
      c.usage_sampling_interval = as_duration(*d).us();
      if (c.usage_sampling_interval <= 0) fail(*d, "must be greater than 0");
    }
    if (const auto w = opt(*afs, "resourceWeights")) {
      if (!w->is_object()) fail(*w, "expected a mapping of resource names to weights");
      for (const auto& item : w->json->items()) {
        const Val weight = w->at(item.key());
        if (!weight.json->is_number()) fail(weight, "expected a number (the resource's weight)");
        const double value = weight.json->get<double>();
        if (!(value >= 0)) fail(weight, "must be greater than or equal to 0");
        c.resource_weights[item.key()] = value;
      }
    }
    k.admission_fair_sharing = c;
  }
  if (const auto gates = opt(v, "featureGates")) {
    if (!gates->is_object()) fail(*gates, "expected a mapping of Kueue feature gates to true/false");
    for (const auto& item : gates->json->items()) {
      const Val g = gates->at(item.key());
      std::string known;
      for (const auto& n : model::modelled_feature_gates()) known += (known.empty() ? "" : ", ") + n;
      if (!model::set_feature_gate(k.gates, item.key(), as_bool(g)))
        fail(g, "'" + item.key() + "' is not a feature gate the twin models (modelled: " + known + ")");
      if (const std::string absent = model::feature_gate_absent(item.key(), k.version); !absent.empty())
        fail(g, "'" + item.key() + "': " + absent);
    }
  }
}

void read_operator(const Val& v, OperatorTimings& t) {
  expect_keys(v, scenario_fields_at("Operator"), "operator timings");
  if (const auto d = opt(v, "fitLabelCoalesce")) t.fit_label_coalesce = as_duration(*d);
  if (const auto d = opt(v, "podStart")) t.pod_start = as_duration(*d);
  if (const auto d = opt(v, "redetectAfter")) t.redetect_after = as_duration(*d);
}

void read_device_manager(const Val& v, DeviceManagerOptions& d) {
  expect_keys(v, scenario_fields_at("DeviceManager"), "Device Manager flags");
  if (const auto f = opt(v, "noFastFailed")) d.no_fast_failed = as_bool(*f);
}

// The traces' nodes (unless takeNodes is false) join the cluster after the scenario's own;
// their pods become the scenario's trace workloads, in trace order.
void join_traces(LoadContext& ctx, model::ClusterState& cluster, Scenario& s) {
  std::map<std::string, std::string> workload_where;
  for (auto& t : ctx.traces) {
    if (t.take_nodes)
      for (auto& n : t.data.nodes) {
        const std::string name = n.node.metadata.name;
        if (cluster.nodes.count(name)) {
          const auto it = ctx.node_where.find(name);
          throw ScenarioError{n.where.str() + ": sn: node name '" + name + "' is already in the cluster" +
                              (it != ctx.node_where.end() ? " (given at " + it->second + ")" : "") +
                              " (set takeNodes: false at " + t.where.str() + " to keep only its pods)"};
        }
        ctx.node_where[name] = n.where.str();
        cluster.nodes.emplace(name, std::move(n.node));
        if (n.devices) cluster.devices.emplace(name, std::move(*n.devices));
      }
    for (auto& w : t.data.workloads) {
      const std::string key = w.namespace_ + "/" + w.name;
      const std::string where = w.pod_sets.empty() ? t.where.str() : w.pod_sets.front().where.str();
      if (const auto it = workload_where.find(key); it != workload_where.end())
        throw ScenarioError{where + ": name: pod '" + w.name + "' is imported twice (first at " + it->second + ")"};
      workload_where[key] = where;
      s.trace_workloads.push_back(std::move(w));
    }
  }
}

void build_cluster(LoadContext& ctx, const Val* cluster_val, const std::string& file, Scenario& s) {
  ClusterParts parts;
  if (cluster_val != nullptr) read_cluster(ctx, *cluster_val, file, parts);
  auto decoded = read_cluster_objects(parts.objects, model::Settings{});
  if (!decoded) throw ScenarioError{decoded.error()};
  // Each generator's priority from the class it names, or the global default PriorityClass.
  for (size_t i = 0; i < s.workloads.size(); ++i) {
    WorkloadSpec& w = s.workloads[i];
    if (w.priority_given) continue;
    const auto resolved = model::resolve_priority(w.workload_priority_class, w.priority_class,
                                                  decoded->workload_priority_classes, decoded->priority_classes);
    if (!resolved.ok())
      throw ScenarioError{w.where.str() + ": workloads[" + std::to_string(i) + "]." +
                          (w.workload_priority_class.empty() ? "priorityClass" : "workloadPriorityClass") + ": " +
                          resolved.error() + " among the cluster's objects"};
    w.priority = resolved->value;
    w.priority_class_ref = model::priority_class_ref(*resolved);
  }
  model::ClusterState cluster = static_cast<model::ClusterState&&>(std::move(decoded).value());
  for (auto& g : parts.generated) {
    const std::string name = g.node.metadata.name;
    if (cluster.nodes.count(name))
      throw ScenarioError{ctx.node_where[name] + ": cluster.nodes: node name '" + name +
                          "' is used twice (also given as a Node object)"};
    cluster.nodes.emplace(name, std::move(g.node));
    if (g.devices) cluster.devices.emplace(name, std::move(*g.devices));
    for (auto& pod : g.pods_outside_kueue) {
      for (const auto& other : s.pods_outside_kueue)
        if (model::object_key(other.metadata) == model::object_key(pod.metadata))
          throw ScenarioError{ctx.node_where[name] + ": podsOutsideKueue: Pod '" + model::object_key(pod.metadata) +
                              "' is given twice (also on node '" + other.node_name + "')"};
      s.pods_outside_kueue.push_back(std::move(pod));
    }
  }
  join_traces(ctx, cluster, s);
  for (const auto& ns : parts.namespaces) cluster.namespaces[ns].metadata.name = ns;
  for (const auto& p : s.pods_outside_kueue) cluster.namespaces[p.metadata.namespace_].metadata.name = p.metadata.namespace_;
  for (const auto& w : s.workloads) cluster.namespaces[w.namespace_].metadata.name = w.namespace_;
  for (const auto& w : s.trace_workloads) cluster.namespaces[w.namespace_].metadata.name = w.namespace_;
  s.cluster = std::move(cluster);
}

Scenario read_scenario(LoadContext& ctx, const SourceObject& doc, const std::string& file) {
  const Val root{&doc, &doc.object, ""};
  expect_keys(root, scenario_fields_at("Scenario"), "a Scenario");
  Scenario s;
  s.file = file;
  if (as_string(req(root, "apiVersion", "chaintwin/v1")) != "chaintwin/v1")
    fail(root.at("apiVersion"), "unknown apiVersion '" + root.json->at("apiVersion").get<std::string>() +
                                    "' (expected chaintwin/v1)");
  if (as_string(req(root, "kind", "Scenario")) != "Scenario")
    fail(root.at("kind"), "expected kind Scenario, got '" + root.json->at("kind").get<std::string>() + "'");
  if (const auto m = opt(root, "metadata")) {
    expect_keys(*m, scenario_fields_at("Metadata"), "metadata {name, description}");
    if (const auto n = opt(*m, "name")) s.name = as_string(*n);
    if (const auto d = opt(*m, "description")) s.description = as_string(*d);
  }
  if (s.name.empty()) {
    const size_t slash = file.find_last_of('/');
    s.name = file.substr(slash == std::string::npos ? 0 : slash + 1);
  }
  if (const auto seed = opt(root, "seed")) s.seed = static_cast<uint64_t>(as_int(*seed, 0));
  if (const auto h = opt(root, "horizon")) {
    s.horizon = as_duration(*h);
    if (s.horizon.us() <= 0) fail(*h, "must be longer than 0s");
  }
  // Defaults, then the cluster's Setting objects, then this block (checked here, applied after the cluster).
  bool explicit_settings = false;
  if (const auto st = opt(root, "settings")) {
    read_settings(*st, s.settings);
    explicit_settings = true;
  }
  if (const auto k = opt(root, "kueue")) read_kueue(*k, s.kueue);
  if (const auto o = opt(root, "operator")) read_operator(*o, s.timings);
  if (const auto d = opt(root, "deviceManager")) read_device_manager(*d, s.device_manager);
  if (const auto w = opt(root, "workloads")) s.workloads = read_workloads(ctx, *w, file, s.traces);
  const auto cluster = opt(root, "cluster");
  build_cluster(ctx, cluster ? &*cluster : nullptr, file, s);
  if (explicit_settings) read_settings(root.at("settings"), s.cluster.settings);  // the block wins over Setting objects
  s.settings = s.cluster.settings;
  if (const auto t = opt(root, "timeline")) s.timeline = read_timeline(*t, s);
  if (const auto e = opt(root, "expect")) s.expectations = read_expectations(*e, s);
  return s;
}

std::string hex64(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<size_t>(i)] = kDigits[v & 0xfU];
  return out;
}

model::Result<Scenario> load(const std::string& text, const std::string& file) {
  LoadContext ctx;
  ctx.hash_state = model::fnv1a64_update(model::kFnv64OffsetBasis, text);
  ctx.include_stack.push_back(file);
  auto docs = parse_kubernetes_objects(text, file);
  if (!docs) return model::err(docs.error());
  if (docs->size() != 1)
    return model::err(file + ":1: (document): expected exactly one Scenario document, found " +
                      std::to_string(docs->size()));
  try {
    Scenario s = read_scenario(ctx, docs->front(), file);
    s.content_hash = hex64(ctx.hash_state);
    return s;
  } catch (const ScenarioError& e) {
    return model::err(e.message);
  }
}

}  // namespace

model::Result<Scenario> load_scenario_document(const SourceObject& doc) {
  LoadContext ctx;
  ctx.hash_state = model::fnv1a64_update(model::kFnv64OffsetBasis, doc.object.dump());
  ctx.include_stack.push_back(doc.file);
  try {
    Scenario s = read_scenario(ctx, doc, doc.file);
    s.content_hash = hex64(ctx.hash_state);
    return s;
  } catch (const ScenarioError& e) {
    return model::err(e.message);
  }
}

model::Result<Scenario> load_scenario(const std::string& path) {
  if (const std::string why = input_file_problem(path); !why.empty()) return model::err(path + ": the scenario file " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) return model::err(path + ": cannot read the scenario file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return load(ss.str(), path);
}

model::Result<Scenario> load_scenario_or_default(const std::string& path) {
  if (path.empty()) return load_scenario_text(std::string(data::kDefaultScenarioYaml), "scenarios/default.yaml (embedded)");
  return load_scenario(path);
}

model::Result<Scenario> load_scenario_text(const std::string& text, const std::string& name_for_messages) {
  return load(text, name_for_messages);
}

}  // namespace chaintwin::sim
