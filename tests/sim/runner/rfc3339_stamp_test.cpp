// The runner's write stamps (chain_sync.h rfc3339): simulated time 0 is 2026-01-01T00:00:00Z,
// whole seconds, floored, whatever was stamped before.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/runner/chain_sync.h"

namespace sim = chaintwin::sim;

TEST_CASE("write stamps name the simulated second, whatever second was stamped before", "[runner][rfc3339]") {
  struct Row {
    int64_t us;
    std::string text;
  };
  // Asked in this order: repeats, a step back, sub-second and negative times.
  const std::vector<Row> rows{
      {0, "2026-01-01T00:00:00Z"},
      {0, "2026-01-01T00:00:00Z"},
      {999'999, "2026-01-01T00:00:00Z"},
      {1'000'000, "2026-01-01T00:00:01Z"},
      {86'400'000'000, "2026-01-02T00:00:00Z"},
      {1'500'000, "2026-01-01T00:00:01Z"},
      {-1, "2025-12-31T23:59:59Z"},
      {-1'000'000, "2025-12-31T23:59:59Z"},
      {-1'000'001, "2025-12-31T23:59:58Z"},
      {0, "2026-01-01T00:00:00Z"},
  };
  for (const auto& r : rows) {
    INFO(r.us);
    CHECK(sim::rfc3339(sim::SimTime::micros(r.us)) == r.text);
  }
}
