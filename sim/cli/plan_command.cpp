#include "sim/cli/plan_command.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <iostream>
#include <optional>
#include <thread>

#include "sim/plan/plan_charts.h"
#include "sim/plan/plan_driver.h"
#include "sim/plan/plan_file.h"
#include "sim/plan/plan_loader.h"
#include "sim/plan/plan_report.h"
#include "sim/plan/plan_store.h"

namespace chaintwin::cli {
namespace plan = chaintwin::sim::plan;
namespace {

constexpr const char* kHelp = R"(Usage:
  chaintwin plan PLAN.yaml [-j N] [--db FILE] [--grid|--adaptive] [--shard I/N] [-o text|json] [--plots DIR]
  chaintwin plan --report FILE.db [--grid|--adaptive] [-o text|json] [--plots DIR]
  chaintwin plan merge OUT.db SHARD.db...

Searches the configurations a plan spans (docs/planning.md) for the cheapest one that meets
every SLO, simulating each configuration with every seed of the plan, and prints the
recommendation, the nearest configurations that fail, and every configuration simulated.

  -j N           runs in parallel (default: every core); the result is the same for any N
  --db FILE      keep every run in the SQLite file FILE; a plan run again on its file resumes
                 where it stopped (no completed run is redone)
  --grid         simulate every configuration (instead of the plan's search mode)
  --adaptive     the adaptive search (instead of the plan's search mode); a file holds the same
                 runs whichever search asked for them, so `--report FILE --adaptive` replays the
                 adaptive search over a grid's runs
  --shard I/N    simulate only share I (0-based) of N of the runs the plan needs next (the grid,
                 or the next round of the adaptive search) into --db, then stop; `--shard N`
                 reads I from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)
  -o text|json   the result's format (default text)
  --plots DIR    write PNG plots: each SLO metric against each variable with the SLO line and
                 the 95% band, utilization against capacity, cost against each SLO metric
  --report FILE  reprint a plan from its file without simulating
  --dry-run      load and check the plan (every variable value against the base scenario, every
                 SLO's subject), print the size of its grid, and simulate nothing
  merge          join shard files of one plan into OUT.db (created when absent)

Exit codes: 0 a configuration meets every SLO (or a shard finished its share), 1 none does,
2 bad input.
)";

struct PlanCli {
  std::string plan_file, db, report, plots, output = "text";
  std::optional<int32_t> jobs;
  std::optional<plan::Shard> shard;
  bool grid = false, adaptive = false, help = false, dry_run = false;
};

std::optional<int64_t> parse_int(const std::string& s) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoll(s);
}

std::string parse(const std::vector<std::string>& args, PlanCli& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "-j" || a == "--jobs") {
      const auto v = value();
      const auto n = v ? parse_int(*v) : std::nullopt;
      if (!n || *n < 1 || *n > 1024) return "-j takes a number of parallel runs between 1 and 1024";
      o.jobs = static_cast<int32_t>(*n);
    } else if (a == "--db") {
      const auto v = value();
      if (!v || v->empty()) return "--db needs a file";
      o.db = *v;
    } else if (a == "--report") {
      const auto v = value();
      if (!v || v->empty()) return "--report needs a plan's SQLite file";
      o.report = *v;
    } else if (a == "--plots") {
      const auto v = value();
      if (!v || v->empty()) return "--plots needs a directory";
      o.plots = *v;
    } else if (a == "--dry-run") {
      o.dry_run = true;
    } else if (a == "--grid") {
      o.grid = true;
    } else if (a == "--adaptive") {
      o.adaptive = true;
    } else if (a == "-o" || a == "--output") {
      const auto v = value();
      if (!v || (*v != "text" && *v != "json")) return "-o takes text or json";
      o.output = *v;
    } else if (a == "--shard") {
      const auto v = value();
      if (!v) return "--shard needs I/N (or N, with JOB_COMPLETION_INDEX set)";
      const size_t slash = v->find('/');
      std::optional<int64_t> index, count;
      if (slash == std::string::npos) {
        count = parse_int(*v);
        const char* env = std::getenv("JOB_COMPLETION_INDEX");
        if (env == nullptr) return "--shard " + *v + ": without I/N the index comes from JOB_COMPLETION_INDEX, which is not set";
        index = parse_int(env);
        if (!index) return "JOB_COMPLETION_INDEX='" + std::string(env) + "' is not a non-negative integer";
      } else {
        index = parse_int(v->substr(0, slash));
        count = parse_int(v->substr(slash + 1));
      }
      if (!index || !count || *count < 1 || *index >= *count)
        return "--shard '" + *v + "': expected I/N with 0 <= I < N (e.g. 0/4)";
      o.shard = plan::Shard{*index, *count};
    } else if (!a.empty() && a[0] == '-') {
      return "unknown flag '" + a + "'";
    } else if (o.plan_file.empty()) {
      o.plan_file = a;
    } else {
      return "one PLAN at a time (got '" + o.plan_file + "' and '" + a + "')";
    }
  }
  if (!o.report.empty() && !o.plan_file.empty()) return "give a PLAN or --report FILE, not both";
  if (o.grid && o.adaptive) return "--grid or --adaptive, not both";
  if (o.report.empty() && o.plan_file.empty() && !o.help) return "no PLAN given";
  if (o.shard && o.db.empty()) return "--shard needs --db (the shard's own file)";
  if (!o.report.empty() && (o.shard || !o.db.empty() || o.jobs)) return "--report reads a finished plan: no --db, --shard or -j";
  return "";
}

