#include "viz/slot_map.h"

#include <algorithm>

namespace chaintwin::viz {

SlotMap slot_map(int32_t memory_slices, const std::vector<PlacedInstance>& instances) {
  SlotMap out;
  if (memory_slices <= 0) {
    out.out_of_range = !instances.empty();
    return out;
  }
  std::vector<int> cover(static_cast<size_t>(memory_slices), 0);
  std::vector<PlacedInstance> sorted = instances;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const PlacedInstance& a, const PlacedInstance& b) { return a.start < b.start; });
  for (const auto& inst : sorted)
    for (int32_t s = inst.start; s < inst.start + inst.length; ++s) {
      if (s < 0 || s >= memory_slices) {
        out.out_of_range = true;
        continue;
      }
      ++cover[static_cast<size_t>(s)];
    }
  const double width = static_cast<double>(memory_slices);
  for (const auto& inst : sorted) {
    SlotRect r;
    const int32_t lo = std::clamp(inst.start, 0, memory_slices);
    const int32_t hi = std::clamp(inst.start + inst.length, lo, memory_slices);
    r.x0 = lo / width;
    r.x1 = hi / width;
    r.label = inst.profile;
    for (int32_t s = lo; s < hi; ++s) r.conflict = r.conflict || cover[static_cast<size_t>(s)] > 1;
    out.instances.push_back(std::move(r));
  }
  for (int32_t s = 0; s < memory_slices; ++s)
    if (cover[static_cast<size_t>(s)] == 0) out.free_slices.push_back(s);
  return out;
}

}  // namespace chaintwin::viz
