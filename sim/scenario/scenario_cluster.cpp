// cluster: node generators, inline objects, included files and namespaces.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/input_file.h"
#include "model/admission/device_allocator.h"
#include "model/fnv.h"
#include "model/api/k8s_validation.h"
#include "sim/scenario/scenario_fields.h"
#include "sim/scenario/scenario_sections.h"

namespace chaintwin::sim::scenario_detail {
namespace {

using nlohmann::json;

int64_t mib_of(const Val& v) {
  const model::Quantity q = as_quantity(v);
  const auto bytes = q.exact_int();
  if (!bytes || *bytes <= 0 || *bytes % (int64_t{1} << 20) != 0)
    fail(v, "'" + q.to_string() + "' is not a whole number of MiB (expected a memory size such as 80Gi)");
  return *bytes >> 20;
}

model::CardPartitioning read_partitioning(const Val& v) {
  expect_keys(v, scenario_fields_at("Partitioning"), "a partitioning entry {cards, mode, instances}");
  model::CardPartitioning p;
  for (const auto& c : as_list(req(v, "cards", "the card indexes this entry sets"), "card indexes"))
    p.cards.push_back(static_cast<int32_t>(as_int(c, 0, 4095)));
  p.mig = as_choice(req(v, "mode", "mig or logical"), {"mig", "logical"}) == "mig";
  if (const auto i = opt(v, "instances"))
    for (const auto& inst : as_list(*i, "MIG instances such as \"3g.40gb@0\"")) p.instances.push_back(as_string(inst));
  return p;
}

model::AcceleratorInventory read_accelerators(const Val& v) {
  expect_keys(v, scenario_fields_at("Accelerators"), "an accelerator inventory");
  model::AcceleratorInventory inv;
  inv.manufacturer = as_string(req(v, "manufacturer", "e.g. nvidia"));
  inv.product = as_string(req(v, "product", "e.g. NVIDIA H100 80GB HBM3"));
  inv.count = static_cast<int32_t>(as_int(req(v, "count", "cards on the node"), 1, 1024));
  if (const auto m = opt(v, "memory")) inv.memory_mib = mib_of(*m);
  if (const auto m = opt(v, "memoryMib")) inv.reported_memory_mib = as_int(*m, 1);
  if (const auto c = opt(v, "cores")) inv.cores = static_cast<uint32_t>(as_int(*c, 1, UINT32_MAX));
  if (const auto f = opt(v, "family")) inv.family = as_string(*f);
  if (const auto c = opt(v, "computeCapability")) inv.compute_capability = as_string(*c);
  if (const auto p = opt(v, "partitioning"))
    for (const auto& e : as_list(*p, "partitioning entries")) inv.partitioning.push_back(read_partitioning(e));
  return inv;
}

// make_devices names places as "accelerators[i].field" or "accelerators[i] card N"; point at ours.
[[noreturn]] void fail_devices(const std::vector<Val>& entries, const std::string& message) {
  size_t i = 0;
  std::string rest = message;
  if (message.rfind("accelerators[", 0) == 0) {
    const size_t close = message.find(']');
    i = std::min<size_t>(static_cast<size_t>(std::atoi(message.c_str() + 13)), entries.size() - 1);
    rest = message.substr(close + 1);
  }
  const Val& entry = entries[i];
  if (!rest.empty() && rest[0] == '.') {
    const size_t colon = rest.find(": ");
    fail(Val{entry.doc, entry.json, entry.path + rest.substr(0, colon)}, rest.substr(colon + 2));
  }
  fail(Val{entry.doc, entry.json, entry.path + ".partitioning"}, rest.substr(rest.find_first_not_of(' ')));
}

}  // namespace

std::string directory_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

std::string resolve_path(const std::string& base_file, const std::string& rel) {
  if (!rel.empty() && rel[0] == '/') return rel;
  return directory_of(base_file) + rel;
}

std::string read_file_hashed(LoadContext& ctx, const std::string& path, const Val& from) {
  if (const std::string why = input_file_problem(path); !why.empty()) fail(from, "'" + path + "' " + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(from, "cannot read '" + path + "' (expected a readable file, relative to the scenario)");
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  ctx.hash_state = model::fnv1a64_update(ctx.hash_state, text);
  return text;
}

// One `podsOutsideKueue` entry: a Pod with one container `main` asking `requests`.
model::Pod read_pod_outside_kueue(const Val& v) {
  expect_keys(v, scenario_fields_at("PodOutsideKueue"), "a Pod outside Kueue {name, namespace, requests}");
  model::Pod pod;
  pod.metadata.name = as_string(req(v, "name", "the Pod's name"));
  if (!model::is_dns1123_subdomain(pod.metadata.name))
    fail(v.at("name"), "'" + pod.metadata.name + "' is not a valid Pod name");
  pod.metadata.namespace_ = v.has("namespace") ? as_string(v.at("namespace")) : "default";
  if (!model::is_dns1123_label(pod.metadata.namespace_))
    fail(v.at("namespace"), "'" + pod.metadata.namespace_ + "' is not a valid namespace name");
  const Val r = req(v, "requests", "requests: {resource: quantity}");
  if (!r.is_object() || r.json->empty()) fail(r, "expected a mapping of resource names to quantities");
  model::Container c;
  c.name = "main";
  for (const auto& item : r.json->items()) c.requests[item.key()] = as_quantity(r.at(item.key()));
  pod.spec.containers.push_back(std::move(c));
  pod.phase = model::PodPhase::kRunning;
  return pod;
}

std::vector<GeneratedNode> read_node_spec(const Val& v, bool allow_many) {
  expect_keys(v, scenario_fields_at("NodeSpec"), "a node spec");
  model::NodeSpec spec;
  // cluster.nodes: `namePrefix` + count N names prefix0 … prefix(N-1); `name` + count N names the
  // first Node `name` and the others name-1 … name-(N-1), so a plan can change a template's count
  // without renaming its Nodes. Count 0 (either form): the template contributes no Node.
  std::vector<std::string> names;
  if (allow_many && v.has("namePrefix")) {
    if (v.has("name")) fail(v.at("name"), "give either name or namePrefix with count, not both");
    const std::string prefix = as_string(v.at("namePrefix"));
    const int64_t count = v.has("count") ? as_int(v.at("count"), 0, 100000) : 1;
    for (int64_t i = 0; i < count; ++i) names.push_back(prefix + std::to_string(i));
  } else {
    if (!allow_many && v.has("namePrefix")) fail(v.at("namePrefix"), "an added node has one name (use name)");
    if (!allow_many && v.has("count")) fail(v.at("count"), "an added node is one node (no count)");
    const std::string name =
        as_string(req(v, "name", allow_many ? "name, or namePrefix and count" : "the node's name"));
    const int64_t count = v.has("count") ? as_int(v.at("count"), 0, 100000) : 1;
    for (int64_t i = 0; i < count; ++i) names.push_back(i == 0 ? name : name + "-" + std::to_string(i));
  }
  // A Node's name is a DNS-1123 subdomain, as the API server requires.
  for (size_t i = 0; i < names.size(); ++i)
    if (!model::is_dns1123_subdomain(names[i]))
      fail(v.has("namePrefix") ? v.at("namePrefix") : v.has("name") ? v.at("name") : v,
           "'" + names[i] + "' is not a valid Node name (expected a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', "
           "starting and ending with a letter or digit, at most 253 characters)");
  if (const auto o = opt(v, "os")) spec.os = as_string(*o);
  if (const auto a = opt(v, "arch")) spec.arch = as_string(*a);
  if (const auto c = opt(v, "cpu")) {
    expect_keys(*c, scenario_fields_at("Cpu"), "cpu {vendor, name, cores}");
    if (const auto x = opt(*c, "vendor")) spec.cpu_vendor = as_string(*x);
    if (const auto x = opt(*c, "name")) spec.cpu_name = as_string(*x);
    if (const auto x = opt(*c, "family")) spec.cpu_family = std::to_string(as_int(*x, 0));
    if (const auto x = opt(*c, "model")) spec.cpu_model = std::to_string(as_int(*x, 0));
    if (const auto x = opt(*c, "cores")) {
      spec.cpu = as_quantity(*x);
      if (spec.cpu.sign() <= 0) fail(*x, "expected a positive number of cores, got '" + spec.cpu.to_string() + "'");
    }
  }
  if (const auto m = opt(v, "memory")) {
    spec.memory = as_quantity(*m);
    if (spec.memory.sign() <= 0) fail(*m, "expected a positive memory size such as 256Gi, got '" + spec.memory.to_string() + "'");
  }
  if (const auto p = opt(v, "pods")) spec.pods = model::Quantity::from_int(as_int(*p, 0));
  if (const auto l = opt(v, "labels")) spec.labels = as_string_map(*l);
  if (const auto a = opt(v, "annotations")) spec.annotations = as_string_map(*a);
  // As the API server validates a Node's metadata: label keys and annotation keys qualified names,
  // label values at most 63 characters of the label alphabet.
  for (const auto& [key, value] : spec.labels) {
    if (const std::string why = model::label_key_problem(key); !why.empty())
      fail(v.at("labels").at(key), "'" + key + "' is not a valid label key: " + why);
    if (const std::string why = model::label_value_problem(value); !why.empty())
      fail(v.at("labels").at(key), "not a valid label value: " + why);
  }
  for (const auto& [key, value] : spec.annotations)
    if (const std::string why = model::label_key_problem(key); !why.empty())
      fail(v.at("annotations").at(key), "'" + key + "' is not a valid annotation key: " + why);
  if (const auto u = opt(v, "unschedulable")) spec.unschedulable = as_bool(*u);
  std::vector<Val> accel_entries;
  if (const auto a = opt(v, "accelerators")) {
    if (a->is_array()) {
      accel_entries = as_list(*a, "accelerator inventories");
    } else {
      accel_entries.push_back(*a);
    }
    for (const auto& e : accel_entries) spec.accelerators.push_back(read_accelerators(e));
  }
  std::vector<std::pair<Val, model::Pod>> outside;
  if (const auto p = opt(v, "podsOutsideKueue")) {
    if (!allow_many) fail(*p, "an added node starts without Pods (give podsOutsideKueue in cluster.nodes)");
    for (const auto& e : as_list(*p, "Pods outside Kueue")) outside.emplace_back(e, read_pod_outside_kueue(e));
  }
  std::vector<GeneratedNode> out;
  for (size_t n = 0; n < names.size(); ++n) {
    const std::string& name = names[n];
    spec.name = name;
    GeneratedNode g;
    if (!spec.accelerators.empty()) {
      auto devices = model::make_devices(name, spec.accelerators);
      if (!devices) fail_devices(accel_entries, devices.error());
      g.devices = std::move(*devices);
    }
    g.node = model::make_node(spec, g.devices ? &*g.devices : nullptr);
    // The n-th Node of the entry gets each Pod as `<name>-<n>` (the first keeps `<name>`), bound and
    // Running, its cards granted by the device plugin as for any Pod.
    for (const auto& [e, templ] : outside) {
      model::Pod pod = templ;
      if (n > 0) pod.metadata.name += "-" + std::to_string(n);
      pod.node_name = name;
      if (g.devices) {
        auto granted = model::allocate_pod(*g.devices, pod);
        if (!granted.ok()) fail(e, "Pod '" + pod.metadata.name + "' does not fit node '" + name + "': " + granted.error());
        pod.allocations = std::move(*granted);
      }
      for (const auto& other : g.pods_outside_kueue)
        if (other.metadata.namespace_ == pod.metadata.namespace_ && other.metadata.name == pod.metadata.name)
          fail(e, "Pod '" + pod.metadata.namespace_ + "/" + pod.metadata.name + "' is given twice");
      g.pods_outside_kueue.push_back(std::move(pod));
    }
    out.push_back(std::move(g));
  }
  return out;
}

namespace {

// The line map of a sub-document, re-rooted at `prefix`. The paths under `prefix` are the ones that
// start with it, which sort together: only that range is read (a cluster of thousands of objects
// would otherwise scan every line of the file once per object).
std::map<std::string, int> reroot(const std::map<std::string, int>& lines, const std::string& prefix) {
  std::map<std::string, int> out;
  for (auto it = lines.lower_bound(prefix); it != lines.end() && it->first.rfind(prefix, 0) == 0; ++it) {
    const auto& [path, line] = *it;
    if (path == prefix) {
      out[""] = line;
    } else if (path.rfind(prefix, 0) == 0 && (path[prefix.size()] == '.' || path[prefix.size()] == '[')) {
      std::string rest = path.substr(prefix.size());
      if (rest[0] == '.') rest = rest.substr(1);
      out[rest] = line;
    }
  }
  return out;
}

void read_include(LoadContext& ctx, const Val& entry, const std::string& file, ClusterParts& out) {
  const std::string path = resolve_path(file, as_string(entry, "a file path"));
  if (std::find(ctx.include_stack.begin(), ctx.include_stack.end(), path) != ctx.include_stack.end())
    fail(entry, "'" + path + "' includes itself (include cycle: " + join(ctx.include_stack, " -> ") + ")");
  const std::string text = read_file_hashed(ctx, path, entry);
  auto docs = parse_kubernetes_objects(text, path);
  if (!docs) throw ScenarioError{docs.error()};
  ctx.include_stack.push_back(path);
  for (auto& so : *docs) {
    if (so.kind() == "Scenario") {
      auto doc = std::make_unique<SourceObject>(std::move(so));
      const Val root{doc.get(), &doc->object, ""};
      ctx.documents.push_back(std::move(doc));
      if (root.has("cluster")) read_cluster(ctx, root.at("cluster"), path, out);
    } else {
      out.objects.push_back(std::move(so));
    }
  }
  ctx.include_stack.pop_back();
}

}  // namespace

void read_cluster(LoadContext& ctx, const Val& cluster, const std::string& file, ClusterParts& out) {
  expect_keys(cluster, scenario_fields_at("Cluster"), "cluster {nodes, objects, include, namespaces}");
  if (const auto nodes = opt(cluster, "nodes"))
    for (const auto& n : as_list(*nodes, "node generators"))
      for (auto& g : read_node_spec(n, true)) {
        const std::string name = g.node.metadata.name;
        if (const auto it = ctx.node_where.find(name); it != ctx.node_where.end())
          fail(n, "node name '" + name + "' is used twice (first at " + it->second + ")");
        ctx.node_where[name] = n.where();
        out.generated.push_back(std::move(g));
      }
  if (const auto objects = opt(cluster, "objects"))
    for (const auto& o : as_list(*objects, "Kubernetes objects")) {
      if (!o.is_object()) fail(o, "expected a Kubernetes object (a mapping with apiVersion and kind)");
      SourceObject so{cluster.doc->file, o.doc->where(o.path).empty() ? 0 : o.ref().line, *o.json,
                      reroot(cluster.doc->lines, o.path)};
      if (auto named = check_object_names(so); !named.ok()) throw ScenarioError{named.error()};
      out.objects.push_back(std::move(so));
    }
  if (const auto include = opt(cluster, "include"))
    for (const auto& e : as_list(*include, "file paths")) read_include(ctx, e, file, out);
  if (const auto ns = opt(cluster, "namespaces"))
    for (const auto& n : as_list(*ns, "namespace names")) {
      const std::string name = as_string(n);
      if (!model::is_dns1123_label(name))
        fail(n, "'" + name + "' is not a valid Namespace name (expected a DNS-1123 label: lowercase letters, digits and '-', "
                "starting and ending with a letter or digit, at most 63 characters)");
      out.namespaces.push_back(name);
    }
}

}  // namespace chaintwin::sim::scenario_detail
