// `chaintwin import openb --nodes NODES.csv --pods PODS.csv -o scenario.yaml`: imports the Alibaba
// openb trace with sim/trace's reader and mapping (sim/trace/openb_trace.h) and writes a scenario
// that references the two CSVs with every mapping decision written out (sim/trace/openb_scenario.h).
// The written text is loaded back before it is kept, so the file always loads; it goes to a
// temporary file renamed into place, so a failed import writes nothing. Called by dispatch().
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int import_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
