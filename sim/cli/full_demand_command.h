// `chaintwin full-demand --nodes NODES.csv --pods PODS.csv [--tune 1.3] [--policy best-fit|fgd|chain ...]
// [--seeds 10] [--first-seed 42] [--chooser most-free|best-fit|proportional|default-model] [-o text|json] [--plot FILE.png]`: the openb paper's full-demand
// experiment (docs/traces.md, "Full demand"): per policy and seed one run (sim/fulldemand/
// full_demand_run.h), then the figures and curves over seeds (full_demand_report.h). Exit codes: 0
// done, 2 bad input (file:line: column: reason; no plot is written). Run by the command line
// (command_line.cpp) with the options it parsed.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

struct FullDemandCommandOptions {
  std::string nodes, pods;
  double tune = 1.3;
  std::vector<std::string> policies{"best-fit", "fgd"};
  int64_t seeds = 10;
  uint64_t first_seed = 42;
  std::string output = "text";  // text or json
  std::string plot;             // a PNG to write; "" for none
  // The chain: how a GPU pod's model is picked at arrival (sim/fulldemand/chain_full_demand.h):
  // most-free, best-fit, proportional, or default-model (the trace's selector, as a replay).
  std::string chooser = "most-free";
};

int full_demand_command(const FullDemandCommandOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
