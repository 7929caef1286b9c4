// `chaintwin live`: the model against a real cluster. Shadow mode: read the cluster, run the
// operator's controllers on it and report the drift between what is there and what the operator
// would write, once (--once) or every --interval seconds until SIGINT/SIGTERM; with --apply,
// write it.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int live_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
