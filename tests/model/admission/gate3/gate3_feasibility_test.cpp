#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/stage3/card_ledger.h"
#include "model/credits.h"
#include "model/admission/gate3/gate3_feasibility.h"
#include "model/catalog/manufacturer.h"

namespace {

using namespace chaintwin::model;

constexpr int32_t kM = 1'600'000;
constexpr int32_t pct(int32_t p) { return p * 16'000; }

// A card built from what the test cares about; everything else defaulted.
struct CardSpec {
  int32_t remaining = kM;
  DeviceAllocationMode mode = DeviceAllocationMode::kNone;
  int32_t logical = 10;  // logicalSliced.count
  int32_t physical = 0;  // physicalSliced.count
  int32_t slices = 0;    // allocatedSlices
  std::vector<AcceleratorProfileCount> remaining_profiles = {};
};

std::vector<CardLedger> cards(const std::vector<CardSpec>& specs, const std::string& manufacturer = "nvidia") {
  std::vector<CardLedger> out;
  uint32_t i = 0;
  for (const auto& s : specs) {
    CardLedger c;
    c.node = "node-a";
    c.manufacturer = manufacturer;
    c.group_id = "g";
    c.capability.logical_sliced.count = s.logical;
    c.capability.physical_sliced.count = s.physical;
    c.ledger.id = "card-" + std::to_string(i);
    c.ledger.index = i++;
    c.ledger.mode = s.mode;
    c.ledger.remaining = s.remaining;
    c.ledger.allocated_slices = s.slices;
    c.ledger.remaining_profiles = s.remaining_profiles;
    out.push_back(c);
  }
  return out;
}

FamilyDemand exclusive(int32_t n) { return {ResourceFamily::kExclusive, n, 0, "", {}, "", {}}; }
FamilyDemand shared(int32_t n) { return {ResourceFamily::kShared, n, 0, "", {}, "", {}}; }
FamilyDemand sliced(int32_t n, int64_t units) { return {ResourceFamily::kSliced, n, units, "", {}, "", {}}; }
FamilyDemand partition(int32_t n, std::string profile) {
  return {ResourceFamily::kPartitioned, n, 0, std::move(profile), {}, "", {}};
}

bool ready(const std::vector<CardSpec>& specs, std::vector<FamilyDemand> demands) {
  return node_devices_feasibility(cards(specs), std::move(demands)).ready();
}

}  // namespace

TEST_CASE("two 30 % slices share a card but two 60 % do not", "[gate3]") {
  CHECK(ready({{}}, {sliced(2, pct(30))}));
  CHECK_FALSE(ready({{}}, {sliced(2, pct(60))}));
  CHECK(ready({{}, {}}, {sliced(2, pct(60))}));
}

TEST_CASE("a Hygon card with 4 slices takes no 5th", "[gate3]") {
  const int32_t hygon_slots = find_manufacturer("hygon")->slices_per_accelerator;
  REQUIRE(hygon_slots == 4);
  auto full = cards({{kM / 2, DeviceAllocationMode::kSliced, hygon_slots, 0, 4}}, "hygon");
  const auto verdict = node_devices_feasibility(full, {sliced(1, pct(1))});
  CHECK(verdict.state == Gate3State::kRetry);
  CHECK(verdict.retry_after_seconds == kGate3RetryAfterSeconds);
  auto three = cards({{kM / 2, DeviceAllocationMode::kSliced, hygon_slots, 0, 3}}, "hygon");
  CHECK(node_devices_feasibility(three, {sliced(1, pct(1))}).ready());
  // Slots this Workload takes itself count too: one slot left holds one slice, not two.
  CHECK_FALSE(node_devices_feasibility(three, {sliced(2, pct(1))}).ready());
}

TEST_CASE("a slice goes to the fullest card that still fits it", "[gate3]") {
  CardBudget budget(cards({{kM}, {pct(40)}, {pct(60)}}));
  REQUIRE(budget.fit(sliced(1, pct(40))).ready());
  CHECK(budget.cards()[1].ledger.remaining == 0);  // the 40 % card, not the free one
  CHECK(budget.cards()[1].ledger.allocated_slices == 1);
  CHECK(budget.cards()[1].ledger.mode == DeviceAllocationMode::kSliced);
  REQUIRE(budget.fit(sliced(1, pct(50))).ready());
  CHECK(budget.cards()[2].ledger.remaining == pct(10));  // 60 % before the free card
  CHECK(budget.cards()[0].ledger.remaining == kM);
}

TEST_CASE("a template-built slice with no units fits any card with a free slot", "[gate3]") {
  CHECK(ready({{0, DeviceAllocationMode::kSliced, 10, 0, 3}}, {sliced(1, 0)}));
  CHECK_FALSE(ready({{kM, DeviceAllocationMode::kSliced, 10, 0, 10}}, {sliced(1, 0)}));
}

TEST_CASE("exclusive needs distinct whole untouched cards", "[gate3]") {
  const CardSpec half{kM / 2, DeviceAllocationMode::kSliced};
  struct Row {
    const char* name;
    std::vector<CardSpec> cards;
    int32_t want;
    bool ready;
  };
  const std::vector<Row> rows = {
      {"eight half-sliced cards hold five exclusive", {half, half, half, half, half, half, half, half}, 5, false},
      {"five whole cards beside three sliced ones are enough", {{}, {}, {}, {}, {}, half, half, half}, 5, true},
      {"four whole cards are one short", {{}, {}, {}, {}}, 5, false},
      {"a partitioned card is no whole card", {{kM, DeviceAllocationMode::kNone, 0, 7}}, 1, false},
      {"a card untouched but reporting less than M is not whole", {{kM - 1}}, 1, false},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    CHECK(ready(row.cards, {exclusive(row.want)}) == row.ready);
  }
}

TEST_CASE("shared needs N distinct cards with a free share each", "[gate3]") {
  const CardSpec share{pct(10), DeviceAllocationMode::kShared};
  CHECK(ready({share, share, {0, DeviceAllocationMode::kExclusive}}, {shared(2)}));
  CHECK_FALSE(ready({share, {pct(9)}, {0, DeviceAllocationMode::kExclusive}}, {shared(2)}));
  CHECK_FALSE(ready({{kM, DeviceAllocationMode::kSliced}}, {shared(1)}));  // a sliced card grants no share
  // Two holders of two cards each fit on two cards: a card grants one share to each holder.
  FamilyDemand two_holders = shared(4);
  two_holders.shared_holders = {{2, 2}};
  CHECK(ready({{pct(20)}, {pct(20)}}, {two_holders}));
  CHECK_FALSE(ready({{pct(20)}, {pct(10)}}, {two_holders}));
}

TEST_CASE("shared spends the cards with the most free shares first", "[gate3]") {
  CardBudget budget(cards({{pct(10)}, {pct(50)}, {pct(30)}}));
  REQUIRE(budget.fit(shared(2)).ready());
  CHECK(budget.cards()[0].ledger.remaining == pct(10));
  CHECK(budget.cards()[1].ledger.remaining == pct(40));
  CHECK(budget.cards()[2].ledger.remaining == pct(20));
  CHECK(budget.cards()[1].ledger.mode == DeviceAllocationMode::kShared);
}

TEST_CASE("partition instances take placements against the remaining profiles", "[gate3]") {
  const CardSpec mig{kM, DeviceAllocationMode::kNone, 0, 7, 0, {{"1g.10gb", 3}}};
  CHECK(ready({mig}, {partition(3, "1g.10gb")}));
  CHECK_FALSE(ready({mig}, {partition(4, "1g.10gb")}));
  CHECK(ready({mig, mig}, {partition(4, "1g.10gb")}));
  CardSpec held = mig;
  held.mode = DeviceAllocationMode::kExclusive;
  CHECK_FALSE(ready({held}, {partition(1, "1g.10gb")}));

  const auto none = node_devices_feasibility(cards({{}}), {partition(1, "1g.10gb")});
  CHECK_FALSE(none.ready());
  CHECK_THAT(none.message, Catch::Contains("no partitioned accelerator"));
  const auto unready = node_devices_feasibility(cards({{kM, DeviceAllocationMode::kNone, 0, 7}}), {partition(1, "1g.10gb")});
  CHECK_THAT(unready.message, Catch::Contains("not ready"));
}

TEST_CASE("a T-Head demand in the published spelling reads the vendor ledger", "[gate3]") {
  const auto ppu = cards({{kM, DeviceAllocationMode::kNone, 0, 4, 0, {{"2g24gb", 2}}}}, "thead");
  CHECK(node_devices_feasibility(ppu, {partition(2, "2g.24gb")}).ready());
}

TEST_CASE("demands sort partitioned first, then by descending per-card units", "[gate3]") {
  std::vector<FamilyDemand> demands = {exclusive(1), sliced(1, pct(10)), partition(1, "1g.10gb"), sliced(1, pct(50))};
  sort_demands(demands);
  CHECK(demands[0].family == ResourceFamily::kPartitioned);
  CHECK(demands[1].units_per_card == pct(50));
  CHECK(demands[2].units_per_card == pct(10));
  CHECK(demands[3].family == ResourceFamily::kExclusive);
}

TEST_CASE("two demands of one Workload never spend the same card twice", "[gate3]") {
  CHECK_FALSE(ready({{}}, {exclusive(1), sliced(1, pct(10))}));
  CHECK(ready({{}, {}}, {exclusive(1), sliced(1, pct(10))}));
  CHECK_FALSE(ready({{}}, {shared(1), sliced(1, pct(10))}));  // a card is shared or sliced, not both
}

TEST_CASE("a failed demand leaves the budget untouched", "[gate3]") {
  CardBudget budget(cards({{}, {}}));
  CHECK_FALSE(budget.fit(exclusive(3)).ready());
  CHECK(budget.cards()[0].ledger.remaining == kM);
  CHECK(budget.fit(exclusive(2)).ready());
}

TEST_CASE("a demand that falls short after granting part of itself leaves every card as it was", "[gate3]") {
  const CardSpec mig{kM, DeviceAllocationMode::kNone, 0, 7, 0, {{"1g.10gb", 2}}};
  FamilyDemand holders = shared(2);
  holders.shared_holders = {{2, 10}};  // ten holders of two cards; the tenth finds one card full
  struct Row {
    const char* what;
    std::vector<CardSpec> cards;
    FamilyDemand granted;  // fitted first and kept
    FamilyDemand short_of;  // grants part of itself, then falls short
  };
  const std::vector<Row> rows{
      {"exclusive", {{}, {}, {}}, exclusive(1), exclusive(3)},
      {"shared holders", {{}, {}}, shared(1), holders},
      {"slices", {{}, {kM - pct(50), DeviceAllocationMode::kSliced, 10, 0, 1}}, sliced(1, pct(20)), sliced(3, pct(60))},
      {"partition placements", {mig, mig}, partition(1, "1g.10gb"), partition(4, "1g.10gb")},
  };
  for (const auto& row : rows) {
    SECTION(row.what) {
      CardBudget budget(cards(row.cards));
      REQUIRE(budget.fit(row.granted).ready());
      const std::vector<CardLedger> before = budget.cards();
      const std::vector<int32_t> placements = budget.placements_given();
      CHECK_FALSE(budget.fit(row.short_of).ready());
      CHECK(budget.cards() == before);
      CHECK(budget.placements_given() == placements);
    }
  }
}

TEST_CASE("a Retry names the starved role and what is short", "[gate3]") {
  FamilyDemand d = exclusive(2);
  d.pod_sets = {"decode"};
  const auto verdict = node_devices_feasibility(cards({{}}), {d});
  CHECK(verdict.state == Gate3State::kRetry);
  CHECK(verdict.message ==
        "the exclusive demand for role \"decode\" needs 2 whole free accelerator(s), only 1 on node node-a; "
        "will retry as capacity frees");
  CHECK(node_devices_feasibility(cards({{}}), {}).ready());
}

TEST_CASE("a demand scoped to a model ignores other models' cards", "[gate3]") {
  auto mixed = cards({{}, {}});
  mixed[1].group_id = "l4";
  FamilyDemand d = exclusive(2);
  d.accelerator_key = "nvidia-g";
  CHECK_FALSE(node_devices_feasibility(mixed, {d}).ready());
  d.accelerators = 1;
  CHECK(node_devices_feasibility(mixed, {d}).ready());
}
