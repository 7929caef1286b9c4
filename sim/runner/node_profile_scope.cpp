#include "sim/runner/node_profile_scope.h"

#include <string_view>

#include "model/stage4/node_topology_reconciler.h"

namespace chaintwin::sim {
namespace {

// The Nodes `writes` touch, split by whether stage 3 reads the write.
void note(const std::vector<model::WriteReceipt>& writes, std::set<std::string>& read, std::set<std::string>& blind) {
  for (const auto& w : writes)
    if (const std::string* name = NodeProfileScope::node_written(w))
      (NodeProfileScope::blind_to(w) ? blind : read).insert(*name);
}

}  // namespace

const std::string* NodeProfileScope::node_written(const model::WriteReceipt& w) {
  return w.kind == "Node" || w.kind == "Devices" ? &w.name : nullptr;
}

bool NodeProfileScope::blind_to(const model::WriteReceipt& w) {
  if (w.controller == "NodeProfile" || w.controller == "NodeCapacity") return true;
  return (w.controller == "NodeTopology" && w.kind == "Node") ||
         (w.controller == model::kNodeDevicesController && w.kind == "Devices");
}


std::optional<std::set<std::string>> NodeProfileScope::next(const std::vector<model::WriteReceipt>& this_pass) {
  skipped_.clear();
  if (!looked_at_all_) {
    looked_at_all_ = true;
    return std::nullopt;
  }
  std::set<std::string> since = written_last_pass_;
  std::set<std::string> blind = blind_written_last_pass_;
  note(this_pass, since, blind);
  for (const auto& name : blind)
    if (since.count(name) == 0) skipped_.insert(name);
  return since;
}

void NodeProfileScope::pass_done(const std::vector<model::WriteReceipt>& writes) {
  written_last_pass_.clear();
  blind_written_last_pass_.clear();
  note(writes, written_last_pass_, blind_written_last_pass_);
}

}  // namespace chaintwin::sim
