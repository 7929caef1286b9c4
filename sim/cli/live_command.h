// `chaintwin live`: the model against a real cluster. Shadow mode: read the cluster, run the
// operator's controllers on it and report the drift between what is there and what the operator
// would write, once (--once) or whenever it changes until SIGINT/SIGTERM; with --apply, write it;
// with --gui, the window over it (gui/gui_command.h). Run by the command line (command_line.cpp)
// with the options it parsed.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "live/api_client.h"

namespace chaintwin::cli {

struct LiveCommandOptions {
  std::optional<std::string> kubeconfig, context, screenshot;
  bool once = false, apply = false, dry_run = false, gui = false;
  double interval = 10;           // seconds before a refused write is tried again (--apply, watching)
  std::string output = "table";   // table or json
  live::ClientOptions client;     // --qps, --burst, --timeout
};

int live_command(const LiveCommandOptions& o, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
