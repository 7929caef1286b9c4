// `chaintwin explain WORKLOAD... [SCENARIO | --db RUN.sqlite] [--at T] [--all-pending] [--within D]
// [--seed N] [--no-search] [-o text|json]`, or `--live [--kubeconfig F] [--context C]` for a cluster's state: why a Workload waits, who holds what it needs and what
// would admit it (docs/explain.md; sim/explain/). With --db the run is made again from the scenario
// file and seed the run file names, which must be unchanged since (its hash is checked). Exit codes:
// 0 explained, 2 bad input (a Workload that never arrived, --at past the horizon, a changed scenario).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/sim_time.h"

namespace chaintwin::cli {

struct ExplainCommandOptions {
  std::vector<std::string> workloads;  // <namespace>/<name> or a bare name
  std::string scenario;                // "" for the embedded default (or with --db)
  std::string db;
  std::optional<std::string> kubeconfig, context;  // live: read the cluster (read-only)
  bool live = false;                // --kubeconfig or --context given, or --live
  bool all_pending = false;
  std::optional<sim::SimTime> at;
  std::optional<sim::SimTime> within;
  std::optional<uint64_t> seed;
  bool no_search = false;
  std::optional<int64_t> most_searched;
  std::string output = "text";
};

int explain_command(const ExplainCommandOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
