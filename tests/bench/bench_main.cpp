// chaintwin_bench: the benchmarks behind docs/performance.md, in one run. Each case runs in a child
// process so its wall time and peak memory (the child's maximum resident set) are its own:
//   queue     the bare event-queue loop (push/pop of the runner's SimEvent), the floor per event;
//   openb     the openb default trace replayed through the whole chain (scenarios/traces/openb-default.yaml);
//   synthetic a generated cluster (8 cards per node, four NVIDIA products) and Poisson demand, at two
//             cluster sizes with the same demand per card, to show what an event costs as the cluster grows.
// Usage: chaintwin_bench [--source-dir DIR] [--only queue|openb|synthetic] [--nodes N] [--workloads W]
//                        [--until T] [--emit] [--json]   (chaintwin_bench --help says what each does)
// The `bench` CMake target runs it with the defaults.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "sim/cli/allocator.h"
#include "sim/cli/flag_binding.h"
#include "sim/cli/flag_values.h"
#include "sim/cli/parse_errors.h"
#include "sim/event_queue.h"
#include "sim/runner/simulation.h"
#include "sim/scenario/scenario_loader.h"

namespace {

using chaintwin::sim::SimTime;
namespace cli = chaintwin::cli;

struct Figures {
  static Figures error(const std::string& why) {
    Figures f;
    f.note = "(error: " + why + ")";
    return f;
  }
  int64_t events = 0;
  double seconds = 0;
  std::string note;
  // A simulated run's parts (0 for the queue floor): the start (initial fixpoint and schedule) and
  // the event loop timed apart, and what the run did.
  double start_seconds = 0, loop_seconds = 0;
  int64_t workloads = 0, admitted = 0, pool_samples = 0, gpu_model_samples = 0;
  std::string simulated;
};

nlohmann::json to_json(const Figures& f) {
  return {{"events", f.events},       {"seconds", f.seconds},           {"note", f.note},
          {"start_seconds", f.start_seconds}, {"loop_seconds", f.loop_seconds}, {"workloads", f.workloads},
          {"admitted", f.admitted},   {"pool_samples", f.pool_samples}, {"gpu_model_samples", f.gpu_model_samples},
          {"simulated", f.simulated}};
}

Figures from_json(const nlohmann::json& j) {
  Figures f;
  f.events = j.value("events", int64_t{0});
  f.seconds = j.value("seconds", 0.0);
  f.note = j.value("note", std::string());
  f.start_seconds = j.value("start_seconds", 0.0);
  f.loop_seconds = j.value("loop_seconds", 0.0);
  f.workloads = j.value("workloads", int64_t{0});
  f.admitted = j.value("admitted", int64_t{0});
  f.pool_samples = j.value("pool_samples", int64_t{0});
  f.gpu_model_samples = j.value("gpu_model_samples", int64_t{0});
  f.simulated = j.value("simulated", std::string());
  return f;
}

// What every case is compared with: µs per event of the bare queue with 1,000 pending events,
// measured first in every run of the benchmark (the ratio is what compares across noisy machines).
double g_floor_us = 0;
bool g_json = false;

double per_event_us(double seconds, int64_t events) {
  return events > 0 ? seconds * 1e6 / static_cast<double>(events) : 0.0;
}

// Runs `body` in a child; prints one line with events, wall time, events/s and peak RSS (and, with
// --json, one JSON object per case on its own line).
void measure(const std::string& name, const std::function<Figures()>& body) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return;
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    close(pipefd[0]);
    const std::string line = to_json(body()).dump();
    if (write(pipefd[1], line.data(), line.size()) < 0) _exit(1);
    close(pipefd[1]);
    _exit(0);
  }
  close(pipefd[1]);
  std::string out;
  char buf[512];
  ssize_t n = 0;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  const auto parsed = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !parsed.is_object()) {
    std::printf("%-28s FAILED (exit status %d)\n", name.c_str(), status);
    return;
  }
  const Figures f = from_json(parsed);
  const double rate = f.seconds > 0 ? static_cast<double>(f.events) / f.seconds : 0;
  const double rss_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;
  const double us = per_event_us(f.seconds, f.events);
  const double loop_us = per_event_us(f.loop_seconds, f.events);
  if (name == "queue floor (1k live)") g_floor_us = us;
  if (g_json) {
    nlohmann::json j = to_json(f);
    j["case"] = name;
    j["us_per_event"] = us;
    j["loop_us_per_event"] = loop_us;
    j["peak_rss_mib"] = rss_mib;
    if (g_floor_us > 0) j["ratio_to_queue_floor"] = (f.loop_seconds > 0 ? loop_us : us) / g_floor_us;
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::string ratio;
    if (g_floor_us > 0 && name.rfind("queue floor", 0) != 0) {
      char r[64];
      std::snprintf(r, sizeof r, " (%.0fx the queue floor)", loop_us / g_floor_us);
      ratio = r;
    }
    std::printf("%-28s %12lld events %9.3f s %12.0f events/s %8.2f us/event  peak RSS %7.1f MiB %s%s\n", name.c_str(),
                static_cast<long long>(f.events), f.seconds, rate, us, rss_mib, f.note.c_str(), ratio.c_str());
  }
  std::fflush(stdout);
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The floor: what the event loop alone costs, with a queue holding `live` pending events.
Figures queue_floor(int64_t events, int64_t live) {
  chaintwin::sim::EventQueue<chaintwin::sim::SimEvent> q;
  uint64_t x = 88172645463325252ull;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<int64_t>(x % 1'000'000'000);
  };
  for (int64_t i = 0; i < live; ++i) q.push(SimTime::micros(next()), {chaintwin::sim::SimEvent::Kind::kFinish, i, "", 0});
  const auto t0 = std::chrono::steady_clock::now();
  int64_t checksum = 0;
  for (int64_t i = 0; i < events; ++i) {
    auto e = q.pop();
    checksum += e.payload.index;
    q.push(e.at + SimTime::micros(1 + next() % 1'000'000), std::move(e.payload));
  }
  Figures f;
  f.events = events;
  f.seconds = since(t0);
  f.note = "(queue of " + std::to_string(live) + ", checksum " + std::to_string(checksum % 1000) + ")";
  return f;
}

