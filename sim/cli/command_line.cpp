// Every chaintwin subcommand, declared once: its words, its flags with their value kinds
// (flag_values.h), defaults and help, the rules between flags, and the function that runs it
// with its options struct. The help, the errors and the completion script are made from this tree.
#include "sim/cli/command_line.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "sim/cli/allocator.h"
#include "sim/cli/compare_command.h"
#include "sim/cli/completion.h"
#include "sim/cli/derive_command.h"
#include "sim/cli/flag_binding.h"
#include "sim/cli/gui/gui_command.h"
#include "sim/cli/help_formatter.h"
#include "sim/cli/explain_command.h"
#include "sim/cli/full_demand_command.h"
#include "sim/cli/import_command.h"
#include "sim/cli/live_command.h"
#include "sim/cli/parse_errors.h"
#include "sim/cli/plan_command.h"
#include "sim/cli/run_command.h"
#include "sim/cli/serve_command.h"
#include "sim/cli/snapshot_command.h"

namespace chaintwin::cli {
namespace {

// The names of `app`'s commands: "run, check, ...".
std::string command_names(const CLI::App* app) {
  std::string names;
  for (const CLI::App* s : app->get_subcommands([](const CLI::App* a) { return !a->get_name().empty(); }))
    names += (names.empty() ? "" : ", ") + s->get_name();
  return names;
}

constexpr const char* kExitCodes = "Exit codes: 0 success, 1 a check failed, 2 bad input.";

// Every command's options, filled by the parse.
struct Options {
  RunCommandOptions run;
  CheckCommandOptions check;
  CompareCommandOptions compare;
  DeriveCommandOptions derive;
  ImportOpenbOptions import_openb;
  FullDemandCommandOptions full_demand;
  ExplainCommandOptions explain;
  PlanCommandOptions plan;
  PlanMergeOptions plan_merge;
  GuiCommandOptions gui;
  ServeCommandOptions serve;
  LiveCommandOptions live;
  SnapshotCommandOptions snapshot;
  std::vector<std::string> help_topic;
  std::string shell;
};

class CommandLine {
 public:
  CommandLine(std::ostream& out, std::ostream& err);
  int run(std::vector<std::string> args);
  const CLI::App& root() const { return root_; }

 private:
  // What a command does once parsed: `check` states the rules between its flags that CLI11 does
  // not ("" when they hold), `run` runs it.
  struct Command {
    std::function<std::string()> check;
    std::function<int()> run;
  };

  CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& description,
                        const std::string& footer, std::function<int()> run, std::function<std::string()> check = {});
  void declare_run();
  void declare_check();
  void declare_compare();
  void declare_derive();
  void declare_import();
  void declare_full_demand();
  void declare_explain();
  void declare_plan();
  void declare_gui();
  void declare_serve();
  void declare_live();
  void declare_snapshot();
  void declare_help();
  void declare_completion();
  int refuse(const CLI::App* command, const std::string& message);
  int help(const CLI::App* command);
  int help_topic();  // `chaintwin help WORDS...`

