// `chaintwin derive FILE...` (and `chaintwin derive --example`, the bundled example cluster): the
// chain the operator converges to from Kubernetes objects, or with --patches the per-Node stage-3
// view. Run by the command line (command_line.cpp) with the options it parsed.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace chaintwin::cli {

struct DeriveCommandOptions {
  std::vector<std::string> files;  // "-": standard input
  bool example = false;            // the bundled example cluster instead of files
  bool patches = false;            // the per-Node stage-3 view
  std::string output = "yaml";     // yaml or json
  std::vector<std::pair<std::string, std::string>> settings;  // --set NAME=VALUE, in order
};

int derive_command(const DeriveCommandOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
