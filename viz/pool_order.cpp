#include "viz/pool_order.h"

#include <algorithm>
#include <tuple>

#include "viz/text_match.h"

namespace chaintwin::viz {
namespace {

double usage_ratio(const PoolRow& p) {
  return p.nominal > 0 ? static_cast<double>(p.reserved) / static_cast<double>(p.nominal) : -1.0;
}

}  // namespace

std::vector<size_t> pool_order(const std::vector<PoolRow>& pools, const std::string& filter, PoolSort sort,
                               bool descending) {
  std::vector<size_t> out;
  const Needle needle(filter);
  for (size_t i = 0; i < pools.size(); ++i)
    if (needle.in(pools[i].cluster_queue) || needle.in(pools[i].display_name)) out.push_back(i);
  auto key = [&](size_t i) -> double {
    const PoolRow& p = pools[i];
    switch (sort) {
      case PoolSort::kName: return 0;
      case PoolSort::kFamily: return static_cast<double>(p.family);
      case PoolSort::kNominal: return static_cast<double>(p.nominal);
      case PoolSort::kUsage: return usage_ratio(p);
      case PoolSort::kPending: return static_cast<double>(p.pending_demand);
      case PoolSort::kStopPolicy: return static_cast<double>(p.stop_policy);
    }
    return 0;
  };
  std::stable_sort(out.begin(), out.end(), [&](size_t a, size_t b) {
    const double ka = key(a), kb = key(b);
    if (ka != kb) return descending ? ka > kb : ka < kb;
    const int c = pools[a].cluster_queue.compare(pools[b].cluster_queue);
    return sort == PoolSort::kName && descending ? c > 0 : c < 0;
  });
  return out;
}

}  // namespace chaintwin::viz
