// `chaintwin snapshot`: captures a cluster (real, or served by `chaintwin serve`) as a scenario
// whose cluster is the objects read, so `chaintwin run` continues from the real present. Run by the
// command line (command_line.cpp) with the options it parsed.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "sim/cli/flag_values.h"
#include "sim/sim_time.h"

namespace chaintwin::cli {

struct SnapshotCommandOptions {
  std::string output;  // the scenario file to write
  std::optional<std::string> kubeconfig, context;
  std::string name = "snapshot";
  Written<sim::SimTime> horizon{sim::SimTime::hours(24), "24h"};  // written into the scenario as typed
  std::optional<Written<sim::SimTime>> run_time;  // default: the horizon
  bool no_workloads = false;
};

int snapshot_command(const SnapshotCommandOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
