// Group slicing summary (see sliced_detail.h).
#include "model/stage3/sliced_detail.h"

#include <map>
#include <string>

namespace chaintwin::model {

AcceleratorSlicedDetail aggregate_accelerator_sliced_detail(std::span<const Accelerator> accelerators) {
  AcceleratorSlicedDetail detail;
  std::map<std::string, size_t> index;  // profile name → position in detail.physical.profiles
  for (const auto& card : accelerators) {
    const auto& st = card.status;
    detail.logical.count += st.logical_sliced.count;
    if (st.logical_sliced.count > 0 && st.logical_sliced.cores_percentage_overcommit)
      detail.logical.cores_percentage_overcommit = true;
    detail.physical.count += st.physical_sliced.count;
    for (const auto& p : st.physical_sliced.profiles) {
      const auto [it, fresh] = index.try_emplace(p.name, detail.physical.profiles.size());
      if (fresh) detail.physical.profiles.push_back({p.name, p.count, p.memory_mib});
      else detail.physical.profiles[it->second].count += p.count;
    }
  }
  return detail;
}

void set_group_sliced_detail(DevicesGroup& group) {
  group.accelerator_sliced_detail = aggregate_accelerator_sliced_detail(group.accelerators);
}

}  // namespace chaintwin::model