// The progress line: redrawn in place on a terminal, a plain line now and then elsewhere.
class PlanProgress {
 public:
  explicit PlanProgress(std::ostream& err) : err_(err), tty_(isatty(STDERR_FILENO) != 0) {}
  void update(int64_t done, int64_t total, const std::string& best, int64_t round) {
    const auto now = std::chrono::steady_clock::now();
    if (round != round_) {
      round_ = round;
      round_start_ = now;
      round_done_ = done - 1;
    }
    const double elapsed = std::chrono::duration<double>(now - round_start_).count();
    const int64_t in_round = done - round_done_;
    const double eta = in_round > 0 ? elapsed / static_cast<double>(in_round) * static_cast<double>(total - done) : 0;
    std::string line = "plan: round " + std::to_string(round) + "  runs " + std::to_string(done) + "/" +
                       std::to_string(total) + "  best so far: " + (best.empty() ? "none" : best) + "  ETA " +
                       std::to_string(static_cast<int64_t>(eta + 0.5)) + " s";
    if (tty_) {
      err_ << "\r\033[K" << line << std::flush;
      drawn_ = true;
    } else if (done == total || done - last_printed_ >= std::max<int64_t>(1, total / 20)) {
      err_ << line << "\n";
      last_printed_ = done;
    }
  }
  void finish() {
    if (tty_ && drawn_) err_ << "\n";
  }

 private:
  std::ostream& err_;
  bool tty_;
  bool drawn_ = false;
  int64_t round_ = -1, round_done_ = 0, last_printed_ = 0;
  std::chrono::steady_clock::time_point round_start_;
};

std::optional<plan::SearchOptions::Mode> mode_override(const PlanCli& o) {
  if (o.grid) return plan::SearchOptions::Mode::kGrid;
  if (o.adaptive) return plan::SearchOptions::Mode::kAdaptive;
  return std::nullopt;
}

int write_plots(const plan::Plan& p, const plan::Configurations& configs, const plan::PlanOutcome& outcome,
                const plan::PlanStore& store, const std::string& dir, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    err << "chaintwin plan: --plots " << dir << ": cannot create the directory: " << ec.message() << "\n";
    return 2;
  }
  const auto charts = plan::plan_charts(p, configs, outcome, store);
  for (const auto& c : charts) {
    const std::string path = (std::filesystem::path(dir) / c.file).string();
    if (auto s = sim::plot::write_png(c.chart, path); !s.ok()) {
      err << "chaintwin plan: " << s.error() << "\n";
      return 2;
    }
  }
  out << "wrote " << charts.size() << " plots to " << dir << "\n";
  return 0;
}

int merge(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.size() < 2) {
    err << "chaintwin plan merge: expected OUT.db SHARD.db... (see chaintwin plan --help)\n";
    return 2;
  }
  // Every shard is read and checked before OUT is touched: a bad shard leaves OUT as it was.
  std::optional<plan::PlanIdentity> identity;
  for (size_t i = 1; i < args.size(); ++i) {
    auto shard = plan::PlanStore::open_existing(args[i]);
    if (!shard) {
      err << "chaintwin plan merge: " << shard.error() << "\n";
      return 2;
    }
    if (!identity) identity = shard->identity();
    else if (shard->identity().content_hash != identity->content_hash) {
      err << "chaintwin plan merge: " << args[i] << ": a shard of another plan (" << shard->identity().plan_file << ", hash "
          << shard->identity().content_hash << "; " << args[1] << " has hash " << identity->content_hash << ")\n";
      return 2;
    }
  }
  auto target = plan::PlanStore::open(args[0], *identity);
  if (!target) {
    err << "chaintwin plan merge: " << target.error() << "\n";
    return 2;
  }
  for (size_t i = 1; i < args.size(); ++i) {
    if (auto s = target.value().merge_from(args[i]); !s.ok()) {
      err << "chaintwin plan merge: " << s.error() << "\n";
      return 2;
    }
  }
  out << "merged " << args.size() - 1 << " files into " << args[0] << ": " << target.value().size() << " runs\n";
  return 0;
}

}  // namespace

