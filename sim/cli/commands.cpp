#include "sim/cli/commands.h"

#include "sim/cli/compare_command.h"
#include "sim/cli/derive_command.h"
#include "sim/cli/import_command.h"
#include "sim/cli/plan_command.h"
#include "sim/cli/run_command.h"

namespace chaintwin::cli {
namespace {

constexpr const char* kUsage = R"(chaintwin — a digital twin of the GPUStack operator's device scheduling chain on Kueue

Usage:
  chaintwin [run] [SCENARIO] [--seed N] [--until T] [--db FILE] [--events FILE] [-o text|json] [--verify]
                             simulate a scenario (the embedded default one when none is given)
                             and print the report per pool and per workload class
  chaintwin check [--verify] SCENARIO...
                             simulate scenarios and evaluate their `expect:` blocks
  chaintwin compare A B [--seed N] [-o text|json]
                             two runs side by side (each a scenario file, or a run of a results
                             file: FILE or FILE#ID): per pool, ClusterQueue and class, A, B and B − A
  chaintwin derive FILE...   read Kubernetes objects (Node, Devices, Setting; YAML or JSON) and
                             print the chain the operator converges to (--patches: per Node, the
                             labels, capacity keys and fit labels and the patch that gets there;
                             --example: the bundled example cluster)
  chaintwin import openb --nodes NODES.csv --pods PODS.csv -o SCENARIO.yaml
                             turn the Alibaba openb trace into a scenario that references the CSVs
                             with every mapping decision written out (docs/traces.md)
  chaintwin plan PLAN.yaml [-j N] [--db FILE] [--grid] [--shard I/N] [-o text|json] [--plots DIR]
                             capacity planning: the cheapest configuration that meets every SLO,
                             over seeds, with plots (docs/planning.md); plan --report FILE.db,
                             plan merge OUT.db SHARD.db...
  chaintwin gui [SCENARIO] [--screenshot FILE.png --at T --panel NAME --size WxH]
                             a window over a run: pools, credits, nodes and cards, workloads,
                             drains, the chain graph, the event log (docs/gui.md)
  chaintwin serve [SCENARIO] [--listen HOST:PORT] [--at T] [--play]
                             serve the simulated cluster as a Kubernetes API (kubectl get works)
  chaintwin live [--kubeconfig FILE] [--context NAME] [--once] [-o table|json]
                             shadow mode: the drift between a real cluster and what the
                             operator would write to it (nothing is written)
  chaintwin snapshot -o SCENARIO.yaml [--kubeconfig FILE] [--context NAME]
                             capture a cluster as a scenario: what-if from today
  chaintwin help [COMMAND]   this text, or a command's own help

Exit codes: 0 success, 1 a check failed, 2 bad input.
)";

}  // namespace

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "run") {
    std::vector<std::string> rest(args.empty() ? args.begin() : args.begin() + 1, args.end());
    return run_command(rest, out, err);
  }
  const std::string& cmd = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    if (!rest.empty() && rest[0] == "derive") return derive_command({"--help"}, out, err);
    if (!rest.empty() && rest[0] == "run") return run_command({"--help"}, out, err);
    if (!rest.empty() && rest[0] == "check") return check_command({"--help"}, out, err);
    if (!rest.empty() && rest[0] == "import") return import_command({"--help"}, out, err);
    if (!rest.empty() && rest[0] == "compare") return compare_command({"--help"}, out, err);
    if (!rest.empty() && rest[0] == "plan") return plan_command({"--help"}, out, err);
    out << kUsage;
    return 0;
  }
  if (cmd == "derive") return derive_command(rest, out, err);
  if (cmd == "check") return check_command(rest, out, err);
  if (cmd == "import") return import_command(rest, out, err);
  if (cmd == "compare") return compare_command(rest, out, err);
  if (cmd == "plan") return plan_command(rest, out, err);
  err << "chaintwin: unknown command '" << cmd << "'\n\n" << kUsage;
  return 2;
}

}  // namespace chaintwin::cli
