// `chaintwin live`: the model against a real cluster. Shadow mode: read the cluster, run the
// operator's controllers on it and report the drift between what is there and what the operator
// would write, once (--once) or every --interval seconds until SIGINT/SIGTERM; with --apply,
// write it.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "live/api_client.h"
#include "live/kubeconfig.h"

namespace chaintwin::cli {

// What `--gui` runs: the window over the live state (the GUI is composed outside live/, which
// does not depend on viz/). Returns the exit code.
// With a screenshot file it renders the first snapshot to that PNG and returns.
using LiveGuiRunner = std::function<int(const live::ClusterConnection&, const live::ClientOptions&,
                                        const std::optional<std::string>& screenshot, std::ostream& out, std::ostream& err)>;

int live_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                 const LiveGuiRunner& gui = nullptr);

}  // namespace chaintwin::cli
