#include "sim/trace/openb_trace.h"

#include <algorithm>
#include <set>

#include "model/api/k8s_validation.h"
#include "model/device_manager/device_inventory.h"
#include "sim/trace/csv_reader.h"
#include "sim/trace/csv_row_reader.h"
#include "sim/trace/openb_models.h"

namespace chaintwin::sim {
namespace {

constexpr int64_t kMaxInt = int64_t{1} << 40;

TraceNode read_node(const CsvTable& table, const CsvRow& row, const std::vector<OpenbGpuModel>& models) {
  const RowReader r(table, row);
  model::NodeSpec spec;
  spec.name = r.text("sn");
  if (spec.name.empty()) r.fail("sn", "a node needs a name");
  if (!model::is_dns1123_subdomain(spec.name))
    r.fail("sn", "'" + spec.name + "' is not a valid Node name (expected a DNS-1123 subdomain: lowercase letters, "
                 "digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)");
  spec.cpu = model::Quantity::from_milli(r.integer("cpu_milli", 1, kMaxInt));
  spec.memory = model::Quantity::from_int_binary(r.integer("memory_mib", 1, kMaxInt) << 20);
  const int64_t gpus = r.integer("gpu", 0, 1024);
  const std::string code = r.text("model");
  TraceNode out;
  out.where = SourceRef{table.file(), row.line};
  if (gpus == 0) {
    if (!code.empty()) r.fail("model", "GPU model '" + code + "' on a node with gpu 0");
  } else {
    if (code.empty()) r.fail("model", "a node with " + std::to_string(gpus) + " GPUs needs a GPU model");
    const OpenbGpuModel* m = find_openb_gpu_model(models, code);
    if (m == nullptr)
      r.fail("model", "unknown GPU model '" + code + "' (known: " + openb_gpu_model_codes(models) + ")");
    spec.accelerators.push_back(openb_inventory(*m, static_cast<int32_t>(gpus)));
    auto devices = model::make_devices(spec.name, spec.accelerators);
    if (!devices) r.fail("model", devices.error());
    out.devices = std::move(devices).value();
    out.model_code = code;
  }
  out.node = model::make_node(spec, out.devices ? &*out.devices : nullptr);
  return out;
}

struct PodColumns {
  bool timed = true;
  bool has_spec = false;
};

RequestShape read_shape(const RowReader& r) {
  RequestShape shape;
  const int64_t cpu_milli = r.integer("cpu_milli", 0, kMaxInt);
  const int64_t memory_mib = r.integer("memory_mib", 0, kMaxInt);
  if (cpu_milli > 0) shape.cpu = model::Quantity::from_milli(cpu_milli);
  if (memory_mib > 0) shape.memory = model::Quantity::from_int_binary(memory_mib << 20);
  const int64_t num_gpu = r.integer("num_gpu", 0, 1024);
  const int64_t gpu_milli = r.integer("gpu_milli", 0, 1000);
  if (num_gpu == 0) {
    if (gpu_milli != 0) r.fail("gpu_milli", std::to_string(gpu_milli) + " without a GPU (num_gpu is 0)");
    if (cpu_milli == 0 && memory_mib == 0) r.fail("cpu_milli", "a pod that requests nothing (no CPU, memory or GPU)");
    shape.kind = RequestShape::Kind::kCpu;
  } else if (gpu_milli == 1000) {
    shape.kind = RequestShape::Kind::kExclusive;
    shape.cards = static_cast<int32_t>(num_gpu);
  } else {
    if (gpu_milli == 0) r.fail("gpu_milli", "0 with num_gpu " + std::to_string(num_gpu) + " (expected 1..1000)");
    if (num_gpu != 1)
      r.fail("gpu_milli", std::to_string(gpu_milli) + " with num_gpu " + std::to_string(num_gpu) +
                              " (a GPU share is for one GPU; whole GPUs have gpu_milli 1000)");
    // The share of one GPU in thousandths → a logical slice of that share, rounded up to a whole
    // percent so the slice never holds less than the pod had.
    const auto percent = static_cast<int32_t>((gpu_milli + 9) / 10);
    shape.kind = RequestShape::Kind::kSliced;
    shape.memory_percentage = percent;
    shape.cores_percentage = percent;
  }
  return shape;
}

// The models a pod may run on: its gpu_spec's codes in the listed order (each known, none twice),
// else the default model; empty for a CPU pod. `named` says whether gpu_spec gave them.
std::vector<std::string> selected_models(const RowReader& r, bool gpu, const std::string& default_model,
                                         const std::vector<OpenbGpuModel>& models, bool& named) {
  const std::string spec = r.text("gpu_spec");
  std::vector<std::string> codes;
  size_t start = 0;
  while (!spec.empty()) {
    const size_t bar = spec.find('|', start);
    const std::string code = spec.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    if (code.empty()) r.fail("gpu_spec", "'" + spec + "' has an empty model between '|'");
    if (find_openb_gpu_model(models, code) == nullptr)
      r.fail("gpu_spec", "unknown GPU model '" + code + "' (known: " + openb_gpu_model_codes(models) + ")");
    if (std::find(codes.begin(), codes.end(), code) == codes.end()) codes.push_back(code);
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  named = !codes.empty();
  if (!gpu) {
    if (named) r.fail("gpu_spec", "'" + spec + "' on a pod without a GPU (num_gpu is 0)");
    return {};
  }
  if (named) return codes;
  if (default_model.empty())
    r.fail("gpu_spec", "empty, and the node list has no GPU node whose model it could default to");
  return {default_model};
}

// Returns nullopt when the row is skipped (never scheduled, under kSkip).
std::optional<TraceWorkload> read_pod(const CsvTable& table, const CsvRow& row, size_t index, const PodColumns& cols,
                                      const OpenbTraceOptions& options, const std::string& default_model,
                                      const std::vector<OpenbGpuModel>& models, bool& spec_named, bool& unscheduled) {
  const RowReader r(table, row);
  TraceWorkload w;
  w.name = r.text("name");
  if (w.name.empty()) r.fail("name", "a pod needs a name");
  if (!model::is_dns1123_subdomain(w.name))
    r.fail("name", "'" + w.name + "' is not a valid Workload name (expected a DNS-1123 subdomain: lowercase "
                   "letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)");
  w.namespace_ = options.namespace_;
  PodSetSpec ps;
  ps.name = "main";
  ps.count = 1;
  ps.where = SourceRef{table.file(), row.line};
  ps.request = read_shape(r);
  const bool gpu = ps.request.kind != RequestShape::Kind::kCpu;
  bool named = false;
  const auto codes = selected_models(r, gpu, default_model, models, named);
  for (size_t i = 0; i < codes.size(); ++i) {
    const std::string key = openb_accelerator_key(*find_openb_gpu_model(models, codes[i]));
    if (i == 0) {
      w.instance_type.accelerator = key;
    } else if (key != w.instance_type.accelerator &&
               std::find(w.instance_type.alternatives.begin(), w.instance_type.alternatives.end(), key) ==
                   w.instance_type.alternatives.end()) {
      w.instance_type.alternatives.push_back(key);  // two codes may map to one product
    }
  }
  spec_named = named;
  w.pod_sets.push_back(std::move(ps));

  if (!cols.timed) {
    w.arrival = SimTime::seconds(static_cast<int64_t>(index));
    w.duration = kOpenbUntimedDuration;
    return w;
  }
  const int64_t created = r.integer("creation_time", 0, kMaxInt);
  const int64_t deleted = r.integer("deletion_time", 0, kMaxInt);
  const bool scheduled = !r.blank("scheduled_time") && r.integer("scheduled_time", -kMaxInt, kMaxInt) >= 0;
  w.arrival = SimTime::seconds(created);
  if (scheduled) {
    const int64_t at = r.integer("scheduled_time", 0, kMaxInt);
    if (at < created)
      r.fail("scheduled_time", std::to_string(at) + " is before creation_time " + std::to_string(created));
    if (deleted < at)
      r.fail("deletion_time", std::to_string(deleted) + " is before scheduled_time " + std::to_string(at));
    w.duration = SimTime::seconds(std::max<int64_t>(1, deleted - at));
    return w;
  }
  if (options.unscheduled == UnscheduledPods::kSkip) return std::nullopt;
  unscheduled = true;
  if (deleted < created)
    r.fail("deletion_time", std::to_string(deleted) + " is before creation_time " + std::to_string(created));
  w.duration = SimTime::seconds(std::max<int64_t>(1, deleted - created));
  return w;
}

}  // namespace

std::string most_common_openb_model(const std::vector<TraceNode>& nodes) {
  std::map<std::string, std::pair<int64_t, int64_t>> tally;  // code → (nodes, cards)
  for (const auto& n : nodes) {
    if (n.model_code.empty() || !n.devices) continue;
    auto& t = tally[n.model_code];
    ++t.first;
    for (const auto& g : n.devices->spec.groups) t.second += static_cast<int64_t>(g.accelerators.size());
  }
  std::string best;
  std::pair<int64_t, int64_t> best_count{-1, -1};
  for (const auto& [code, count] : tally)  // code order: a tie keeps the smaller code
    if (count > best_count) {
      best = code;
      best_count = count;
    }
  return best;
}

model::Result<TraceData> parse_openb_trace(const std::string& nodes_csv, const std::string& nodes_file,
                                           const std::string& pods_csv, const std::string& pods_file,
                                           const OpenbTraceOptions& options) {
  auto tables = parse_openb_tables(nodes_csv, nodes_file, pods_csv, pods_file);
  if (!tables) return model::err(tables.error());
  const CsvTable* nodes = &tables->nodes;
  const CsvTable* pods = &tables->pods;
  PodColumns cols;
  const int times = (pods->column("creation_time") ? 1 : 0) + (pods->column("deletion_time") ? 1 : 0) +
                    (pods->column("scheduled_time") ? 1 : 0);
  if (times != 0 && times != 3)
    return model::err(pods_file + ":1: give all of creation_time, deletion_time, scheduled_time or none of them");
  cols.timed = times == 3;
  if (options.limit && *options.limit < 0) return model::err("limit: must not be negative");

  TraceData data;
  data.timed = cols.timed;
  data.models = options.models.empty() ? openb_gpu_models() : options.models;
  const auto& models = data.models;
  {
    std::set<std::string> codes;
    for (const auto& m : models) {
      if (m.code.empty() || m.product.empty() || m.memory_mib <= 0)
        return model::err("models: '" + m.code + "' needs a code, a product and a VRAM size");
      if (!codes.insert(m.code).second) return model::err("models: GPU model '" + m.code + "' is given twice");
    }
  }
  try {
    std::map<std::string, int> node_line;
    for (const auto& row : nodes->rows()) {
      TraceNode n = read_node(*nodes, row, models);
      const std::string name = n.node.metadata.name;
      if (const auto it = node_line.find(name); it != node_line.end())
        throw RowError{nodes->where(row) + ": sn: node name '" + name + "' is used twice (first at line " +
                       std::to_string(it->second) + ")"};
      node_line[name] = row.line;
      ++data.nodes_by_model[n.model_code];
      if (n.devices)
        for (const auto& g : n.devices->spec.groups)
          data.cards_by_model[n.model_code] += static_cast<int64_t>(g.accelerators.size());
      data.nodes.push_back(std::move(n));
    }
    if (!options.default_model.empty()) {
      if (find_openb_gpu_model(models, options.default_model) == nullptr)
        return model::err("defaultModel: unknown GPU model '" + options.default_model +
                          "' (known: " + openb_gpu_model_codes(models) + ")");
      data.default_model = options.default_model;
    } else {
      data.default_model = most_common_openb_model(data.nodes);
    }
    std::map<std::string, int> pod_line;
    for (size_t i = 0; i < pods->rows().size(); ++i) {
      const CsvRow& row = pods->rows()[i];
      ++data.pod_rows;
      if (options.limit && static_cast<int64_t>(data.workloads.size()) >= *options.limit) continue;
      bool spec_named = false;
      bool unscheduled = false;
      auto w = read_pod(*pods, row, i, cols, options, data.default_model, models, spec_named, unscheduled);
      if (!w) {
        ++data.skipped_unscheduled;
        continue;
      }
      if (const auto it = pod_line.find(w->name); it != pod_line.end())
        throw RowError{pods->where(row) + ": name: pod name '" + w->name + "' is used twice (first at line " +
                       std::to_string(it->second) + ")"};
      pod_line[w->name] = row.line;
      if (w->arrival + w->duration > data.end) data.end = w->arrival + w->duration;
      if (w->arrival > data.last_arrival) data.last_arrival = w->arrival;
      if (spec_named) ++data.with_gpu_spec;
      if (unscheduled) ++data.included_unscheduled;
      data.workloads.push_back(std::move(*w));
    }
  } catch (const RowError& e) {
    return model::err(e.message);
  }
  return data;
}

model::Result<TraceData> read_openb_trace(const std::string& nodes_csv_path, const std::string& pods_csv_path,
                                          const OpenbTraceOptions& options) {
  auto nodes = read_text_file(nodes_csv_path);
  if (!nodes) return model::err(nodes.error());
  auto pods = read_text_file(pods_csv_path);
  if (!pods) return model::err(pods.error());
  return parse_openb_trace(*nodes, nodes_csv_path, *pods, pods_csv_path, options);
}

}  // namespace chaintwin::sim
