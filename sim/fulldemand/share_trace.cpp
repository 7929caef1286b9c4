#include "sim/fulldemand/share_trace.h"

#include <algorithm>
#include <map>
#include <set>

#include "sim/trace/csv_reader.h"
#include "sim/trace/csv_row_reader.h"

namespace chaintwin::sim {
namespace {

using model::placement::kMilliPerGpu;
using model::placement::ShareNode;
using model::placement::SharePod;

constexpr int64_t kMaxInt = int64_t{1} << 40;
constexpr size_t kMaxModels = 64;  // a pod's allowed models are a 64-bit set

struct PodRow {
  std::string name;
  SharePod pod;
  std::vector<std::string> spec_models;
  std::string spec;
  int line = 0;
};

std::vector<std::string> split_spec(const std::string& spec) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t bar = std::min(spec.find('|', start), spec.size());
    if (bar > start) out.push_back(spec.substr(start, bar - start));
    start = bar + 1;
  }
  return out;
}

PodRow read_pod(const CsvTable& table, const CsvRow& row) {
  const RowReader r(table, row);
  PodRow out;
  out.line = row.line;
  out.name = r.text("name");
  if (out.name.empty()) r.fail("name", "a pod needs a name");
  out.pod.cpu = r.integer("cpu_milli", 0, kMaxInt);
  out.pod.memory = r.integer("memory_mib", 0, kMaxInt);
  out.pod.gpus = static_cast<int32_t>(r.integer("num_gpu", 0, 1024));
  out.pod.milli = static_cast<int32_t>(r.integer("gpu_milli", 0, kMilliPerGpu));
  if (out.pod.gpus == 0 && out.pod.milli != 0)
    r.fail("gpu_milli", std::to_string(out.pod.milli) + " on a pod with num_gpu 0 (a share needs a card)");
  if (out.pod.gpus > 0 && out.pod.milli == 0) r.fail("gpu_milli", "0 on a pod with num_gpu " + std::to_string(out.pod.gpus));
  if (out.pod.gpus > 1 && out.pod.milli < kMilliPerGpu)
    r.fail("gpu_milli", std::to_string(out.pod.milli) + " with num_gpu " + std::to_string(out.pod.gpus) +
                            " (a share is of one card; several cards are whole)");
  out.spec = r.text("gpu_spec");
  if (!out.spec.empty() && out.pod.gpus == 0) r.fail("gpu_spec", "'" + out.spec + "' on a pod without GPUs");
  out.spec_models = split_spec(out.spec);
  if (!out.spec.empty() && out.spec_models.empty()) r.fail("gpu_spec", "'" + out.spec + "' names no GPU model");
  return out;
}

}  // namespace

int64_t ShareTrace::capacity_milli() const {
  int64_t sum = 0;
  for (const ShareNode& n : nodes) sum += n.capacity_milli();
  return sum;
}

int64_t ShareTrace::demand_milli() const {
  int64_t sum = 0;
  for (const SharePod& p : pods) sum += p.gpu_milli();
  return sum;
}

model::Result<ShareTrace> parse_share_trace(const std::string& nodes_csv, const std::string& nodes_file,
                                            const std::string& pods_csv, const std::string& pods_file) {
  auto tables = parse_openb_tables(nodes_csv, nodes_file, pods_csv, pods_file);
  if (!tables) return model::err(tables.error());
  const CsvTable* nodes = &tables->nodes;
  const CsvTable* pods = &tables->pods;
  try {
    ShareTrace out;
    std::vector<std::string> node_models;
    std::map<std::string, int> node_lines;
    for (const CsvRow& row : nodes->rows()) {
      const RowReader r(*nodes, row);
      const std::string name = r.text("sn");
      if (name.empty()) r.fail("sn", "a node needs a name");
      if (const auto [it, added] = node_lines.emplace(name, row.line); !added)
        r.fail("sn", "node name '" + name + "' is used twice (first at line " + std::to_string(it->second) + ")");
      ShareNode n;
      n.cpu_left = r.integer("cpu_milli", 1, kMaxInt);
      n.memory_left = r.integer("memory_mib", 1, kMaxInt);
      const int64_t gpus = r.integer("gpu", 0, 1024);
      const std::string code = r.text("model");
      if (gpus == 0 && !code.empty()) r.fail("model", "GPU model '" + code + "' on a node with gpu 0");
      if (gpus > 0 && code.empty()) r.fail("model", "a node with " + std::to_string(gpus) + " GPUs needs a GPU model");
      n.gpu_left.assign(static_cast<size_t>(gpus), kMilliPerGpu);
      out.node_names.push_back(name);
      out.nodes.push_back(std::move(n));
      node_models.push_back(code);
    }
    std::vector<PodRow> rows;
    std::map<std::string, int> pod_lines;
    for (const CsvRow& row : pods->rows()) {
      PodRow p = read_pod(*pods, row);
      if (const auto [it, added] = pod_lines.emplace(p.name, row.line); !added)
        RowReader(*pods, row).fail("name", "pod name '" + p.name + "' is used twice (first at line " +
                                               std::to_string(it->second) + ")");
      rows.push_back(std::move(p));
    }
    // Model codes of the Nodes and of every gpu_spec, in text order; spec texts ranked likewise.
    std::set<std::string> codes, specs;
    for (const std::string& c : node_models)
      if (!c.empty()) codes.insert(c);
    for (const PodRow& p : rows) {
      codes.insert(p.spec_models.begin(), p.spec_models.end());
      if (!p.spec.empty()) specs.insert(p.spec);
    }
    if (codes.size() > kMaxModels)
      return model::err(pods_file + ": " + std::to_string(codes.size()) + " GPU model codes in the node and pod lists (at most " +
                        std::to_string(kMaxModels) + ")");
    out.models.assign(codes.begin(), codes.end());
    const auto model_id = [&](const std::string& code) {
      return static_cast<int32_t>(std::lower_bound(out.models.begin(), out.models.end(), code) - out.models.begin());
    };
    for (size_t i = 0; i < out.nodes.size(); ++i)
      if (!node_models[i].empty()) out.nodes[i].model = model_id(node_models[i]);
    const std::vector<std::string> spec_list(specs.begin(), specs.end());
    std::sort(rows.begin(), rows.end(), [](const PodRow& a, const PodRow& b) { return a.name < b.name; });
    for (PodRow& p : rows) {
      for (const std::string& code : p.spec_models) p.pod.models |= uint64_t{1} << model_id(code);
      if (!p.spec.empty())
        p.pod.spec = 1 + static_cast<int32_t>(std::lower_bound(spec_list.begin(), spec_list.end(), p.spec) - spec_list.begin());
      out.pod_names.push_back(std::move(p.name));
      out.pods.push_back(p.pod);
    }
    return out;
  } catch (const RowError& e) {
    return model::err(e.message);
  }
}

model::Result<ShareTrace> read_share_trace(const std::string& nodes_path, const std::string& pods_path) {
  auto nodes = read_text_file(nodes_path);
  if (!nodes) return model::err(nodes.error());
  auto pods = read_text_file(pods_path);
  if (!pods) return model::err(pods.error());
  return parse_share_trace(*nodes, nodes_path, *pods, pods_path);
}

}  // namespace chaintwin::sim
