// `chaintwin plan`: capacity planning over a plan file (docs/planning.md) — search the
// configurations, print the recommendation, keep every run in a SQLite file, draw the plots;
// `plan --report DB` reprints a plan from its file, `plan merge OUT SHARD...` joins shards. Run by
// the command line (command_line.cpp) with the options it parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/cli/flag_values.h"

namespace chaintwin::cli {

struct PlanCommandOptions {
  std::string plan_file;  // PLAN.yaml; empty with --report
  std::string db, report, plots;
  std::string output = "text";  // text or json
  std::optional<int32_t> jobs;  // default: every core
  std::optional<ShardSpec> shard;
  bool grid = false, adaptive = false, dry_run = false;
};

struct PlanMergeOptions {
  std::string out;
  std::vector<std::string> shards;
};

int plan_command(const PlanCommandOptions& o, std::ostream& out, std::ostream& err);
int plan_merge_command(const PlanMergeOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
