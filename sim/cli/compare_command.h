// `chaintwin compare A B [--seed N] [--seed-a N] [--seed-b N] [-o text|json]`: two runs side by side.
// Each of A and B is a scenario file (simulated here) or a run in a results file written by
// `chaintwin run --db` (FILE: its newest complete run, FILE#ID: run ID). Prints per pool, per
// ClusterQueue and per workload class the figures of both runs and B − A (sim/results/report_diff.h).
// Exit codes: 0 compared (whether or not the runs differ), 2 bad input, naming the argument.
// Called by dispatch().
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int compare_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
