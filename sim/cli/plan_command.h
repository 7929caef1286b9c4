// `chaintwin plan`: capacity planning over a plan file (docs/planning.md) — search the
// configurations, print the recommendation, keep every run in a SQLite file, draw the plots;
// `plan --report DB` reprints a plan from its file, `plan merge OUT SHARD...` joins shards.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace chaintwin::cli {

int plan_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaintwin::cli