  std::ostream& out_;
  std::ostream& err_;
  CLI::App root_;
  FlagNotes notes_;
  Options o_;
  std::map<const CLI::App*, Command> commands_;
};

CommandLine::CommandLine(std::ostream& out, std::ostream& err)
    : out_(out),
      err_(err),
      root_("chaintwin — a digital twin of the GPUStack operator's device scheduling chain on Kueue.\n"
            "Without a COMMAND it runs the embedded default scenario (chaintwin run).",
            "chaintwin") {
  root_.formatter(std::make_shared<HelpFormatter>());
  root_.set_help_flag("-h,--help", "this text");
  root_.set_version_flag("--version", std::string(CHAINTWIN_VERSION) + " (" + allocator_name() + ")",
                         "print chaintwin's version and its allocator");
  root_.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  root_.require_subcommand(0, 1);
  root_.footer(std::string(kExitCodes) + " `chaintwin help COMMAND` prints a command's help.");
  commands_[&root_] = {{}, [this] { return run_command(o_.run, out_, err_); }};
  declare_run();
  declare_check();
  declare_compare();
  declare_derive();
  declare_import();
  declare_full_demand();
  declare_explain();
  declare_plan();
  declare_gui();
  declare_serve();
  declare_live();
  declare_snapshot();
  declare_help();
  declare_completion();
}

CLI::App* CommandLine::add_command(CLI::App& parent, const std::string& name, const std::string& description,
                                   const std::string& footer, std::function<int()> run,
                                   std::function<std::string()> check) {
  CLI::App* app = parent.add_subcommand(name, description);
  app->footer(footer);
  commands_[app] = {std::move(check), std::move(run)};
  return app;
}

void CommandLine::declare_run() {
  RunCommandOptions& o = o_.run;
  CLI::App* c = add_command(
      root_, "run",
      "Simulate a scenario (the embedded default without one) and print the report.\n\n"
      "Simulates SCENARIO (a chaintwin/v1 scenario file, YAML or JSON; without one, the embedded default\n"
      "scenario scenarios/default.yaml) over simulated time through the operator's chain and Kueue, then\n"
      "prints a report per pool (ClusterQueue) and per workload class.",
      "Exit codes: 0 the run finished and its expectations held, 1 an expectation failed, 2 bad input.",
      [this, &o] { return run_command(o, out_, err_); });
  add_value(*c, notes_, "SCENARIO", o.scenario, text("SCENARIO.yaml", "a scenario file"),
            "the scenario file (default: the embedded scenarios/default.yaml)");
  add_value(*c, notes_, "--seed", o.seed, seed_value(), "override the scenario's seed (all randomness derives from it)");
  add_value(*c, notes_, "--until", o.until, duration(), "stop at simulated time T (e.g. 6h) instead of the scenario's horizon");
  add_value(*c, notes_, "--db", o.db, text("FILE.db", "a file name"),
            "write the results to this SQLite file (runs, events, workloads, pool series,\n"
            "final objects; see docs/results.md)");
  add_value(*c, notes_, "--events", o.events, text("FILE", "a file name, or - for standard output"),
            "write the event log to FILE ('-' for stdout), simulated time first on every line");
  add_value(*c, notes_, "-o,--output", o.output, one_of({"text", "json"}), "the report's format");
  add_switch(*c, "--verify", o.verify,
             "after every event the simulator handled incrementally, run the operator's whole\n"
             "fixpoint on a copy and stop with an error if it would write anything but\n"
             "InstanceType statuses (slow: for checking the fast paths on a scenario)");
}

void CommandLine::declare_check() {
  CheckCommandOptions& o = o_.check;
  CLI::App* c = add_command(
      root_, "check",
      "Simulate scenarios and evaluate their `expect:` blocks.\n\n"
      "Every file is loaded first (a bad one stops everything). Prints every failure with the scenario,\n"
      "the time, the object and want/got, then `N passed, M failed` (expectations).",
      "Exit codes: 0 all held, 1 any failed, 2 bad input.", [this, &o] { return check_command(o, out_, err_); });
  add_values(*c, notes_, "SCENARIO", o.scenarios, text("SCENARIO.yaml", "a scenario file"), "the scenario files")
      ->required();
  add_switch(*c, "--verify", o.verify, "check the simulator's incremental paths while it runs (as run --verify)");
}

void CommandLine::declare_compare() {
  CompareCommandOptions& o = o_.compare;
  CLI::App* c = add_command(
      root_, "compare",
      "Two runs side by side: per pool, ClusterQueue and class, A, B and B − A.\n\n"
      "A and B are each\n"
      "  SCENARIO          a scenario file, simulated to its horizon (with its own seed, or --seed N)\n"
      "  FILE              a results file written by `chaintwin run --db FILE`: its newest complete run\n"
      "  FILE#ID           run ID of that results file\n"
      "For every pool (ClusterQueue × resource: utilization, nominal and reserved mean and peak, time held\n"
      "and draining), every ClusterQueue and every workload class (arrived, admitted, rejected, pending at\n"
      "the end, evictions, retries, wait p50 / p95 / p99 and how many waits were censored) it prints the\n"
      "figure in A, in B and B − A. A wait percentile that fell on a workload never admitted by the end is\n"
      "censored (\">= 18:00:00\": at least that); a difference involving one is a bound (\">= +01:00:00\",\n"
      "\"<= -00:05:00\", or \"?\" when both are censored). Rows only one run has are marked \"(only in A)\" or\n"
      "\"(only in B)\". The last line counts the figures that differ.",
      "Exit codes: 0 compared (whether or not the runs differ), 2 bad input.",
      [this, &o] { return compare_command(o, out_, err_); });
  add_value(*c, notes_, "A", o.a, text("FILE", "a scenario or results file"), "the first run")->required();
  add_value(*c, notes_, "B", o.b, text("FILE", "a scenario or results file"), "the second run")->required();
  add_value(*c, notes_, "--seed", o.seed, seed_value(),
            "the seed of every scenario side (results files keep the seed they ran with)");
  add_value(*c, notes_, "--seed-a", o.seed_a, seed_value(), "the seed of side A only (a scenario; wins over --seed)");
  add_value(*c, notes_, "--seed-b", o.seed_b, seed_value(), "the seed of side B only (a scenario; wins over --seed)");
  add_value(*c, notes_, "-o,--output", o.output, one_of({"text", "json"}), "the output's format");
}

void CommandLine::declare_derive() {
  DeriveCommandOptions& o = o_.derive;
  CLI::App* c = add_command(
      root_, "derive",
      "The chain the operator converges to, from Kubernetes objects (Nodes, Devices, ...).\n\n"
      "Reads Kubernetes objects — Nodes, their Devices records, the operator's Settings, and optionally\n"
      "Namespaces, TopologySources, InstanceTypes and the Kueue objects already in the cluster\n"
      "(ResourceFlavor, ClusterQueue, LocalQueue, AdmissionCheck, Topology), as `kubectl get ... -o yaml`\n"
      "prints them (YAML or JSON, several documents per file, `kind: List` accepted; `-` reads standard\n"
      "input) — runs the operator's controllers and Kueue's status to the state they settle in, and prints\n"
      "the whole chain as Kubernetes objects sorted by kind then name: per Node its labels and counting\n"
      "keys and the worker's NodeFeature, then AdmissionCheck, ClusterQueue (spec), InstanceType (with\n"
      "status), InstanceTypeFlavor, LocalQueue (one per namespace), ResourceFlavor, Topology.\n\n"
      "With --patches it prints instead, per Node, what the worker derives in stage 3:\n"
      "  keys          the node's gKey and aKeys\n"
      "  nodeFeature   the worker's NodeFeature <node>-gpustack-worker with the presence labels\n"
      "  capacity      the capacity counting keys for status.capacity\n"
      "  fitLabels     the per-card fit labels\n"
      "  patches       the merge patches that take the observed Node there (null: nothing to write):\n"
      "                nodeLabels (applied by NFD), nodeStatus (nodes/<name>/status), fitLabels\n"
      "  notes         why, and anything the input leaves underived",
      "Exit codes: 0 derived, 1 the controllers did not converge, 2 bad input (the message names the file,\n"
      "line, object and field).",
      [this, &o] { return derive_command(o, out_, err_); },
      [&o]() -> std::string {
        if (!o.example && o.files.empty()) return "no FILE given (or --example)";
        return "";
      });
  CLI::Option* files = add_values(*c, notes_, "FILE", o.files, text("FILE", "a file name, or - for standard input"),
                                  "files of Kubernetes objects ('-': standard input)");
  add_switch(*c, "--example", o.example, "the bundled example cluster (scenarios/examples/example-cluster.yaml)")
      ->excludes(files);
  add_switch(*c, "--patches", o.patches, "the per-Node stage-3 view with the patches (see above)");
  add_value(*c, notes_, "-o,--output", o.output, one_of({"yaml", "json"}), "output format (json prints a kind: List)");
  add_values(*c, notes_, "--set", o.settings, name_value("NAME=VALUE"),
             "an operator setting, e.g. --set instance-type-mixed-on-node=false\n"
             "(Setting objects in the files override it)");
}

void CommandLine::declare_import() {
  ImportOpenbOptions& o = o_.import_openb;
  CLI::App* import = add_command(root_, "import", "Turn a trace into a scenario (openb: the Alibaba GPU cluster trace).",
                                 "Exit codes: 0 written, 2 bad input.", [] { return 2; });
  import->require_subcommand(1);
  CLI::App* c = add_command(
      *import, "openb",
      "Import the Alibaba openb trace as a scenario that references its CSVs (docs/traces.md).\n\n"
      "Imports the Alibaba openb GPU cluster trace (its node list and one pod list) and writes a scenario\n"
      "that `chaintwin run` replays: a `trace:` entry naming the two CSVs (paths relative to the scenario\n"
      "file) with every mapping decision written out — the GPU model table (openb model -> NVIDIA product,\n"
      "VRAM), the pool of GPU pods without gpu_spec, what happens to pods never scheduled, the limit — and\n"
      "a header comment with the counts (nodes and GPUs per model, pods by kind, pods never scheduled).\n"
      "The mapping is docs/traces.md's; the scenario is loaded back before it is kept.",
      "Exit codes: 0 written, 2 bad input (file:line: column: reason; nothing is written).",
      [this, &o] { return import_openb_command(o, out_, err_); });
  add_value(*c, notes_, "--nodes", o.nodes, text("FILE", "a CSV file"), "the node list (sn, cpu_milli, memory_mib, gpu, model)")
      ->required();
  add_value(*c, notes_, "--pods", o.pods, text("FILE", "a CSV file"),
            "the pod list (name, cpu_milli, memory_mib, num_gpu, gpu_milli[, gpu_spec,\n"
            "qos, pod_phase, creation_time, deletion_time, scheduled_time])")
      ->required();
  add_value(*c, notes_, "-o,--output", o.output, text("FILE", "a file name, or - for standard output"),
            "the scenario to write ('-': standard output, paths relative to here)")
      ->required();
  add_value(*c, notes_, "--unscheduled", o.unscheduled, one_of({"skip", "include"}),
            "pods the real cluster never scheduled: leave out or run them\n"
            "deletion_time - creation_time");
  add_value(*c, notes_, "--limit", o.limit, whole_number<int64_t>(0, INT64_MAX), "keep the first N imported pods");
  add_value(*c, notes_, "--name", o.name, text("NAME", "a name"), "metadata.name (default: the output file's name without .yaml)");
  add_value(*c, notes_, "--description", o.description, text("TEXT", "a text"), "metadata.description (default: a generated one)");
  add_value(*c, notes_, "--horizon", o.horizon, as_written(duration(true, "DURATION")),
            "e.g. 150d (default: one day past the last finish, whole days)");
  add_value(*c, notes_, "--default-model", o.default_model, text("CODE", "an openb GPU model code"),
            "the openb model GPU pods without gpu_spec queue on (default: the model\n"
            "with the most nodes)");
}

void CommandLine::declare_full_demand() {
  FullDemandCommandOptions& o = o_.full_demand;
  CLI::App* c = add_command(
      root_, "full-demand",
      "The openb paper's full-demand experiment: fill the cluster, measure allocation and fragmentation.\n\n"
      "Runs the experiment of the openb trace's paper (\"Beware of Fragmentation\", USENIX ATC'23) with\n"
      "its placement policies: the trace's pods are resampled until their GPU demand is --tune times the\n"
      "cluster's GPU capacity, submitted one after another with none leaving, and each is placed by the\n"
      "policy or dropped. After every pod the GPU allocated and the fragmentation of the idle GPU are\n"
      "recorded; the report gives them per bucket of arrived demand, over --seeds seeds (docs/traces.md).",
      "Exit codes: 0 done, 2 bad input (file:line: column: reason; no plot is written).",
      [this, &o] { return full_demand_command(o, out_, err_); });
  add_value(*c, notes_, "SCENARIO", o.scenario, text("SCENARIO.yaml", "a scenario file"),
            "a scenario whose openb trace entry names the CSVs and, in fullDemand:,\n"
            "the experiment (the flags below override it)");
  add_value(*c, notes_, "--nodes", o.nodes, text("FILE", "a CSV file"),
            "without a SCENARIO: the node list (sn, cpu_milli, memory_mib, gpu, model)");
  add_value(*c, notes_, "--pods", o.pods, text("FILE", "a CSV file"),
            "without a SCENARIO: the pod list (name, cpu_milli, memory_mib, num_gpu,\n"
            "gpu_milli[, gpu_spec])");
  add_value(*c, notes_, "--tune", o.tune, positive_number(10, "RATIO", ""),
            "the demand to reach, times the GPU capacity (default 1.3, the paper's)");
  add_values(*c, notes_, "--policy", o.policies, one_of({"best-fit", "fgd", "chain"}),
             "who places the pods: the paper's best-fit or FGD, or the operator's chain\n"
             "(repeat for several; default: the scenario's placement, else best-fit and fgd)");
  add_value(*c, notes_, "--chooser", o.chooser, one_of({"most-free", "best-fit", "proportional", "default-model"}),
            "the chain: how a GPU pod's model is picked at arrival, among those it allows\n"
            "(every model without gpu_spec): the most room for it, the least room that takes\n"
            "it now, at random in proportion to cards, or the trace's default model");
  add_value(*c, notes_, "--seeds", o.seeds, whole_number<int64_t>(1, 1000), "runs per policy (default 10)");
  add_value(*c, notes_, "--first-seed", o.first_seed, seed_value(), "the first seed; the others follow it (default 42)");
  add_value(*c, notes_, "-o,--output", o.output, one_of({"text", "json"}), "the report's format");
  add_value(*c, notes_, "--plot", o.plot, text("FILE.png", "a file name"),
            "write the allocation and fragmentation curves as a PNG");
}

void CommandLine::declare_explain() {
  ExplainCommandOptions& o = o_.explain;
  CLI::App* c = add_command(
      root_, "explain",
      "Why a Workload waits, who holds what it needs, and what would admit it.\n\n"
      "Runs the scenario (the embedded default without one) up to --at (default: its horizon) and, for\n"
      "each Workload named (<namespace>/<name>, or a name one namespace has) or every waiting one\n"
      "(--all-pending), tells its path through the five gates with the time spent at each, the gate\n"
      "holding it now in Kueue's and the operator's words, its queue's quota per flavor beside what it\n"
      "needs, the Workloads holding that quota and occupying the Nodes and cards it could use, a retry\n"
      "livelock when there is one, and the smallest change that admits it within --within, each\n"
      "candidate checked by simulating the scenario again with the change applied at that instant\n"
      "(docs/explain.md). With --db the run is made again from the scenario and seed the file names.",
      "Exit codes: 0 explained, 2 bad input (a Workload that did not arrive, --at past the horizon, a\n"
      "scenario changed since the --db run, a kubeconfig), 3 the cluster could not be read (--live).",
      [this, &o] { return explain_command(o, out_, err_); });
  add_values(*c, notes_, "WORKLOAD", o.workloads, text("WORKLOAD", "a Workload"),
             "<namespace>/<name> of a Workload (several may be named); a SCENARIO file\n"
             "(.yaml, .yml, .json) among them is the scenario to run");
  add_value(*c, notes_, "--db", o.db, text("FILE.db", "a results file"),
            "explain a run of a results file (chaintwin run --db FILE): its scenario and\n"
            "seed, at its end unless --at says otherwise");
  add_switch(*c, "--all-pending", o.all_pending, "every Workload waiting at the instant");
  add_switch(*c, "--live", o.live,
             "explain a live cluster's state, read-only (found as kubectl finds it; implied by\n"
             "--kubeconfig or --context): no path through the gates, no search");
  add_value(*c, notes_, "--kubeconfig", o.kubeconfig, text("FILE", "a kubeconfig file"), "the kubeconfig file (--live)");
  add_value(*c, notes_, "--context", o.context, text("NAME", "a context name"), "the kubeconfig context (--live)");
  add_value(*c, notes_, "--at", o.at, duration(false), "the instant to explain (default: the end of the run)");
  add_value(*c, notes_, "--within", o.within, duration(true, "D"),
            "how soon after the instant a change must admit it (default 1h)");
  add_value(*c, notes_, "--seed", o.seed, seed_value(), "override the scenario's seed");
  add_switch(*c, "--no-search", o.no_search, "do not check what would admit it (no simulation beyond the instant)");
  add_value(*c, notes_, "--most-searched", o.most_searched, whole_number<int64_t>(1, 1000),
            "--all-pending: check what would admit them only when at most this many wait (default 20)");
  add_value(*c, notes_, "-o,--output", o.output, one_of({"text", "json"}), "the explanation's format");
}

void CommandLine::declare_plan() {
  PlanCommandOptions& o = o_.plan;
  CLI::App* c = add_command(
      root_, "plan",
      "Capacity planning: the cheapest configuration that meets every SLO (docs/planning.md).\n\n"
      "Searches the configurations a plan spans (docs/planning.md) for the cheapest one that meets\n"
      "every SLO, simulating each configuration with every seed of the plan, and prints the\n"
      "recommendation, the nearest configurations that fail, and every configuration simulated.\n"
      "`chaintwin plan --report FILE.db` reprints a plan from its file without simulating;\n"
      "`chaintwin plan merge OUT.db SHARD.db...` joins shard files.",
      "Exit codes: 0 a configuration meets every SLO (or a shard finished its share), 1 none does,\n"
      "2 bad input.",
      [this, &o] { return plan_command(o, out_, err_); },
      [&o]() -> std::string {
        if (o.report.empty() && o.plan_file.empty()) return "no PLAN given (or --report FILE)";
        return "";
      });
  CLI::Option* plan = add_value(*c, notes_, "PLAN", o.plan_file, text("PLAN.yaml", "a plan file"), "the plan file");
  CLI::Option* jobs = add_value(*c, notes_, "-j,--jobs", o.jobs, whole_number<int32_t>(1, 1024),
                                "runs in parallel (default: every core); the result is the same for any N");
  CLI::Option* db = add_value(*c, notes_, "--db", o.db, text("FILE.db", "a file name"),
                              "keep every run in the SQLite file FILE; a plan run again on its file resumes\n"
                              "where it stopped (no completed run is redone)");
  CLI::Option* grid = add_switch(*c, "--grid", o.grid, "simulate every configuration (instead of the plan's search mode)");
  add_switch(*c, "--adaptive", o.adaptive,
             "the adaptive search (instead of the plan's search mode); a file holds the same\n"
             "runs whichever search asked for them, so `--report FILE --adaptive` replays the\n"
             "adaptive search over a grid's runs")
      ->excludes(grid);
  CLI::Option* shard = add_value(*c, notes_, "--shard", o.shard, shard_spec(),
                                 "simulate only share I (0-based) of N of the runs the plan needs next (the grid,\n"
                                 "or the next round of the adaptive search) into --db, then stop; `--shard N`\n"
                                 "reads I from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)");
  shard->needs(db);
  add_value(*c, notes_, "-o,--output", o.output, one_of({"text", "json"}), "the result's format");
  add_value(*c, notes_, "--plots", o.plots, text("DIR", "a directory"),
            "write PNG plots: each SLO metric against each variable with the SLO line and\n"
            "the 95% band, utilization against capacity, cost against each SLO metric");
  add_value(*c, notes_, "--report", o.report, text("FILE.db", "a plan's SQLite file"),
            "reprint a plan from its file without simulating")
      ->excludes(plan)
      ->excludes(db)
      ->excludes(shard)
      ->excludes(jobs);
  add_switch(*c, "--dry-run", o.dry_run,
             "load and check the plan (every variable value against the base scenario, every\n"
             "SLO's subject), print the size of its grid, and simulate nothing");

  PlanMergeOptions& m = o_.plan_merge;
  CLI::App* merge = add_command(*c, "merge", "Join shard files of one plan into OUT.db (created when absent).",
                                "Exit codes: 0 merged, 2 bad input (a shard of another plan; OUT is left as it was).",
                                [this, &m] { return plan_merge_command(m, out_, err_); });
  add_value(*merge, notes_, "OUT", m.out, text("OUT.db", "a file name"), "the plan file to write")->required();
  add_values(*merge, notes_, "SHARD", m.shards, text("SHARD.db", "a file name"), "the shard files")->required();
}

void CommandLine::declare_gui() {
  GuiCommandOptions& o = o_.gui;
  CLI::App* c = add_command(
      root_, "gui",
      "A window over a run, a results file or a capacity plan (docs/gui.md).\n\n"
      "Opens a window (Dear ImGui, GLFW, OpenGL 3) over a run of SCENARIO (the embedded default scenario\n"
      "when none is given): the simulation steps on its own thread and the window shows its newest\n"
      "snapshot. Panels: pools, credits, nodes, cards, workloads, pending, drains, chain, events;\n"
      "the strip on top plays, pauses, changes speed, steps to the next event and seeks (back: the run\n"
      "restarts and replays).\n"
      "  chaintwin gui [SCENARIO | --db RUN.sqlite [--run ID]] [--seed N] [--play] [--speed S]\n"
      "  chaintwin gui [SCENARIO | --db RUN.sqlite] --screenshot FILE.png [--at T] [--panel NAME] [--size WxH]\n"
      "  chaintwin gui --plan PLAN.db [--screenshot FILE.png] [--size WxH]\n"
      "  chaintwin gui --db A.sqlite --db B.sqlite [--screenshot FILE.png] [--size WxH]",
      "Exit codes: 0 done, 1 the window or the PNG could not be made, 2 bad input.",
      [this, &o] { return gui_command(o, out_, err_); },
      [&o]() -> std::string {
        if (o.panel == "plan" && o.plan.empty())
          return "--panel plan belongs to a capacity plan's window, not to a run (give --plan FILE)";
        if (!o.plan.empty() && (!o.scenario.empty() || !o.db.empty() || o.seed || o.at || o.play || o.run))
          return "--plan opens a plan's window: no SCENARIO, --db, --seed, --at, --play or --run";
        if (!o.db.empty() && !o.scenario.empty()) return "give a SCENARIO or --db FILE, not both";
        if (o.db.size() > 2) return "--db: give one results file to show, or two to compare";
        if (o.db.size() == 2 && (o.run || o.at || o.play || o.panel))
          return "--db A --db B compares two runs (each file's newest): no --run, --at, --play or --panel";
        return "";
      });
  add_value(*c, notes_, "SCENARIO", o.scenario, text("SCENARIO.yaml", "a scenario file"),
            "the scenario file (default: the embedded scenarios/default.yaml)");
  CLI::Option* db = add_values(*c, notes_, "--db", o.db, text("FILE.db", "a results file"),
                               "show a finished run from its results file (chaintwin run --db FILE) instead\n"
                               "of simulating: pools, credits, Workloads, drains and events at any time; Nodes\n"
                               "and the chain graph as they stood at the end (the file holds no card ledgers).\n"
                               "Twice (--db A --db B): the two runs compared, per pool and per GPU model");
  add_value(*c, notes_, "--run", o.run, whole_number<int64_t>(1, INT64_MAX, "ID"),
            "the run of the file to show (default: the newest complete run)")
      ->needs(db);
  add_value(*c, notes_, "--plan", o.plan, text("FILE.db", "a plan's SQLite file"),
            "a capacity plan's window over its SQLite file (chaintwin plan --db FILE): the\n"
            "recommendation and the plots plan --plots draws (docs/planning.md)");
  add_value(*c, notes_, "--seed", o.seed, seed_value(), "override the scenario's seed")->excludes(db);
  add_switch(*c, "--play", o.play, "start playing at once (default: paused at the start)");
  add_value(*c, notes_, "--speed", o.speed, positive_number(1e12, "S", "simulated seconds per wall second"),
            "simulated seconds per wall second");
  CLI::Option* screenshot = add_value(*c, notes_, "--screenshot", o.screenshot, text("FILE.png", "a PNG file name"),
                                      "render one frame of the run at --at into this PNG and exit; needs an X\n"
                                      "display (headless: xvfb-run -a chaintwin gui --screenshot ...)");
  add_value(*c, notes_, "--at", o.at, duration(), "the simulated time of the screenshot, e.g. 6h (default: the horizon)")
      ->needs(screenshot);
  add_value(*c, notes_, "--frames", o.frames, whole_number<int>(4, 100000, "N"),
            "draw N frames of the screenshot's instant before the capture and print the times of\n"
            "all but the first four (each to glFinish): median, 95th percentile and slowest")
      ->needs(screenshot);
  add_value(*c, notes_, "--panel", o.panel,
            one_of({"pools", "credits", "nodes", "cards", "workloads", "pending", "drains", "chain", "events", "drift", "plan"}),
            "the panel to show (plan: with --plan)");
  add_value(*c, notes_, "--size", o.size, pixel_size(), "the window's size in pixels");
  add_value(*c, notes_, "--scale", o.scale, one_of({"nominal", "fitted", "log", "percent"}),
            "the credits charts' value scale: the nominal quota (default), fitted to the reserved\n"
            "quota, logarithmic in cards or cores, or percent of the nominal quota");
  add_value(*c, notes_, "--select", o.select, text("QUEUE", "a ClusterQueue name"),
            "preselect a ClusterQueue (credits chart and chain graph show it alone)");
  add_value(*c, notes_, "--node", o.node, text("NAME", "a Node name"), "preselect a Node (nodes and cards panel, chain graph)");
  add_value(*c, notes_, "--workload", o.workload, text("WORKLOAD", "a Workload"),
            "preselect a Workload, <namespace>/<name> (the Workloads panel explains why it waits)");
}

void CommandLine::declare_serve() {
  ServeCommandOptions& o = o_.serve;
  CLI::App* c = add_command(
      root_, "serve",
      "Serve the simulated cluster as a Kubernetes API (kubectl get works).\n\n"
      "Simulates SCENARIO (the embedded default scenario when none is given) and serves its cluster as a\n"
      "Kubernetes API on HOST:PORT: /version, discovery, get, list and watch of Nodes, Devices,\n"
      "Namespaces, Settings, InstanceTypes, TopologySources, ResourceFlavors, ClusterQueues, LocalQueues,\n"
      "AdmissionChecks, Topologies and Workloads, with Table replies, so\n\n"
      "  kubectl --server http://127.0.0.1:8080 get instancetypes,clusterqueues\n\n"
      "prints useful columns. Frozen at T it is writable like an API server (create, replace, merge patch,\n"
      "delete, the status subresource, 409 on a stale resourceVersion, dryRun=All), so `kubectl apply` and\n"
      "`chaintwin live --apply` can change it; with --play the simulation owns it and writes get 405.\n"
      "Prints `serving SCENARIO at T on http://HOST:PORT` once it listens; stops on SIGINT or SIGTERM.",
      "Exit codes: 0 stopped by a signal, 1 it cannot listen, 2 bad input.",
      [this, &o] { return serve_command(o, out_, err_); });
  add_value(*c, notes_, "SCENARIO", o.scenario, text("SCENARIO.yaml", "a scenario file"),
            "the scenario file (default: the embedded scenarios/default.yaml)");
  add_value(*c, notes_, "--listen", o.listen, host_port(), "where to listen; port 0 picks a free port");
  add_value(*c, notes_, "--at", o.at, duration(), "the simulated time to serve (0s: the cluster the operator settles)");
  add_switch(*c, "--play", o.play, "advance the simulation with the wall clock after T, publishing every second");
  add_value(*c, notes_, "--speed", o.speed, positive_number(1e12, "S", "simulated seconds per wall second"),
            "simulated seconds per wall second with --play");
  add_value(*c, notes_, "--faults", o.faults, probabilities({"conflict", "error", "throttle", "slow", "gone", "drop"}),
            "inject faults for client tests, each with probability P per request:\n"
            "conflict (409 on a write), error (500 on a write), throttle (429 with\n"
            "Retry-After: 1), slow (a 0.5 s delay), gone (410 on a watch from a\n"
            "resourceVersion), drop (a watch stream closed after its first events);\n"
            "nothing is stored by a refused write");
  add_value(*c, notes_, "--fault-seed", o.fault_seed, seed_value(), "the faults' random seed");
  add_value(*c, notes_, "--kueue-version", o.kueue_version, one_of({"v1beta2", "v1beta1"}),
            "serve Kueue's group at this version only; v1beta1 as a cluster with Kueue up to\n"
            "v0.14 does (objects converted both ways at the edge)");
  CLI::Option* cert = add_value(*c, notes_, "--tls-cert", o.tls_cert, text("FILE", "a PEM file"),
                                "serve HTTPS with this certificate (PEM)");
  CLI::Option* key = add_value(*c, notes_, "--tls-key", o.tls_key, text("FILE", "a PEM file"), "and this private key (PEM)");
  cert->needs(key);
  key->needs(cert);
  add_value(*c, notes_, "--client-ca", o.client_ca, text("FILE", "a PEM file"),
            "require a client certificate signed by this CA (PEM)")
      ->needs(cert);
  add_value(*c, notes_, "--token", o.token, text("TOKEN", "a bearer token"),
            "require `Authorization: Bearer TOKEN` on every request but the health checks\n"
            "(401 otherwise)");
  add_values(*c, notes_, "--role", o.roles, name_value("TOKEN=FILE"),
             "a request bearing TOKEN may do only what the ClusterRole in FILE allows (403\n"
             "otherwise), as RBAC would for a user bound to it. Requests with no such token\n"
             "are not restricted");
}

void CommandLine::declare_live() {
  LiveCommandOptions& o = o_.live;
  CLI::App* c = add_command(
      root_, "live",
      "Shadow mode: the drift between a real cluster and what the operator would write to it.\n\n"
      "Reads the cluster (Nodes, Devices, Namespaces, Settings, InstanceTypes, TopologySources and Kueue's\n"
      "ResourceFlavors, ClusterQueues, LocalQueues, AdmissionChecks, Topologies, Workloads; Kueue at\n"
      "v1beta2, or v1beta1 where that is all the cluster serves), runs the operator's controllers on it to\n"
      "their fixpoint, and prints every write the operator would make and has not: the drift. Nothing is\n"
      "written to the cluster unless --apply is given.\n\n"
      "The cluster is found as kubectl finds it: --kubeconfig, else KUBECONFIG (several files, merged),\n"
      "else ~/.kube/config, else the in-cluster service account; --context picks a context. Bearer\n"
      "tokens, token files, client certificates (file or data), exec credential plugins\n"
      "(client.authentication.k8s.io/v1), CA file or data; insecure-skip-tls-verify is honoured with a\n"
      "warning. Credentials are never printed.\n\n"
      "Without --once it lists then watches every kind (resourceVersion, bookmarks, 410 → relist, dropped\n"
      "connections → reconnect with backoff and jitter) and prints the drift whenever the cluster changes,\n"
      "until SIGINT or SIGTERM; on a terminal the table is redrawn in place, elsewhere each new one is\n"
      "appended.",
      "Exit codes: 0 no drift (with --apply: none left), 1 drift, 2 bad input (flags, kubeconfig),\n"
      "3 the cluster cannot be read.",
      [this, &o] { return live_command(o, out_, err_); });
  add_value(*c, notes_, "--kubeconfig", o.kubeconfig, text("FILE", "a kubeconfig file"), "the kubeconfig file");
  add_value(*c, notes_, "--context", o.context, text("NAME", "a context name"), "the kubeconfig context");
  CLI::Option* once = add_switch(*c, "--once", o.once,
                                 "read once (a list of every kind), print the drift, exit (0 no drift, 1 drift)");
  add_value(*c, notes_, "--interval", o.interval, positive_number(86400, "S", "seconds"),
            "with --apply and without --once: seconds before a refused write is tried again");
  CLI::Option* output = add_value(*c, notes_, "-o,--output", o.output, one_of({"table", "json"}),
                                  "the drift as a table or as JSON lines");
  add_value(*c, notes_, "--qps", o.client.qps, positive_number(1e6, "N", "requests per second"),
            "client-side rate limit: requests per second");
  add_value(*c, notes_, "--burst", o.client.burst, whole_number<int>(1, 1000000), "client-side rate limit: requests at once");
  add_value(*c, notes_, "--timeout", o.client.timeout_seconds, whole_number<long>(1, 86400, "S"),
            "per-request timeout in whole seconds");
  CLI::Option* apply = add_switch(*c, "--apply", o.apply,
                                  "write the operator's writes to the cluster (fieldManager=chaintwin): creates,\n"
                                  "merge patches of Node labels and status.capacity, replaces that carry the planned\n"
                                  "resourceVersion (a 409 Conflict re-reads and plans again), deletes; then read\n"
                                  "again until no drift is left (giving up after 5 rounds in a row that wrote\n"
                                  "nothing). 429 (after Retry-After) and 5xx replies are retried with backoff");
  add_switch(*c, "--dry-run", o.dry_run, "send the writes with dryRun=All (nothing changes)")->needs(apply);
  CLI::Option* gui = add_switch(*c, "--gui", o.gui,
                                "open the GUI over the live state (chaintwin gui's panels, with the drift\n"
                                "marked and listed in its own tab); closes with the window");
  gui->excludes(once)->excludes(apply)->excludes(output);
  add_value(*c, notes_, "--screenshot", o.screenshot, text("FILE.png", "a PNG file name"),
            "write the first view of the cluster (the Drift tab) to this PNG and exit\n"
            "(needs an X display; headless: xvfb-run -a)")
      ->needs(gui);
}

void CommandLine::declare_snapshot() {
  SnapshotCommandOptions& o = o_.snapshot;
  CLI::App* c = add_command(
      root_, "snapshot",
      "Capture a cluster as a scenario: what-if from today.\n\n"
      "Reads the cluster (found as `chaintwin live` finds it) and writes a scenario whose cluster.objects\n"
      "are its Nodes, Devices, Namespaces, Settings, InstanceTypes, TopologySources and Kueue\n"
      "ResourceFlavors, ClusterQueues, LocalQueues, AdmissionChecks and Topologies as they are now\n"
      "(server-set fields dropped), so `chaintwin run SCENARIO.yaml` continues from the real present:\n"
      "add workloads and timeline entries to ask what-if questions. The file is checked by loading it\n"
      "back before it is written; nothing is written when that fails.\n\n"
      "Workloads in flight (Kueue Workloads not Finished) become the scenario's first workloads, one\n"
      "generator each, named after the Workload, with its namespace, priority, PodSets and their\n"
      "containers' requests, on the InstanceType its LocalQueue fronts. They arrive 1 ms apart from 0s:\n"
      "first those holding quota now, then the pending ones, each group in creation order, so the\n"
      "simulated Kueue admits them again in that order. Their cards are freed in the Devices ledgers (the\n"
      "twin places them again; a cluster's Pods are not read), and each runs --run-time once admitted.",
      "Exit codes: 0 written, 2 bad input, 3 the cluster cannot be read.",
      [this, &o] { return snapshot_command(o, out_, err_); });
  add_value(*c, notes_, "-o,--output", o.output, text("SCENARIO.yaml", "a file name"), "the scenario to write")->required();
  add_value(*c, notes_, "--kubeconfig", o.kubeconfig, text("FILE", "a kubeconfig file"), "the kubeconfig file");
  add_value(*c, notes_, "--context", o.context, text("NAME", "a context name"), "the kubeconfig context");
  add_value(*c, notes_, "--name", o.name, text("NAME", "a name"), "metadata.name");
  add_value(*c, notes_, "--horizon", o.horizon, as_written(duration(true)), "the scenario's horizon");
  CLI::Option* run_time = add_value(*c, notes_, "--run-time", o.run_time, as_written(duration(true)),
                                    "how long each captured Workload runs once admitted (default: the horizon)");
  add_switch(*c, "--no-workloads", o.no_workloads, "capture no Workload: the ledgers keep the cards in use for the whole run")
      ->excludes(run_time);
}

void CommandLine::declare_help() {
  CLI::App* c = add_command(root_, "help", "A command's help: `chaintwin help CMD` is `chaintwin CMD --help`.",
                            "Exit codes: 0 printed, 2 no such command.", [this] { return help_topic(); });
  add_values(*c, notes_, "COMMAND", o_.help_topic, text("COMMAND", "a command name"),
             "the command (several words for a nested one: plan merge)");
}

int CommandLine::help_topic() {
  const CLI::App* app = &root_;
  for (const auto& word : o_.help_topic) {
    const auto found = app->get_subcommands([&](const CLI::App* s) { return s->get_name() == word; });
    if (found.empty())
      return refuse(root_.get_subcommand("help"),
                    "unknown command '" + word + "' (expected one of: " + command_names(app) + ")");
    app = found.front();
  }
  return help(app);
}

void CommandLine::declare_completion() {
  CLI::App* c = add_command(root_, "completion", "Print a shell completion script, made from these declarations.",
                            "Load it with `source <(chaintwin completion bash)` (zsh: after\n"
                            "`autoload -U +X bashcompinit && bashcompinit`). Exit codes: 0 printed, 2 bad input.",
                            [this] {
                              out_ << bash_completion(root_);
                              return 0;
                            });
  add_value(*c, notes_, "SHELL", o_.shell, one_of({"bash"}), "the shell")->required();
}

int CommandLine::refuse(const CLI::App* command, const std::string& message) {
  const std::string path = command_path(command);
  err_ << path << ": " << message << "\n(see " << path << " --help)\n";
  return 2;
}

int CommandLine::help(const CLI::App* command) {
  out_ << command->get_formatter()->make_help(command, command_path(command), CLI::AppFormatMode::Normal);
  return 0;
}

int CommandLine::run(std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());  // CLI11 takes the words last first
  try {
    root_.parse(args);
  } catch (const CLI::CallForHelp&) {
    return help(deepest_command(root_));
  } catch (const CLI::CallForAllHelp&) {
    return help(deepest_command(root_));
  } catch (const CLI::CallForVersion& e) {
    out_ << "chaintwin " << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    const ParseFailure failure = describe_parse_error(root_, e, notes_);
    return refuse(failure.command, failure.message);
  }
  const CLI::App* command = deepest_command(root_);
  // A nested command (plan merge) takes none of its parent's flags or arguments.
  for (const CLI::App* parent = command->get_parent(); parent != nullptr && parent != &root_; parent = parent->get_parent())
    for (const CLI::Option* opt : parent->get_options())
      if (opt->count() > 0)
        return refuse(command, flag_label(opt) + " belongs to " + command_path(parent) + ", not to " + command_path(command));
  const Command& c = commands_.at(command);
  if (c.check)
    if (const std::string e = c.check(); !e.empty()) return refuse(command, e);
  return c.run();
}

void collect_paths(const CLI::App* app, const std::string& prefix, std::vector<std::string>& out) {
  for (const CLI::App* s : app->get_subcommands([](const CLI::App* a) { return !a->get_name().empty(); })) {
    const std::string path = prefix.empty() ? s->get_name() : prefix + " " + s->get_name();
    out.push_back(path);
    collect_paths(s, path, out);
  }
}

}  // namespace

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CommandLine line(out, err);
  return line.run(args);
}

std::vector<std::string> command_paths() {
  std::ostringstream out, err;
  CommandLine line(out, err);
  std::vector<std::string> paths;
  collect_paths(&line.root(), "", paths);
  return paths;
}

}  // namespace chaintwin::cli
