#include <catch2/catch.hpp>

#include "viz/bar_fill.h"

using chaintwin::viz::bar_fill;
using chaintwin::viz::BarFill;

TEST_CASE("a quota bar shows reserved, admitted and pending demand as fractions of the nominal quota", "[viz][bar]") {
  struct Row {
    const char* what;
    int64_t nominal, reserved, admitted, pending;
    BarFill want;
  };
  const Row rows[] = {
      {"idle pool", 1'600'000, 0, 0, 0, {0, 0, 0, false}},
      {"half reserved, a quarter admitted", 1'600'000, 800'000, 400'000, 0, {0.5, 0.25, 0, false}},
      {"pending demand fills what is left", 3'200'000, 1'600'000, 1'600'000, 800'000, {0.5, 0.5, 0.25, false}},
      {"pending demand past the quota is clipped and flagged", 1'600'000, 1'200'000, 0, 1'600'000, {0.75, 0, 0.25, true}},
      {"reserved past the quota (a shrunk pool) is clipped and flagged", 1'600'000, 3'200'000, 3'200'000, 0, {1, 1, 0, true}},
      {"admitted never exceeds reserved", 1'600'000, 400'000, 800'000, 0, {0.25, 0.25, 0, false}},
      {"a pool without quota and demand draws nothing", 0, 0, 0, 0, {0, 0, 0, false}},
      {"a pool without quota but with demand overflows", 0, 0, 0, 5, {0, 0, 1, true}},
      {"negative inputs read as zero", 1'600'000, -5, -5, -5, {0, 0, 0, false}},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const BarFill got = bar_fill(row.nominal, row.reserved, row.admitted, row.pending);
    CHECK(got.reserved == Approx(row.want.reserved));
    CHECK(got.admitted == Approx(row.want.admitted));
    CHECK(got.pending == Approx(row.want.pending));
    CHECK(got.over == row.want.over);
  }
}
