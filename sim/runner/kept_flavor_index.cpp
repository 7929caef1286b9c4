#include "sim/runner/kept_flavor_index.h"

#include <algorithm>

namespace chaintwin::sim {

const model::ScheduleFlavorIndex& KeptFlavorIndex::of(const model::ClusterState& state, std::size_t node_writes) {
  if (!index_ || node_writes != built_at_) {
    index_ = model::schedule_flavor_index(state);
    built_at_ = node_writes;
  }
  return *index_;
}

std::string KeptFlavorIndex::differs_from_rebuild(const model::ClusterState& state) const {
  if (!index_) return "";
  const model::ScheduleFlavorIndex fresh = model::schedule_flavor_index(state);
  if (fresh == *index_) return "";
  for (const auto& [name, contributors] : fresh) {
    const auto kept = index_->find(name);
    if (kept == index_->end()) return "the kept flavor index lacks " + name;
    if (kept->second != contributors) return "the kept flavor index differs for " + name;
  }
  return "the kept flavor index holds a flavor no Node feeds any more";
}

std::size_t node_writes_in(const std::vector<model::WriteReceipt>& writes) {
  return static_cast<std::size_t>(
      std::count_if(writes.begin(), writes.end(), [](const model::WriteReceipt& w) { return w.kind == "Node"; }));
}

}  // namespace chaintwin::sim
