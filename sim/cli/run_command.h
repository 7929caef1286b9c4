// `chaintwin run` (simulate a scenario — the embedded default one when none is given — and print
// the report) and `chaintwin check` (simulate scenarios and evaluate their `expect:` blocks), with
// the options command_line.cpp parses for them.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/sim_time.h"

namespace chaintwin::cli {

struct RunCommandOptions {
  std::string scenario;  // empty: the embedded default scenario
  std::optional<uint64_t> seed;
  std::optional<sim::SimTime> until;
  std::string db;      // the SQLite results file; empty: none
  std::string events;  // the event log's file, "-" for standard output; empty: none
  std::string output = "text";  // text or json
  bool verify = false;
};

struct CheckCommandOptions {
  std::vector<std::string> scenarios;
  bool verify = false;
};

int run_command(const RunCommandOptions& o, std::ostream& out, std::ostream& err);
int check_command(const CheckCommandOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
