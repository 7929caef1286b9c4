#include "sim/runner/node_profile_scope.h"

#include <string_view>

namespace chaintwin::sim {

const std::string* NodeProfileScope::node_written(const model::Write& w) {
  const std::string_view kind = model::kind_of(w.object);
  return kind == "Node" || kind == "Devices" ? &model::metadata_of(w.object).name : nullptr;
}

bool NodeProfileScope::own_write(const model::Write& w) {
  return w.controller == "NodeProfile" || w.controller == "NodeCapacity";
}

void NodeProfileScope::note(const std::vector<model::Write>& writes, std::set<std::string>& others,
                            std::set<std::string>& own) const {
  for (const auto& w : writes)
    if (const std::string* name = node_written(w)) (own_write(w) ? own : others).insert(*name);
}

std::optional<std::set<std::string>> NodeProfileScope::next(const std::vector<model::Write>& this_pass) {
  skipped_.clear();
  if (!looked_at_all_) {
    looked_at_all_ = true;
    return std::nullopt;
  }
  std::set<std::string> since = written_last_pass_;
  std::set<std::string> own = own_written_last_pass_;
  note(this_pass, since, own);
  for (const auto& name : own)
    if (since.count(name) == 0) skipped_.insert(name);
  return since;
}

void NodeProfileScope::pass_done(const std::vector<model::Write>& writes) {
  written_last_pass_.clear();
  own_written_last_pass_.clear();
  note(writes, written_last_pass_, own_written_last_pass_);
}

}  // namespace chaintwin::sim
