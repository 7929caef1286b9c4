#include <catch2/catch.hpp>

#include "viz/slot_map.h"

using chaintwin::viz::PlacedInstance;
using chaintwin::viz::slot_map;

TEST_CASE("partition instances are drawn at their memory-slice start and size on the card", "[viz][slots]") {
  // An H100 (8 memory slices) with a 3g.40gb at 4 and two 1g.10gb at 0 and 1.
  const auto map = slot_map(8, {{"3g.40gb", 4, 4, "", ""}, {"1g.10gb", 0, 1, "", ""}, {"1g.10gb", 1, 1, "", ""}});
  REQUIRE(map.instances.size() == 3);
  CHECK(map.instances[0].label == "1g.10gb");
  CHECK(map.instances[0].x0 == Approx(0.0));
  CHECK(map.instances[0].x1 == Approx(0.125));
  CHECK(map.instances[1].x0 == Approx(0.125));
  CHECK(map.instances[2].label == "3g.40gb");
  CHECK(map.instances[2].x0 == Approx(0.5));
  CHECK(map.instances[2].x1 == Approx(1.0));
  CHECK(map.free_slices == std::vector<int32_t>{2, 3});
  CHECK_FALSE(map.out_of_range);
  for (const auto& r : map.instances) CHECK_FALSE(r.conflict);
}

TEST_CASE("two instances on the same memory slice are both marked as a conflict", "[viz][slots]") {
  const auto map = slot_map(8, {{"4g.40gb", 0, 4, "", ""}, {"2g.20gb", 2, 2, "", ""}, {"1g.10gb", 6, 1, "", ""}});
  REQUIRE(map.instances.size() == 3);
  CHECK(map.instances[0].conflict);
  CHECK(map.instances[1].conflict);
  CHECK_FALSE(map.instances[2].conflict);
  CHECK(map.free_slices == std::vector<int32_t>{4, 5, 7});
}

TEST_CASE("an instance past the card's slices is clipped and flagged, and a card without slices holds none",
          "[viz][slots]") {
  const auto past = slot_map(8, {{"7g.80gb", 4, 8, "", ""}});
  CHECK(past.out_of_range);
  REQUIRE(past.instances.size() == 1);
  CHECK(past.instances[0].x1 == Approx(1.0));
  CHECK(slot_map(0, {}).instances.empty());
  CHECK(slot_map(0, {{"1g.10gb", 0, 1, "", ""}}).out_of_range);
}
