#include "sim/cli/import_command.h"

#include <filesystem>
#include <fstream>
#include <optional>

#include "sim/scenario/scenario_loader.h"
#include "sim/trace/openb_scenario.h"
#include "sim/trace/openb_trace.h"

namespace chaintwin::cli {
namespace {

namespace fs = std::filesystem;

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

int import_openb_command(const ImportOpenbOptions& o, std::ostream& out, std::ostream& err) {
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
  req.horizon = o.horizon ? std::optional<sim::SimTime>(o.horizon->value) : std::nullopt;
  req.options = options;
  req.regenerate = {"--nodes " + shell_word(req.nodes_path), "--pods " + shell_word(req.pods_path),
                    "--name " + shell_word(req.name)};
  if (!o.description.empty()) req.regenerate.push_back("--description " + shell_word(o.description));
  if (o.unscheduled != "skip") req.regenerate.push_back("--unscheduled " + o.unscheduled);
  if (o.limit) req.regenerate.push_back("--limit " + std::to_string(*o.limit));
  if (!o.default_model.empty()) req.regenerate.push_back("--default-model " + shell_word(o.default_model));
  if (o.horizon) req.regenerate.push_back("--horizon " + shell_word(o.horizon->text));
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
