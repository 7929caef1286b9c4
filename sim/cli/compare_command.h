// `chaintwin compare A B [--seed N] [--seed-a N] [--seed-b N] [-o text|json]`: two runs side by side.
// Each of A and B is a scenario file (simulated here) or a run in a results file written by
// `chaintwin run --db` (FILE: its newest complete run, FILE#ID: run ID). Prints per pool, per
// ClusterQueue and per workload class the figures of both runs and B − A (sim/results/report_diff.h).
// Exit codes: 0 compared (whether or not the runs differ), 2 bad input, naming the argument.
// Run by the command line (command_line.cpp) with the options it parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace chaintwin::cli {

struct CompareCommandOptions {
  std::string a, b;  // the two sides
  std::optional<uint64_t> seed, seed_a, seed_b;
  std::string output = "text";  // text or json
};

int compare_command(const CompareCommandOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
