#include "sim/runner/node_profile_scope.h"

#include <string_view>

namespace chaintwin::sim {

const std::string* NodeProfileScope::node_written(const model::Write& w) {
  const std::string_view kind = model::kind_of(w.object);
  return kind == "Node" || kind == "Devices" ? &model::metadata_of(w.object).name : nullptr;
}

std::optional<std::set<std::string>> NodeProfileScope::next(const std::vector<model::Write>& this_pass) {
  if (!looked_at_all_) {
    looked_at_all_ = true;
    return std::nullopt;
  }
  std::set<std::string> since = written_last_pass_;
  for (const auto& w : this_pass)
    if (const std::string* name = node_written(w)) since.insert(*name);
  return since;
}

void NodeProfileScope::pass_done(const std::vector<model::Write>& writes) {
  written_last_pass_.clear();
  for (const auto& w : writes)
    if (const std::string* name = node_written(w)) written_last_pass_.insert(*name);
}

}  // namespace chaintwin::sim
