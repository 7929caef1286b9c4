#include <catch2/catch.hpp>

#include "viz/pool_order.h"

using namespace chaintwin::viz;

TEST_CASE("the pools table filters by name and sorts by a column with ties in name order", "[viz][pools]") {
  std::vector<PoolRow> pools(4);
  pools[0].cluster_queue = "gpustack--nvidia-tesla-t4";
  pools[0].display_name = "Tesla-T4";
  pools[0].nominal = 4;
  pools[0].reserved = 3;
  pools[1].cluster_queue = "gpustack--generic";
  pools[1].nominal = 0;
  pools[1].pending_demand = 7;
  pools[2].cluster_queue = "gpustack--nvidia-h100";
  pools[2].nominal = 8;
  pools[2].reserved = 2;
  pools[2].stop_policy = StopPolicy::kHoldAndDrain;
  pools[3].cluster_queue = "team-t4";
  pools[3].nominal = 8;
  pools[3].reserved = 2;
  struct Row {
    const char* filter;
    PoolSort sort;
    bool descending;
    std::vector<size_t> want;
  };
  const Row rows[] = {
      {"", PoolSort::kName, false, {1, 2, 0, 3}},
      {"", PoolSort::kName, true, {3, 0, 2, 1}},
      {"T4", PoolSort::kName, false, {0, 3}},        // case-insensitive, queue name
      {"tesla", PoolSort::kName, false, {0}},        // display name
      {"", PoolSort::kNominal, true, {2, 3, 0, 1}},  // ties (8, 8) by name
      {"", PoolSort::kUsage, true, {0, 2, 3, 1}},    // no quota last
      {"", PoolSort::kPending, true, {1, 2, 0, 3}},
      {"", PoolSort::kStopPolicy, true, {2, 1, 0, 3}},
      {"nothing", PoolSort::kName, false, {}},
  };
  for (const auto& row : rows) {
    INFO("filter '" << row.filter << "' sort " << static_cast<int>(row.sort) << (row.descending ? " desc" : " asc"));
    CHECK(pool_order(pools, row.filter, row.sort, row.descending) == row.want);
  }
}
