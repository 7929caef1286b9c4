// `chaintwin derive FILE...` (and `chaintwin derive --example`, the bundled example cluster).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int derive_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