int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && args[0] == "merge") return merge({args.begin() + 1, args.end()}, out, err);
  PlanCli o;
  if (const std::string e = parse(args, o); !e.empty()) {
    err << "chaintwin plan: " << e << "\n(see chaintwin plan --help)\n";
    return 2;
  }
  if (o.help) {
    out << kHelp;
    return 0;
  }
  if (!o.report.empty()) {
    auto opened = plan::open_plan_file(o.report, mode_override(o));
    if (!opened) {
      err << "chaintwin plan: " << opened.error() << "\n";
      return 2;
    }
    const plan::Plan& p = *opened->plan;
    if (o.output == "json") out << plan::plan_report_json(p, *opened->configs, opened->outcome).dump(2) << "\n";
    else out << plan::plan_report_text(p, *opened->configs, opened->outcome);
    if (!o.plots.empty())
      if (const int rc = write_plots(p, *opened->configs, opened->outcome, *opened->store, o.plots,
                                     o.output == "json" ? err : out, err);
          rc != 0)
        return rc;
    if (!opened->outcome.finished) return 1;
    return opened->outcome.best ? 0 : 1;
  }
  std::optional<plan::PlanStore> store;
  auto loaded = plan::load_plan(o.plan_file);
  if (!loaded) {
    err << "chaintwin plan: " << loaded.error() << "\n";
    return 2;
  }
  plan::Plan& p = loaded.value();
  if (const auto mode = mode_override(o)) p.search.mode = *mode;
  auto configs = plan::Configurations::create(p);
  if (!configs) {
    err << "chaintwin plan: " << configs.error() << "\n";
    return 2;
  }
  if (o.dry_run) {
    out << p.name << ": " << configs->grid_size() << " configurations x " << p.seeds.size() << " seeds ("
        << configs->grid_size() * p.seeds.size() << " runs in the full grid), " << p.slos.size() << " SLOs\n";
    for (const auto& v : p.variables) {
      out << "  " << v.name << ":";
      for (const auto& value : v.values) out << " " << value.label;
      out << "\n";
    }
    for (const auto& s : p.slos) out << "  SLO " << s.describe() << "\n";
    return 0;
  }
  if (!store) {
    if (o.db.empty()) {
      store.emplace(plan::PlanStore::in_memory());
    } else {
      plan::PlanIdentity id{p.name, p.content_hash, p.file, "", p.base, p.base_text};
      std::ifstream in(p.file, std::ios::binary);
      std::ostringstream ss;
      ss << in.rdbuf();
      id.plan_text = ss.str();
      auto s = plan::PlanStore::open(o.db, id);
      if (!s) {
        err << "chaintwin plan: " << s.error() << "\n";
        return 2;
      }
      store.emplace(std::move(s.value()));
    }
  }
  plan::DriverOptions options;
  options.jobs = o.jobs.value_or(static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency())));
  options.shard = o.shard;
  options.version = CHAINTWIN_VERSION;
  PlanProgress progress(err);
  options.on_progress = [&](int64_t done, int64_t total, const std::string& best, int64_t round) {
    progress.update(done, total, best, round);
  };
  plan::PlanDriver driver(p, *configs, *store, options);
  auto outcome = driver.run();
  progress.finish();
  if (!outcome) {
    err << "chaintwin plan: " << outcome.error() << "\n";
    return 2;
  }
  err << "plan: " << outcome->runs_simulated << " runs simulated, "
      << (static_cast<int64_t>(store->size()) - outcome->runs_simulated) << " already in "
      << (o.db.empty() ? std::string("memory") : o.db) << "\n";
  if (o.shard) {
    out << "shard " << o.shard->index << "/" << o.shard->count << ": " << outcome->runs_simulated << " runs written to "
        << o.db << (outcome->finished ? " (the search needs no more runs)" : "") << "\n";
    return 0;
  }
  if (o.output == "json") out << plan::plan_report_json(p, *configs, *outcome).dump(2) << "\n";
  else out << plan::plan_report_text(p, *configs, *outcome);
  if (!o.plots.empty())
    if (const int rc = write_plots(p, *configs, *outcome, *store, o.plots, o.output == "json" ? err : out, err); rc != 0)
      return rc;
  if (!outcome->finished) return 1;
  return outcome->best ? 0 : 1;
}

}  // namespace chaintwin::cli
