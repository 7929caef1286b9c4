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

// --shard I/N, or N with I from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job): the share, or why not.
model::Result<plan::Shard> resolve_shard(const ShardSpec& spec) {
  if (spec.index) return plan::Shard{*spec.index, spec.count};
  const char* env = std::getenv("JOB_COMPLETION_INDEX");
  if (env == nullptr)
    return model::err("--shard " + std::to_string(spec.count) +
                      ": without I/N the index comes from JOB_COMPLETION_INDEX, which is not set");
  const auto index = whole_number<int64_t>(0, spec.count - 1).parse(env);
  if (!index)
    return model::err("JOB_COMPLETION_INDEX='" + std::string(env) + "': expected a whole number from 0 to " +
                      std::to_string(spec.count - 1) + " (--shard " + std::to_string(spec.count) + ")");
  return plan::Shard{*index, spec.count};
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

std::optional<plan::SearchOptions::Mode> mode_override(const PlanCommandOptions& o) {
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

}  // namespace

int plan_merge_command(const PlanMergeOptions& o, std::ostream& out, std::ostream& err) {
  // Every shard is read and checked before OUT is touched: a bad shard leaves OUT as it was.
  std::optional<plan::PlanIdentity> identity;
  for (const auto& file : o.shards) {
    auto shard = plan::PlanStore::open_existing(file);
    if (!shard) {
      err << "chaintwin plan merge: " << shard.error() << "\n";
      return 2;
    }
    if (!identity) identity = shard->identity();
    else if (shard->identity().content_hash != identity->content_hash) {
      err << "chaintwin plan merge: " << file << ": a shard of another plan (" << shard->identity().plan_file << ", hash "
          << shard->identity().content_hash << "; " << o.shards.front() << " has hash " << identity->content_hash << ")\n";
      return 2;
    }
  }
  auto target = plan::PlanStore::open(o.out, *identity);
  if (!target) {
    err << "chaintwin plan merge: " << target.error() << "\n";
    return 2;
  }
  for (const auto& file : o.shards) {
    if (auto s = target.value().merge_from(file); !s.ok()) {
      err << "chaintwin plan merge: " << s.error() << "\n";
      return 2;
    }
  }
  out << "merged " << o.shards.size() << " files into " << o.out << ": " << target.value().size() << " runs\n";
  return 0;
}


int plan_command(const PlanCommandOptions& o, std::ostream& out, std::ostream& err) {
  std::optional<plan::Shard> shard;
  if (o.shard) {
    auto resolved = resolve_shard(*o.shard);
    if (!resolved) {
      err << "chaintwin plan: " << resolved.error() << "\n";
      return 2;
    }
    shard = *resolved;
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
  options.shard = shard;
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
  if (shard) {
    out << "shard " << shard->index << "/" << shard->count << ": " << outcome->runs_simulated << " runs written to "
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
