// `chaintwin serve`: a scenario's simulated cluster served as a Kubernetes API (kube_api_server.h),
// frozen at a time or advancing with the wall clock, until SIGINT or SIGTERM.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int serve_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
