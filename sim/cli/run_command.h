// `chaintwin run [SCENARIO] [--seed N] [--until T] [--db FILE] [--events FILE] [-o text|json]`
// (simulate a scenario — the embedded default one when none is given — and print the report) and
// `chaintwin check SCENARIO...` (simulate each and evaluate its `expect:` blocks).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int check_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
