// workloads: generators (arrival, duration, podSets with request shapes) and trace entries.
#include <algorithm>
#include <cmath>
#include <set>

#include "model/api/k8s_validation.h"
#include "model/catalog/manufacturer.h"
#include "model/catalog/mig_catalog.h"
#include "model/device_manager/device_inventory.h"
#include "sim/scenario/scenario_fields.h"
#include "sim/scenario/scenario_sections.h"
#include "sim/trace/openb_models.h"

namespace chaintwin::sim::scenario_detail {
namespace {

// A resource request: a quantity the API server accepts for a container (ValidateResourceRequirements
// refuses a negative one).
model::Quantity as_request_quantity(const Val& v) {
  const model::Quantity q = as_quantity(v);
  if (q.sign() < 0) fail(v, "'" + q.to_string() + "' is negative (a request must be greater than or equal to 0)");
  return q;
}

Arrival read_arrival(const Val& v) {
  expect_keys(v, scenario_fields_at("Arrival"), "an arrival {poisson: {rate}} | {every} | {at: [...]}");
  if (v.json->size() != 1) fail(v, "give exactly one of poisson, every, at");
  Arrival a;
  if (const auto p = opt(v, "poisson")) {
    expect_keys(*p, scenario_fields_at("Poisson"), "poisson {rate: 12/h}");
    a.kind = Arrival::Kind::kPoisson;
    a.rate_per_second = as_rate(req(*p, "rate", "e.g. 12/h"));
  } else if (const auto e = opt(v, "every")) {
    a.kind = Arrival::Kind::kEvery;
    a.every = as_duration(*e);
    if (a.every.us() <= 0) fail(*e, "must be longer than 0s");
  } else {
    a.kind = Arrival::Kind::kAt;
    const Val list = v.at("at");
    for (const auto& t : as_list(list, "times such as 10s")) a.at.push_back(as_duration(t));
    if (a.at.empty()) fail(list, "expected at least one time");
    for (size_t i = 1; i < a.at.size(); ++i)
      if (a.at[i] < a.at[i - 1]) fail(list.at(i), "times must not go backwards (ascending order)");
  }
  return a;
}

Duration read_duration(const Val& v) {
  expect_keys(v, scenario_fields_at("Duration"), "a duration {fixed} | {exponential: {mean}} | {lognormal: {median, p95}}");
  if (v.json->size() != 1) fail(v, "give exactly one of fixed, exponential, lognormal");
  Duration d;
  if (const auto f = opt(v, "fixed")) {
    d.kind = Duration::Kind::kFixed;
    d.fixed = as_duration(*f);
  } else if (const auto e = opt(v, "exponential")) {
    expect_keys(*e, scenario_fields_at("Exponential"), "exponential {mean}");
    d.kind = Duration::Kind::kExponential;
    d.mean = as_duration(req(*e, "mean", "e.g. 20m"));
    if (d.mean.us() <= 0) fail(e->at("mean"), "must be longer than 0s");
  } else {
    const Val l = v.at("lognormal");
    expect_keys(l, scenario_fields_at("Lognormal"), "lognormal {median, p95}");
    d.kind = Duration::Kind::kLognormal;
    d.median = as_duration(req(l, "median", "e.g. 40m"));
    d.p95 = as_duration(req(l, "p95", "e.g. 6h"));
    if (d.median.us() <= 0) fail(l.at("median"), "must be longer than 0s");
    if (d.p95 <= d.median) fail(l.at("p95"), "must be longer than the median (" + d.median.to_string() + ")");
  }
  return d;
}

model::Container read_container(const Val& v, const std::string& default_name) {
  expect_keys(v, scenario_fields_at("Container"), "a container {name, requests, restartable}");
  model::Container c;
  c.name = v.has("name") ? as_string(v.at("name")) : default_name;
  if (const auto r = opt(v, "requests")) {
    if (!r->is_object()) fail(*r, "expected a mapping of resource names to quantities");
    for (const auto& item : r->json->items()) c.requests[item.key()] = as_request_quantity(r->at(item.key()));
  }
  if (const auto rs = opt(v, "restartable")) c.restartable = as_bool(*rs);
  return c;
}

RequestShape read_request(const Val& v) {
  expect_keys(v, scenario_fields_at("Request"), "a request shape");
  RequestShape r;
  int families = 0;
  if (const auto e = opt(v, "exclusive")) {
    ++families;
    r.kind = RequestShape::Kind::kExclusive;
    r.cards = static_cast<int32_t>(as_int(*e, 1, 1024));
  }
  if (const auto s = opt(v, "shared")) {
    ++families;
    r.kind = RequestShape::Kind::kShared;
    r.cards = static_cast<int32_t>(as_int(*s, 1, 1024));
  }
  if (const auto s = opt(v, "sliced")) {
    ++families;
    r.kind = RequestShape::Kind::kSliced;
    expect_keys(*s, scenario_fields_at("Sliced"), "sliced {memoryPercentage | memoryMib, coresPercentage}");
    if (s->has("memoryPercentage") == s->has("memoryMib"))
      fail(*s, "give exactly one of memoryPercentage and memoryMib");
    if (const auto p = opt(*s, "memoryPercentage")) r.memory_percentage = static_cast<int32_t>(as_int(*p, 1, 100));
    if (const auto m = opt(*s, "memoryMib")) r.memory_mib = as_int(*m, 1);
    r.cores_percentage = s->has("coresPercentage") ? static_cast<int32_t>(as_int(s->at("coresPercentage"), 1, 100)) : 100;
  }
  if (const auto p = opt(v, "partitioned")) {
    ++families;
    r.kind = RequestShape::Kind::kPartitioned;
    r.profile = as_string(*p, "a MIG profile such as \"3g.40gb\"");
  }
  if (families > 1) fail(v, "a Pod requests one accelerator family (give one of exclusive, shared, sliced, partitioned)");
  if (const auto c = opt(v, "cpu")) r.cpu = as_request_quantity(*c);
  if (const auto m = opt(v, "memory")) r.memory = as_request_quantity(*m);
  if (families == 0) {
    r.kind = RequestShape::Kind::kCpu;
    if (r.cpu.is_zero() && r.memory.is_zero()) fail(v, "an empty request (give cpu/memory or an accelerator shape)");
  }
  return r;
}

PodSetSpec read_pod_set(const Val& v, size_t index) {
  expect_keys(v, scenario_fields_at("PodSet"), "a podSet {name, count, request}");
  PodSetSpec p;
  p.where = v.ref();
  p.name = v.has("name") ? as_string(v.at("name")) : (index == 0 ? "main" : "ps" + std::to_string(index));
  if (const auto c = opt(v, "count")) p.count = static_cast<int32_t>(as_int(*c, 1, 100000));
  const bool raw = v.has("containers") || v.has("initContainers");
  if (raw == v.has("request")) fail(v, "give either request or containers/initContainers");
  if (!raw) {
    p.request = read_request(v.at("request"));
    return p;
  }
  p.request.kind = RequestShape::Kind::kContainers;
  if (const auto cs = opt(v, "initContainers")) {
    const auto list = as_list(*cs, "containers");
    for (size_t i = 0; i < list.size(); ++i) p.request.init_containers.push_back(read_container(list[i], "init-" + std::to_string(i)));
  }
  if (const auto cs = opt(v, "containers")) {
    const auto list = as_list(*cs, "containers");
    for (size_t i = 0; i < list.size(); ++i) p.request.containers.push_back(read_container(list[i], "c" + std::to_string(i)));
  }
  if (p.request.containers.empty()) fail(v, "a Pod needs at least one container in containers");
  return p;
}

bool accelerated(const RequestShape& r) {
  return r.kind != RequestShape::Kind::kCpu && r.kind != RequestShape::Kind::kContainers;
}

// A derived InstanceType's name says whether it is an accelerator type: gpustack--<gKey>--<aKey>-os-arch
// or the collapsed gpustack--<aKey>-os-arch carry a known manufacturer after a "--".
std::optional<bool> derived_type_is_accelerated(const std::string& name) {
  const std::string prefix = "gpustack--";
  if (name.rfind(prefix, 0) != 0) return std::nullopt;  // an admin type: cannot tell
  for (size_t pos = 0; (pos = name.find("--", pos)) != std::string::npos; pos += 2)
    for (const auto& m : model::known_manufacturers())
      if (name.compare(pos + 2, m.name.size() + 1, std::string(m.name) + "-") == 0) return true;
  return false;
}

void check_selector(const Val& v, const WorkloadSpec& w) {
  for (size_t i = 0; i < w.pod_sets.size(); ++i) {
    const auto& r = w.pod_sets[i].request;
    if (!accelerated(r)) continue;
    if (w.instance_type.name.empty() && w.instance_type.accelerator.empty())
      fail(v.at("podSets").at(i).at("request"),
           "an accelerator request needs the workload's instanceType or accelerator (which InstanceType it queues on)");
    if (!w.instance_type.name.empty()) {
      if (const auto a = derived_type_is_accelerated(w.instance_type.name); a && !*a)
        fail(v.at("instanceType"), "'" + w.instance_type.name + "' is a CPU InstanceType, but podSets[" +
                                       std::to_string(i) + "] requests an accelerator");
    }
    if (r.kind == RequestShape::Kind::kPartitioned) {
      const Val at = v.at("podSets").at(i).at("request").at("partitioned");
      const std::string& sel = w.instance_type.accelerator;
      const model::CatalogModel* model = sel.empty() ? nullptr : model::find_catalog_model(sel);
      if (model != nullptr) {
        if (model->find_profile(r.profile) == nullptr)
          fail(at, "'" + sel + "' offers no MIG profile '" + r.profile + "' (known: " + model->profile_names() + ")");
      } else {
        bool anywhere = false;
        if (const auto& cat = model::embedded_mig_catalog(); cat.ok())
          for (const auto& m : cat->models()) anywhere = anywhere || m.find_profile(r.profile) != nullptr;
        if (!anywhere) fail(at, "no accelerator offers a MIG profile '" + r.profile + "' (e.g. 1g.10gb, 3g.40gb)");
        if (!sel.empty() && model::known_product("nvidia", sel))
          fail(at, "'" + sel + "' has no MIG mode, so it cannot serve a partitioned request");
      }
    }
  }
}

WorkloadSpec read_generator(const Val& v) {
  expect_keys(v, scenario_fields_at("Workload"), "a workload generator");
  WorkloadSpec w;
  w.where = v.ref();
  w.name = as_string(req(v, "name", "the generator's name; workloads are named <name>-<n>"));
  if (w.name.empty()) fail(v.at("name"), "must not be empty");
  // Its Workloads are named <name>-<n>: a DNS-1123 subdomain, as every object name.
  if (!model::is_dns1123_subdomain(w.name + "-0"))
    fail(v.at("name"), "'" + w.name + "' does not make valid Workload names <name>-<n> (expected lowercase letters, "
                       "digits, '-' and '.', starting with a letter or digit)");
  if (const auto n = opt(v, "namespace")) {
    w.namespace_ = as_string(*n);
    if (!model::is_dns1123_label(w.namespace_))
      fail(*n, "'" + w.namespace_ + "' is not a valid Namespace name (expected a DNS-1123 label: lowercase letters, "
               "digits and '-', starting and ending with a letter or digit, at most 63 characters)");
  }
  w.arrival = read_arrival(req(v, "arrival", "{poisson: {rate: 12/h}} | {every: 5m} | {at: [0s]}"));
  w.duration = read_duration(req(v, "duration", "{fixed: 1h} | {exponential: {mean: 20m}} | {lognormal: {median, p95}}"));
  if (const auto c = opt(v, "count")) w.count = as_int(*c, 1);
  if (v.has("instanceType") && v.has("accelerator"))
    fail(v.at("accelerator"), "give either instanceType or accelerator, not both");
  if (const auto it = opt(v, "instanceType")) w.instance_type.name = as_string(*it);
  if (const auto a = opt(v, "accelerator")) w.instance_type.accelerator = as_string(*a);
  const auto sets = as_list(req(v, "podSets", "at least one podSet"), "podSets");
  if (sets.empty()) fail(v.at("podSets"), "expected at least one podSet");
  std::set<std::string> names;
  for (size_t i = 0; i < sets.size(); ++i) {
    w.pod_sets.push_back(read_pod_set(sets[i], i));
    if (!names.insert(w.pod_sets.back().name).second)
      fail(sets[i], "podSet name '" + w.pod_sets.back().name + "' is used twice");
  }
  if (const auto t = opt(v, "requiredTopologyLevel")) w.required_topology_level = as_string(*t);
  if (const auto p = opt(v, "priority")) {
    w.priority = static_cast<int32_t>(as_int(*p, INT32_MIN, INT32_MAX));
    w.priority_given = true;
  }
  if (const auto c = opt(v, "workloadPriorityClass")) w.workload_priority_class = as_string(*c);
  if (const auto c = opt(v, "priorityClass")) w.priority_class = as_string(*c);
  if (w.priority_given + !w.workload_priority_class.empty() + !w.priority_class.empty() > 1)
    fail(v, "give at most one of priority, workloadPriorityClass and priorityClass");
  if (const auto r = opt(v, "replicas")) w.replicas = static_cast<int32_t>(as_int(*r, 1, 10000));
  if (const auto d = opt(v, "podDeletionDelay")) w.pod_deletion_delay = as_duration(*d);
  if (const auto k = opt(v, "kind")) {
    w.kind = as_choice(*k, {"Workload", "Instance", "Job", "JobSet", "RayJob"});
    w.instance = w.kind == "Instance";
  }
  if (const auto lq = opt(v, "localQueue")) {
    w.local_queue = as_string(*lq);
    if (!model::is_dns1123_subdomain(w.local_queue))
      fail(*lq, "'" + w.local_queue + "' is not a valid LocalQueue name (expected a DNS-1123 subdomain)");
    if (v.has("instanceType") || v.has("accelerator"))
      fail(*lq, "give either localQueue or instanceType/accelerator, not both (localQueue queues on an admin's "
                "LocalQueue, not on an InstanceType's)");
    if (w.instance) fail(*lq, "an Instance queues on its InstanceType's LocalQueue, not on localQueue");
    for (size_t i = 0; i < w.pod_sets.size(); ++i)
      if (accelerated(w.pod_sets[i].request))
        fail(v.at("podSets").at(i).at("request"),
             "a workload on localQueue gives its requests as {cpu, memory} or containers (accelerator shapes "
             "are folded by an InstanceType's webhook, which an admin's LocalQueue does not have)");
  }
  if (w.instance && w.replicas != 1)
    fail(v.at("replicas"), "an Instance has one Pod (kind: Instance takes no replicas)");
  check_selector(v, w);
  return w;
}

// `models:` — the GPU model table of an imported trace written out: code → {product, memory, ...}.
std::vector<OpenbGpuModel> read_trace_models(const Val& v) {
  if (!v.is_object() || v.json->empty())
    fail(v, "expected a mapping of openb GPU model codes to {product, memory}, e.g. T4: {product: Tesla T4, memory: 16Gi}");
  std::vector<OpenbGpuModel> out;
  for (const auto& item : v.json->items()) {
    const Val m = v.at(item.key());
    expect_keys(m, scenario_fields_at("TraceModel"), "a GPU model {product, memory, cores, family, computeCapability}");
    OpenbGpuModel g;
    g.code = item.key();
    g.product = as_string(req(m, "product", "the NVIDIA product name, e.g. Tesla T4"));
    if (g.product.empty()) fail(m.at("product"), "must not be empty");
    const model::Quantity q = as_quantity(req(m, "memory", "the VRAM per card, e.g. 16Gi"));
    const auto bytes = q.exact_int();
    if (!bytes || *bytes <= 0 || *bytes % (int64_t{1} << 20) != 0)
      fail(m.at("memory"), "'" + q.to_string() + "' is not a whole number of MiB (expected a memory size such as 16Gi)");
    g.memory_mib = *bytes >> 20;
    if (const auto c = opt(m, "cores")) g.cores = static_cast<uint32_t>(as_int(*c, 1, UINT32_MAX));
    if (const auto f = opt(m, "family")) g.family = as_string(*f);
    if (const auto c = opt(m, "computeCapability")) g.compute_capability = as_string(*c);
    if (const auto s = opt(m, "standIn")) g.stand_in = as_bool(*s);
    out.push_back(std::move(g));
  }
  return out;
}

// `tune:` as thousandths: a number over 0 and at most 10 with at most three decimals.
int64_t as_tune_permille(const Val& v) {
  if (!v.json->is_number()) fail(v, "expected a number such as 1.3 (the demand to reach, times the GPU capacity)");
  const double x = v.json->get<double>();
  const double permille = x * 1000.0;
  const auto rounded = static_cast<int64_t>(std::llround(permille));
  if (!(x > 0.0) || x > 10.0 || std::fabs(permille - static_cast<double>(rounded)) > 1e-6)
    fail(v, "expected a number over 0 and at most 10 with at most three decimals, got " + v.json->dump());
  return rounded;
}

FullDemandSpec read_full_demand(const Val& v) {
  expect_keys(v, scenario_fields_at("FullDemand"), "fullDemand {placement, tune, seeds, firstSeed, chooser}");
  FullDemandSpec f;
  f.where = v.ref();
  if (const auto p = opt(v, "placement")) {
    f.placement.clear();
    const auto items = p->is_array() ? as_list(*p, "placement policies") : std::vector<Val>{*p};
    if (items.empty()) fail(*p, "expected at least one of best-fit, fgd, chain");
    for (const Val& item : items) {
      const std::string name = as_choice(item, {"best-fit", "fgd", "chain"});
      if (std::find(f.placement.begin(), f.placement.end(), name) != f.placement.end())
        fail(item, "placement '" + name + "' is listed twice");
      f.placement.push_back(name);
    }
  }
  if (const auto t = opt(v, "tune")) f.tune_permille = as_tune_permille(*t);
  if (const auto n = opt(v, "seeds")) f.seeds = as_int(*n, 1, 1000);
  if (const auto n = opt(v, "firstSeed")) f.first_seed = static_cast<uint64_t>(as_int(*n, 0));
  if (const auto c = opt(v, "chooser")) f.chooser = as_choice(*c, {"most-free", "best-fit", "proportional", "default-model"});
  return f;
}

TraceSource read_trace(LoadContext& ctx, const Val& entry, const std::string& file) {
  expect_keys(entry, scenario_fields_at("TraceEntry"), "a trace entry {trace: {...}}");
  const Val t = entry.at("trace");
  expect_keys(t, scenario_fields_at("Trace"), "trace {format, nodes, pods}");
  TraceSource s;
  s.where = t.ref();
  s.format = as_choice(req(t, "format", "openb"), {"openb"});
  s.nodes = resolve_path(file, as_string(req(t, "nodes", "the node list CSV")));
  s.pods = resolve_path(file, as_string(req(t, "pods", "the pod list CSV")));
  if (const auto v = opt(t, "takeNodes")) s.take_nodes = as_bool(*v);
  if (const auto v = opt(t, "limit")) s.limit = as_int(*v, 0);
  if (const auto v = opt(t, "unscheduled")) s.include_unscheduled = as_choice(*v, {"skip", "include"}) == "include";
  if (const auto v = opt(t, "fullDemand")) s.full_demand = read_full_demand(*v);
  std::vector<OpenbGpuModel> models;
  if (const auto v = opt(t, "models")) models = read_trace_models(*v);
  const auto& table = models.empty() ? openb_gpu_models() : models;
  if (const auto v = opt(t, "defaultModel")) {
    s.default_model = as_string(*v);
    if (find_openb_gpu_model(table, s.default_model) == nullptr)
      fail(*v, "unknown openb GPU model '" + s.default_model + "' (known: " + openb_gpu_model_codes(table) + ")");
  }
  const std::string nodes_text = read_file_hashed(ctx, s.nodes, t.at("nodes"));
  const std::string pods_text = read_file_hashed(ctx, s.pods, t.at("pods"));
  OpenbTraceOptions options;
  options.limit = s.limit;
  options.unscheduled = s.include_unscheduled ? UnscheduledPods::kInclude : UnscheduledPods::kSkip;
  options.default_model = s.default_model;
  options.models = std::move(models);
  auto data = parse_openb_trace(nodes_text, s.nodes, pods_text, s.pods, options);
  if (!data) fail(t, "cannot import the trace: " + data.error());
  ctx.traces.push_back(TraceImport{std::move(data).value(), s.take_nodes, s.where});
  return s;
}

}  // namespace

std::vector<WorkloadSpec> read_workloads(LoadContext& ctx, const Val& list, const std::string& file,
                                         std::vector<TraceSource>& traces) {
  std::vector<WorkloadSpec> out;
  std::map<std::string, std::string> seen;
  for (const auto& entry : as_list(list, "workload generators or trace entries")) {
    if (entry.has("trace")) {
      traces.push_back(read_trace(ctx, entry, file));
      continue;
    }
    WorkloadSpec w = read_generator(entry);
    if (const auto it = seen.find(w.name); it != seen.end())
      fail(entry.at("name"), "workload name '" + w.name + "' is used twice (first at " + it->second + ")");
    seen[w.name] = entry.where();
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace chaintwin::sim::scenario_detail
