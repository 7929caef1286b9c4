#include "model/stage3/reject_divergent_group_profiles.h"

#include <algorithm>
#include <map>
#include <set>

namespace chaintwin::model {

std::vector<std::string> reject_divergent_group_profiles(DevicesGroup& group) {
  std::map<std::string, AcceleratorPhysicalSlicedProfile> first;
  std::set<std::string> divergent;
  std::vector<std::string> rejected;
  for (const Accelerator& card : group.accelerators) {
    for (const AcceleratorPhysicalSlicedProfile& p : card.status.physical_sliced.profiles) {
      const auto [it, inserted] = first.emplace(p.name, p);
      if (inserted || divergent.count(p.name) > 0 || it->second == p) continue;
      divergent.insert(p.name);
      rejected.push_back("profile \"" + p.name + "\" on card " + card.id +
                         " differs (memory, slices, count or placements) from another card of group " + group.id +
                         "; withheld from the whole group");
    }
  }
  if (divergent.empty()) return rejected;

  for (Accelerator& card : group.accelerators) {
    AcceleratorPhysicalSliced& sliced = card.status.physical_sliced;
    std::erase_if(sliced.profiles, [&](const AcceleratorPhysicalSlicedProfile& p) { return divergent.count(p.name) > 0; });
    sliced.count = 0;
    for (const auto& p : sliced.profiles) sliced.count = std::max(sliced.count, p.count);
  }
  return rejected;
}

}  // namespace chaintwin::model
