#include "sim/cli/import_command.h"

#include <filesystem>
#include <fstream>
#include <optional>

#include "sim/scenario/scenario_loader.h"
#include "sim/trace/csv_reader.h"
#include "sim/trace/openb_scenario.h"
#include "sim/trace/openb_trace.h"

namespace chaintwin::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kImportHelp = R"(Usage: chaintwin import openb --nodes NODES.csv --pods PODS.csv -o SCENARIO.yaml [options]

Imports the Alibaba openb GPU cluster trace (its node list and one pod list) and writes a scenario
that `chaintwin run` replays: a `trace:` entry naming the two CSVs (paths relative to the scenario
file) with every mapping decision written out — the GPU model table (openb model -> NVIDIA product,
VRAM), the pool of GPU pods without gpu_spec, what happens to pods never scheduled, the limit — and
a header comment with the counts (nodes and GPUs per model, pods by kind, pods never scheduled).
The mapping is docs/traces.md's; the scenario is loaded back before it is kept.

Options:
  --nodes FILE             the node list (sn, cpu_milli, memory_mib, gpu, model)
  --pods FILE              the pod list (name, cpu_milli, memory_mib, num_gpu, gpu_milli[, gpu_spec,
                           qos, pod_phase, creation_time, deletion_time, scheduled_time])
  -o, --output FILE        the scenario to write ('-': standard output, paths relative to here)
  --unscheduled skip|include
                           pods the real cluster never scheduled: leave out (default) or run them
                           deletion_time - creation_time
  --limit N                keep the first N imported pods
  --name NAME              metadata.name (default: the output file's name without .yaml)
  --description TEXT       metadata.description (default: a generated one)
  --horizon DURATION       e.g. 150d (default: one day past the last finish, whole days)
  --default-model CODE     the openb model GPU pods without gpu_spec queue on (default: the model
                           with the most nodes)
  -h, --help               this text

Exit codes: 0 written, 2 bad input (file:line: column: reason; nothing is written).
)";

struct Options {
  std::string nodes, pods, output, name, description, default_model;
  std::string unscheduled = "skip";
  std::optional<int64_t> limit;
  std::optional<sim::SimTime> horizon;
  std::string horizon_text;
  bool help = false;
};

std::string parse(const std::vector<std::string>& args, Options& o) {
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
    o.help = true;
    return "";
  }
  if (args.empty() || args[0] != "openb")
    return args.empty() ? "give the trace format (openb)" : "unknown trace format '" + args[0] + "' (expected openb)";
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      o.help = true;
      continue;
    }
    const bool known = a == "--nodes" || a == "--pods" || a == "-o" || a == "--output" || a == "--unscheduled" ||
                       a == "--limit" || a == "--name" || a == "--description" || a == "--horizon" ||
                       a == "--default-model";
    if (!known) return "unknown option '" + a + "'";
    if (i + 1 >= args.size()) return a + " needs a value";
    const std::string& v = args[++i];
    if (a == "--nodes") o.nodes = v;
    else if (a == "--pods") o.pods = v;
    else if (a == "-o" || a == "--output") o.output = v;
    else if (a == "--name") o.name = v;
    else if (a == "--description") o.description = v;
    else if (a == "--default-model") o.default_model = v;
    else if (a == "--unscheduled") {
      if (v != "skip" && v != "include") return "--unscheduled: '" + v + "' (expected skip or include)";
      o.unscheduled = v;
    } else if (a == "--limit") {
      const auto n = sim::parse_csv_int(v);
      if (!n || *n < 0) return "--limit: '" + v + "' (expected a whole number >= 0)";
      o.limit = *n;
    } else {
      auto t = sim::SimTime::parse(v);
      if (!t || t->us() <= 0) return "--horizon: '" + v + "' (expected a duration such as 150d)";
      o.horizon = *t;
      o.horizon_text = v;
    }
  }
  if (o.help) return "";
  if (o.nodes.empty()) return "--nodes FILE is required";
  if (o.pods.empty()) return "--pods FILE is required";
  if (o.output.empty()) return "-o FILE is required ('-' for standard output)";
  return "";
}

