// `chaintwin import openb --nodes NODES.csv --pods PODS.csv -o scenario.yaml`: imports the Alibaba
// openb trace with sim/trace's reader and mapping (sim/trace/openb_trace.h) and writes a scenario
// that references the two CSVs with every mapping decision written out (sim/trace/openb_scenario.h).
// The written text is loaded back before it is kept, so the file always loads; it goes to a
// temporary file renamed into place, so a failed import writes nothing. Run by the command line
// (command_line.cpp) with the options it parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "sim/cli/flag_values.h"
#include "sim/sim_time.h"

namespace chaintwin::cli {

struct ImportOpenbOptions {
  std::string nodes, pods;
  std::string output;  // "-": standard output
  std::string name, description, default_model;
  std::string unscheduled = "skip";  // skip or include
  std::optional<int64_t> limit;
  std::optional<Written<sim::SimTime>> horizon;  // as typed: the header's regenerate line repeats it
};

int import_openb_command(const ImportOpenbOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
