// The chaintwin command line: parses the subcommand and its flags, runs it, returns the exit
// code (0 success, 1 a check or expectation failed, 2 bad input).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