// `path` as seen from `dir` (both made absolute), or absolute when they share no root.
std::string relative_to(const std::string& path, const fs::path& dir) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(path), ec);
  const fs::path d = fs::weakly_canonical(fs::absolute(dir), ec);
  const fs::path rel = a.lexically_relative(d);
  return rel.empty() ? a.generic_string() : rel.generic_string();
}

// A shell word: as is when safe, else single-quoted.
std::string shell_word(const std::string& s) {
  bool safe = !s.empty();
  for (const char c : s)
    safe = safe && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-' || c == '/' || c == '+' || c == ':' || c == '=');
  if (safe) return s;
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

int import_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (const std::string e = parse(args, o); !e.empty()) {
    err << "chaintwin import: " << e << "\n(see chaintwin import --help)\n";
    return 2;
  }
  if (o.help) {
    out << kImportHelp;
    return 0;
  }
  sim::OpenbTraceOptions options;
  options.limit = o.limit;
  options.unscheduled = o.unscheduled == "include" ? sim::UnscheduledPods::kInclude : sim::UnscheduledPods::kSkip;
  options.default_model = o.default_model;
  auto data = sim::read_openb_trace(o.nodes, o.pods, options);
  if (!data.ok()) {
    err << "chaintwin import: " << data.error() << "\n";
    return 2;
  }
  const bool to_stdout = o.output == "-";
  const fs::path out_path = to_stdout ? fs::current_path() / "stdout.yaml" : fs::path(o.output);
  const fs::path out_dir = out_path.has_parent_path() ? out_path.parent_path() : fs::path(".");

  sim::OpenbScenarioRequest req;
  req.nodes_path = relative_to(o.nodes, out_dir);
  req.pods_path = relative_to(o.pods, out_dir);
  req.name = !o.name.empty() ? o.name : to_stdout ? std::string("openb") : out_path.stem().string();
  req.description = o.description;
  req.horizon = o.horizon;
  req.options = options;
  req.regenerate = {"--nodes " + shell_word(req.nodes_path), "--pods " + shell_word(req.pods_path),
                    "--name " + shell_word(req.name)};
  if (!o.description.empty()) req.regenerate.push_back("--description " + shell_word(o.description));
  if (o.unscheduled != "skip") req.regenerate.push_back("--unscheduled " + o.unscheduled);
  if (o.limit) req.regenerate.push_back("--limit " + std::to_string(*o.limit));
  if (!o.default_model.empty()) req.regenerate.push_back("--default-model " + shell_word(o.default_model));
  if (o.horizon) req.regenerate.push_back("--horizon " + shell_word(o.horizon_text));
  const std::string text = sim::openb_scenario_yaml(req, *data);

  // The written scenario must load (and re-import the same trace) before it is kept.
  if (auto loaded = sim::load_scenario_text(text, out_path.string()); !loaded.ok()) {
    err << "chaintwin import: the written scenario does not load (a bug): " << loaded.error() << "\n";
    return 2;
  }
  if (to_stdout) {
    out << text;
    return 0;
  }
  const fs::path temp = out_path.string() + ".partial";
  {
    std::ofstream f(temp, std::ios::binary | std::ios::trunc);
    f << text;
    f.close();
    if (!f) {
      std::error_code ec;
      fs::remove(temp, ec);
      err << "chaintwin import: " << o.output << ": cannot write the file\n";
      return 2;
    }
  }
  std::error_code ec;
  fs::rename(temp, out_path, ec);
  if (ec) {
    fs::remove(temp, ec);
    err << "chaintwin import: " << o.output << ": cannot write the file (" << ec.message() << ")\n";
    return 2;
  }
  err << "chaintwin import: wrote " << o.output << " (" << sim::with_thousands(static_cast<int64_t>(data->nodes.size()))
      << " nodes, " << sim::with_thousands(static_cast<int64_t>(data->workloads.size())) << " pods)\n";
  return 0;
}

}  // namespace chaintwin::cli
