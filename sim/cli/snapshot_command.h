// `chaintwin snapshot`: captures a cluster (real, or served by `chaintwin serve`) as a scenario
// whose cluster is the objects read, so `chaintwin run` continues from the real present.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int snapshot_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
