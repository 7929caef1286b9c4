// `chaintwin derive FILE...` and `chaintwin run` (which derives the bundled example).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int derive_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_default_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
