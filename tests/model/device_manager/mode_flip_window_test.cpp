// The mode-flip window (model/device_manager/mode_flip_window.h, operator-domain §5.1, §10.16): the vendor tool's
// refusal of a busy card at flip time, which cards a flip changes, how flips pile up before the
// Device Manager re-detects, and which grants the hardware refuses in between.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/device_manager/device_inventory.h"
#include "model/device_manager/mode_flip_window.h"

namespace {

using namespace chaintwin;

model::Devices four_h100(std::vector<model::CardPartitioning> partitioning = {}) {
  model::AcceleratorInventory inv;
  inv.manufacturer = "nvidia";
  inv.product = "NVIDIA H100 80GB HBM3";
  inv.count = 4;
  inv.partitioning = std::move(partitioning);
  auto d = model::make_devices("node-h100", inv);
  REQUIRE(d.ok());
  return d.value();
}

model::ContainerAllocation on_card(uint32_t index) {
  model::ContainerAllocation a;
  a.container = "main";
  a.index = index;
  a.accelerator = "GPU-" + std::to_string(index);
  a.mode = model::DeviceAllocationMode::kExclusive;
  return a;
}

}  // namespace

TEST_CASE("The vendor tool refuses to flip a busy card and accepts an idle one", "[mode_flip]") {
  const model::Devices idle = four_h100();
  model::Devices busy = idle;
  busy.status.groups[0].accelerators[0].allocated = 1;
  busy.status.groups[0].accelerators[0].mode = model::DeviceAllocationMode::kExclusive;
  struct Row {
    const char* what;
    const model::Devices* devices;
    std::vector<int32_t> cards;
    bool mig;
    std::string error;  // "" = accepted
  };
  const std::vector<Row> table{
      {"idle cards to MIG", &idle, {0, 1}, true, ""},
      {"a busy card to MIG", &busy, {0}, true, "card 0 is in use (mode Exclusive)"},
      {"a busy card already in the target mode", &busy, {0}, false, ""},
      {"an idle card beside the busy one", &busy, {1}, true, ""},
      {"a card the node does not have", &idle, {9}, true, "has no accelerator index 9"},
  };
  for (const auto& row : table) {
    INFO(row.what);
    const model::Devices before = *row.devices;
    const auto s = model::check_mode_flip(*row.devices, row.cards, row.mig);
    CHECK(s.ok() == row.error.empty());
    if (!row.error.empty() && !s.ok()) CHECK_THAT(s.error(), Catch::Contains(row.error));
    CHECK(*row.devices == before);
  }
}

TEST_CASE("A flip changes only the cards not already in its mode", "[mode_flip]") {
  model::CardPartitioning card3_mig;
  card3_mig.cards = {3};
  card3_mig.mig = true;
  const model::Devices devices = four_h100({card3_mig});
  struct Row {
    std::vector<int32_t> cards;
    bool mig;
    std::vector<int32_t> want;
  };
  const std::vector<Row> table{
      {{0, 1}, true, {0, 1}},
      {{1, 0, 1}, true, {0, 1}},
      {{2, 3}, true, {2}},
      {{2, 3}, false, {3}},
      {{3}, true, {}},
  };
  for (const auto& row : table) {
    INFO("cards " << row.cards.size() << " to " << (row.mig ? "mig" : "logical"));
    CHECK(model::flipped_cards(devices, row.cards, row.mig) == row.want);
  }
}

TEST_CASE("Flips pending on a node keep each card's newest mode", "[mode_flip]") {
  const model::Devices devices = four_h100();
  auto pending = model::merge_pending_flip(devices, {}, {0, 1}, true);
  CHECK(pending == std::vector<model::PendingModeFlip>{{{0, 1}, true}});
  pending = model::merge_pending_flip(devices, pending, {2}, true);
  CHECK(pending == std::vector<model::PendingModeFlip>{{{0, 1}, true}, {{2}, true}});
  // Card 1 back to logical (its detected mode): no longer pending.
  pending = model::merge_pending_flip(devices, pending, {1}, false);
  CHECK(pending == std::vector<model::PendingModeFlip>{{{0}, true}, {{2}, true}});
  pending = model::merge_pending_flip(devices, pending, {0, 2}, false);
  CHECK(pending.empty());
}

TEST_CASE("In the window a grant on a flipped card fails with the kubelet's UnexpectedAdmissionError message",
          "[mode_flip]") {
  const std::vector<model::PendingModeFlip> pending{{{0, 1}, true}};
  struct Row {
    const char* what;
    std::vector<model::ContainerAllocation> grant;
    std::vector<model::PendingModeFlip> pending;
    bool ok;
  };
  const std::vector<Row> table{
      {"card 0, flipped", {on_card(0)}, pending, false},
      {"card 2, not flipped", {on_card(2)}, pending, true},
      {"cards 2 and 1, one flipped", {on_card(2), on_card(1)}, pending, false},
      {"nothing pending", {on_card(0)}, {}, true},
      {"no accelerator granted", {}, pending, true},
  };
  for (const auto& row : table) {
    INFO(row.what);
    const auto s = model::check_allocation_in_flip_window(row.grant, row.pending);
    CHECK(s.ok() == row.ok);
    if (!s.ok()) {
      CHECK_THAT(s.error(), Catch::StartsWith("Allocate failed due to card "));
      CHECK_THAT(s.error(), Catch::EndsWith(", which is unexpected"));
      CHECK_THAT(s.error(), Catch::Contains("is in MIG mode"));
    }
  }
}
