#include <catch2/catch.hpp>

#include <vector>

#include "model/stage3/sliced_detail.h"

using namespace chaintwin::model;

namespace {
Accelerator logical(int32_t count, bool overcommit) {
  Accelerator a;
  a.status.logical_sliced = {overcommit, count};
  return a;
}
Accelerator physical(std::vector<AcceleratorPhysicalSlicedProfile> profiles, int32_t count) {
  Accelerator a;
  a.status.physical_sliced = {std::move(profiles), count};
  return a;
}
}  // namespace

TEST_CASE("a group's sliced detail sums logical slices and takes overcommit from sliceable cards", "[sliced_detail]") {
  const std::vector<Accelerator> cards{logical(128, true), logical(0, true), logical(128, false)};
  const auto d = aggregate_accelerator_sliced_detail(cards);
  CHECK(d.logical.count == 256);
  CHECK(d.logical.cores_percentage_overcommit);
  // A card with no logical slices does not lend its flag.
  const std::vector<Accelerator> none{logical(0, true), logical(4, false)};
  CHECK_FALSE(aggregate_accelerator_sliced_detail(none).logical.cores_percentage_overcommit);
}

TEST_CASE("a group's physical profiles sum by name in first-seen order with the first memory", "[sliced_detail]") {
  const std::vector<Accelerator> cards{
      physical({{"1g.10gb", 10240, 1, 1, 7, {}}, {"7g.80gb", 81920, 7, 8, 1, {}}}, 7),
      physical({{"7g.80gb", 99999, 7, 8, 1, {}}, {"2g.20gb", 20480, 2, 2, 3, {}}}, 7),
  };
  DevicesGroup group;
  group.accelerators = cards;
  set_group_sliced_detail(group);
  const auto& d = group.accelerator_sliced_detail;
  CHECK(d.physical.count == 14);
  REQUIRE(d.physical.profiles.size() == 3);
  CHECK(d.physical.profiles[0] == AcceleratorSlicedPhysicalDetailProfile{"1g.10gb", 7, 10240});
  CHECK(d.physical.profiles[1] == AcceleratorSlicedPhysicalDetailProfile{"7g.80gb", 2, 81920});
  CHECK(d.physical.profiles[2] == AcceleratorSlicedPhysicalDetailProfile{"2g.20gb", 3, 20480});
}