// Runs a scenario: the start (the initial fixpoint and the schedule) timed apart from the events,
// so that the cost per event is the event loop's alone.
Figures run_scenario(chaintwin::sim::Scenario scenario, std::optional<SimTime> until) {
  chaintwin::sim::RunOptions options;
  options.keep_events = false;
  options.keep_final_objects = false;  // as `chaintwin run` without --db
  options.until = until;
  const auto t0 = std::chrono::steady_clock::now();
  chaintwin::sim::Simulation sim(std::move(scenario), options);
  Figures f;
  if (auto s = sim.start(); !s.ok()) {
    f.note = "(error: " + s.error() + ")";
    return f;
  }
  const double start_seconds = since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  while (sim.step()) {
  }
  const double loop_seconds = since(t1);
  if (!sim.fatal().empty()) {
    f.note = "(error: " + sim.fatal() + ")";
    return f;
  }
  const auto record = sim.finish();
  f.seconds = since(t0);
  f.events = record.info.events;
  f.start_seconds = start_seconds;
  f.loop_seconds = loop_seconds;
  f.workloads = static_cast<int64_t>(record.workloads.size());
  for (const auto& w : record.workloads) f.admitted += w.first_admitted ? 1 : 0;
  f.pool_samples = static_cast<int64_t>(record.pool_series.size());
  f.gpu_model_samples = static_cast<int64_t>(record.gpu_model_series.size());
  f.simulated = record.info.ended_at.to_string();
  char timing[128];
  std::snprintf(timing, sizeof timing, "start %.3f s, events %.3f s (%.2f us/event)", start_seconds, loop_seconds,
                per_event_us(loop_seconds, f.events));
  f.note = "(" + std::to_string(f.workloads) + " workloads, " + std::to_string(f.admitted) + " admitted, simulated " +
           f.simulated + "; " + timing + "; kept " + std::to_string(f.pool_samples) + " pool samples, " +
           std::to_string(f.gpu_model_samples) + " GPU-model samples)";
  return f;
}

