// `chaintwin full-demand [SCENARIO] [--nodes NODES.csv --pods PODS.csv] [--tune 1.3]
// [--policy best-fit|fgd|chain ...] [--seeds 10] [--first-seed 42]
// [--chooser most-free|best-fit|proportional|default-model] [-o text|json] [--plot FILE.png]`:
// the openb paper's full-demand experiment (docs/traces.md, "Full demand"). One run per policy
// and seed (sim/fulldemand/full_demand_run.h, chain_full_demand.h), then the figures and curves
// over seeds (full_demand_report.h). Exit codes: 0 done, 2 bad input (file:line: column: reason;
// no plot is written). Run by the command line (command_line.cpp) with the options it parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

struct FullDemandCommandOptions {
  // A scenario whose openb `trace:` entry names the CSVs and, in `fullDemand:`, the experiment;
  // or "" with --nodes and --pods. A flag given overrides the scenario's value.
  std::string scenario;
  std::string nodes, pods;
  std::optional<double> tune;        // default 1.3
  std::vector<std::string> policies;  // default: the scenario's placement, else best-fit and fgd
  std::optional<int64_t> seeds;      // default 10
  std::optional<uint64_t> first_seed;  // default 42
  // The chain: how a GPU pod's model is picked at arrival (sim/fulldemand/chain_full_demand.h):
  // most-free (default), best-fit, proportional, or default-model (the trace's selector).
  std::optional<std::string> chooser;
  std::string output = "text";  // text or json
  std::string plot;             // a PNG to write; "" for none
};

int full_demand_command(const FullDemandCommandOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
