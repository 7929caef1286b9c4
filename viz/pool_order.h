// The order the pools table lists its rows in: filtered by a substring of the queue's name or
// display name (case-insensitive), sorted by a column, ties by name so the order is stable.
#pragma once

#include <string>
#include <vector>

#include "viz/snapshot.h"

namespace chaintwin::viz {

enum class PoolSort { kName, kFamily, kNominal, kUsage, kPending, kStopPolicy };

// Indexes into `pools`. kUsage sorts by reserved ÷ nominal (a pool without quota last).
std::vector<size_t> pool_order(const std::vector<PoolRow>& pools, const std::string& filter, PoolSort sort,
                               bool descending);

}  // namespace chaintwin::viz
