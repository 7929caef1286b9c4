#include "sim/trace/openb_scenario.h"

#include <nlohmann/json.hpp>
#include <sstream>

namespace chaintwin::sim {
namespace {

// A YAML scalar: plain when it cannot be read as anything but this string, else double-quoted
// (a JSON string is a valid YAML double-quoted scalar).
std::string scalar(const std::string& s) {
  bool plain = !s.empty() && s.front() != ' ' && s.back() != ' ' && s.front() != '-';
  bool letter = false;
  for (const char c : s) {
    const bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    letter = letter || alpha;
    if (!alpha && !(c >= '0' && c <= '9') && c != ' ' && c != '.' && c != '_' && c != '-' && c != '/') plain = false;
  }
  static const char* const kWords[] = {"true", "false", "yes", "no", "on", "off", "null", "True", "False", "Null"};
  for (const char* w : kWords)
    if (s == w) plain = false;
  if (!letter) plain = false;  // "8.6", "2024" would read as numbers
  return plain ? s : nlohmann::json(s).dump();
}

std::string memory_text(int64_t mib) {
  return mib % 1024 == 0 ? std::to_string(mib / 1024) + "Gi" : std::to_string(mib) + "Mi";
}

std::string duration_text(SimTime t) {
  const int64_t us = t.us();
  if (us % SimTime::days(1).us() == 0) return std::to_string(us / SimTime::days(1).us()) + "d";
  if (us % SimTime::hours(1).us() == 0) return std::to_string(us / SimTime::hours(1).us()) + "h";
  if (us % SimTime::seconds(1).us() == 0) return std::to_string(us / SimTime::seconds(1).us()) + "s";
  return std::to_string(us) + "us";
}

std::string days_text(SimTime t) {
  const int64_t tenths = t.us() / (SimTime::days(1).us() / 10);
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " d";
}

// Wraps `text` into comment lines of at most ~100 columns, each starting with `prefix`.
void comment_wrapped(std::ostringstream& out, const std::string& prefix, const std::string& text) {
  std::istringstream words(text);
  std::string line, word;
  while (words >> word) {
    if (!line.empty() && prefix.size() + line.size() + 1 + word.size() > 100) {
      out << prefix << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out << prefix << line << "\n";
}

struct PodCounts {
  int64_t whole = 0, slices = 0, cpu = 0, several_models = 0;
};

PodCounts count_pods(const TraceData& data) {
  PodCounts c;
  for (const auto& w : data.workloads) {
    for (const auto& ps : w.pod_sets) {
      if (ps.request.kind == RequestShape::Kind::kExclusive) ++c.whole;
      else if (ps.request.kind == RequestShape::Kind::kSliced) ++c.slices;
      else if (ps.request.kind == RequestShape::Kind::kCpu) ++c.cpu;
    }
    if (!w.instance_type.alternatives.empty()) ++c.several_models;
  }
  return c;
}

}  // namespace

std::string with_thousands(int64_t value) {
  const std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out = value < 0 ? "-" : "";
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

SimTime openb_default_horizon(const TraceData& data) {
  const SimTime last = data.timed ? data.end : data.last_arrival;
  const int64_t day = SimTime::days(1).us();
  const int64_t us = last.us() + day;
  return SimTime::micros((us + day - 1) / day * day);
}

std::string openb_scenario_yaml(const OpenbScenarioRequest& request, const TraceData& data) {
  std::ostringstream out;
  const bool include = request.options.unscheduled == UnscheduledPods::kInclude;
  const PodCounts pods = count_pods(data);
  int64_t gpu_nodes = 0, gpus = 0;
  for (const auto& [code, n] : data.nodes_by_model)
    if (!code.empty()) gpu_nodes += n;
  for (const auto& [code, n] : data.cards_by_model) gpus += n;
  const int64_t imported = static_cast<int64_t>(data.workloads.size());

  out << "# The Alibaba openb GPU cluster trace as a chaintwin scenario, written by `chaintwin import openb`\n"
      << "# (docs/traces.md). Regenerate in this file's folder with:\n";
  out << "#   chaintwin import openb \\\n";
  for (const auto& option : request.regenerate) out << "#     " << option << " \\\n";
  out << "#     -o FILE\n";
  out << "#\n# Nodes (" << request.nodes_path << "): " << with_thousands(static_cast<int64_t>(data.nodes.size()))
      << ", of which " << with_thousands(gpu_nodes) << " with " << with_thousands(gpus) << " GPUs and "
      << with_thousands(data.nodes_by_model.count("") ? data.nodes_by_model.at("") : 0) << " CPU-only\n";
  for (const auto& [code, n] : data.nodes_by_model) {
    if (code.empty()) continue;
    const OpenbGpuModel* m = find_openb_gpu_model(data.models, code);
    out << "#   " << code << ": " << with_thousands(n) << " nodes, " << with_thousands(data.cards_by_model.at(code))
        << " GPUs -> " << (m ? m->product : "?") << (m && m->stand_in ? " (stand-in)" : "") << "\n";
  }
  out << "# Pods (" << request.pods_path << "): " << with_thousands(data.pod_rows) << " rows, "
      << with_thousands(imported) << " imported:\n#   " << with_thousands(pods.whole) << " whole cards, "
      << with_thousands(pods.slices) << " GPU slices, " << with_thousands(pods.cpu) << " CPU-only; "
      << with_thousands(data.with_gpu_spec) << " with gpu_spec (" << with_thousands(pods.several_models)
      << " allowing several models)\n";
  if (!data.timed) {
    out << "#   The pod list has no creation/deletion/scheduled times: pod n arrives at n s and never\n"
        << "#   finishes (runs 36,500 d), the trace's \"submit until full\" use.\n";
  } else if (include) {
    out << "# Never scheduled by the real cluster: " << with_thousands(data.included_unscheduled)
        << " included (unscheduled: include), each running deletion_time - creation_time\n";
  } else {
    out << "# Never scheduled by the real cluster: " << with_thousands(data.skipped_unscheduled)
        << " skipped (unscheduled: skip)\n";
  }
  if (request.options.limit)
    out << "# limit: only the first " << with_thousands(*request.options.limit) << " imported pods\n";
  if (data.timed && imported > 0)
    out << "# Last arrival at " << with_thousands(data.last_arrival.us() / 1000000) << " s ("
        << days_text(data.last_arrival) << "); last finish at " << with_thousands(data.end.us() / 1000000) << " s ("
        << days_text(data.end) << ")\n";
  if (!data.default_model.empty())
    out << "# GPU pods without gpu_spec queue on the " << data.default_model << " pool (defaultModel)\n";

  const SimTime horizon = request.horizon ? *request.horizon : openb_default_horizon(data);
  std::string description = request.description;
  if (description.empty())
    description = "Alibaba openb GPU cluster trace (USENIX ATC'23 \"Beware of Fragmentation\"): " +
                  with_thousands(static_cast<int64_t>(data.nodes.size())) + " nodes and " + with_thousands(imported) +
                  " pods imported by chaintwin import openb.";
  out << "apiVersion: chaintwin/v1\nkind: Scenario\nmetadata:\n  name: " << scalar(request.name)
      << "\n  description: >-\n";
  comment_wrapped(out, "    ", description);
  out << "seed: 1\nhorizon: " << duration_text(horizon) << "\n\nworkloads:\n  - trace:\n"
      << "      format: openb\n"
      << "      nodes: " << scalar(request.nodes_path) << "\n"
      << "      pods: " << scalar(request.pods_path) << "\n"
      << "      takeNodes: true\n"
      << "      unscheduled: " << (include ? "include" : "skip") << "\n";
  if (request.options.limit) out << "      limit: " << *request.options.limit << "\n";
  if (!data.default_model.empty())
    out << "      defaultModel: " << scalar(data.default_model) << "   # the pool of GPU pods without gpu_spec\n";
  out << "      models:                 # openb GPU model -> the NVIDIA product its cards become\n";
  for (const auto& m : data.models) {
    out << "        " << scalar(m.code) << ": {product: " << scalar(m.product) << ", memory: " << memory_text(m.memory_mib);
    if (m.cores > 0) out << ", cores: " << m.cores;
    if (!m.family.empty()) out << ", family: " << scalar(m.family);
    if (!m.compute_capability.empty()) out << ", computeCapability: " << nlohmann::json(m.compute_capability).dump();
    if (m.stand_in) out << ", standIn: true";
    out << "}\n";
  }
  return out.str();
}

}  // namespace chaintwin::sim