// A generated cluster: `nodes` nodes of 8 cards in four pools, and demand that keeps about 70 % of
// the cards busy: one-card, two-card and 50 % slice workloads with exponential durations.
std::string synthetic_yaml(int64_t nodes, int64_t workloads) {
  const char* products[] = {"NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3", "NVIDIA L40S", "Tesla T4"};
  const char* memory[] = {"80Gi", "80Gi", "48Gi", "16Gi"};
  const char* akeys[] = {"nvidia-a100-sxm4-80gb", "nvidia-h100-80gb-hbm3", "nvidia-l40s", "nvidia-tesla-t4"};
  const double cards = static_cast<double>(nodes * 8);
  // Mean demand per workload: 0.6*1 + 0.1*2 + 0.3*0.5 = 0.95 cards; mean duration 10 h.
  const double mean_hours = 10;
  const double rate_per_hour = 0.7 * cards / (0.95 * mean_hours);
  const double hours = static_cast<double>(workloads) / rate_per_hour;
  std::ostringstream y;
  y << "apiVersion: chaintwin/v1\nkind: Scenario\nmetadata:\n  name: synthetic-" << nodes << "\n";
  y << "seed: 7\nhorizon: " << static_cast<int64_t>(hours * 3600) + 3600 << "s\n";
  y << "cluster:\n  nodes:\n";
  for (int p = 0; p < 4; ++p) {
    y << "    - namePrefix: pool" << p << "-\n      count: " << nodes / 4 << "\n";
    y << "      cpu: {vendor: AMD, name: \"AMD EPYC 7763 64-Core Processor\", cores: 128}\n      memory: 1Ti\n";
    y << "      accelerators: {manufacturer: nvidia, product: \"" << products[p] << "\", count: 8, memory: " << memory[p]
      << "}\n";
  }
  y << "workloads:\n";
  struct Shape { const char* name; double share; const char* request; };
  const Shape shapes[] = {{"one", 0.6, "{exclusive: 1}"}, {"two", 0.1, "{exclusive: 2}"},
                          {"half", 0.3, "{sliced: {memoryPercentage: 50, coresPercentage: 100}}"}};
  for (int p = 0; p < 4; ++p)
    for (const auto& s : shapes) {
      const auto per_day = std::max<int64_t>(1, static_cast<int64_t>(rate_per_hour * 24 * s.share / 4 + 0.5));
      y << "  - name: " << s.name << "-" << p << "\n    arrival: {poisson: {rate: " << per_day << "/d}}\n";
      y << "    duration: {exponential: {mean: " << static_cast<int64_t>(mean_hours * 60) << "m}}\n";
      y << "    count: " << static_cast<int64_t>(static_cast<double>(workloads) * s.share / 4) << "\n";
      y << "    accelerator: " << akeys[p] << "\n";
      y << "    podSets:\n      - name: main\n        count: 1\n        request: " << s.request << "\n";
    }
  return y.str();
}

}  // namespace

int main(int argc, char** argv) {
  cli::tune_allocator();
  std::string source = ".";
  std::optional<std::string> only;
  int64_t nodes = 5000, workloads = 1'000'000;
  std::optional<SimTime> until;
  bool emit = false;
  // The same flag declarations and error lines as the chaintwin command line (sim/cli/flag_binding.h).
  CLI::App app("The benchmarks behind docs/performance.md, each case in a child process.", "chaintwin_bench");
  cli::FlagNotes notes;
  cli::add_value(app, notes, "--source-dir", source, cli::text("DIR", "a folder name"),
                 "the project folder (scenarios/traces/openb-default.yaml is read from it)");
  cli::add_value(app, notes, "--only", only, cli::one_of({"queue", "openb", "synthetic"}), "run one case only");
  cli::add_value(app, notes, "--nodes", nodes, cli::whole_number<int64_t>(10, 1'000'000),
                 "nodes of the larger synthetic cluster (the smaller has a tenth)");
  cli::add_value(app, notes, "--workloads", workloads, cli::whole_number<int64_t>(1, 100'000'000),
                 "Workloads of the larger synthetic run (the smaller has a tenth)");
  cli::add_value(app, notes, "--until", until, cli::duration(true), "stop every simulated run at simulated time T");
  app.add_flag("--emit", emit, "print the synthetic scenario for --nodes/--workloads and stop");
  app.add_flag("--json", g_json, "print one JSON object per case (a line each) instead of the table");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "chaintwin_bench: " << cli::describe_parse_error(app, e, notes).message << "\n";
    return 2;
  }
  if (emit) {
    std::cout << synthetic_yaml(nodes, workloads);
    return 0;
  }
  if (!g_json)
    std::printf("chaintwin benchmarks (%ld online CPUs; %s)\n", sysconf(_SC_NPROCESSORS_ONLN), cli::allocator_name().c_str());
  // The 1,000-pending floor always runs first: every other case is also given as a multiple of it.
  measure("queue floor (1k live)", [] { return queue_floor(10'000'000, 1'000); });
  if (!only || *only == "queue") measure("queue floor (1M live)", [] { return queue_floor(10'000'000, 1'000'000); });
  if (!only || *only == "openb") {
    measure("openb default replay", [&] {
      auto s = chaintwin::sim::load_scenario(source + "/scenarios/traces/openb-default.yaml");
      if (!s.ok()) return Figures::error(s.error());
      return run_scenario(std::move(*s), until);
    });
  }
  if (!only || *only == "synthetic") {
    for (const int64_t n : {nodes / 10, nodes}) {
      const int64_t w = workloads * n / nodes;
      measure("synthetic " + std::to_string(n) + " nodes", [&, n, w] {
        auto s = chaintwin::sim::load_scenario_text(synthetic_yaml(n, w), "synthetic.yaml");
        if (!s.ok()) return Figures::error(s.error());
        return run_scenario(std::move(*s), until);
      });
    }
  }
  return 0;
}
