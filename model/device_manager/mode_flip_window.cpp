#include "model/device_manager/mode_flip_window.h"

#include <algorithm>
#include <set>
#include <string>

#include "model/device_manager/device_inventory.h"
#include "model/stage3/population.h"

namespace chaintwin::model {

namespace {

const Accelerator* find_card(const Devices& devices, int32_t index) {
  if (index < 0) return nullptr;
  for (const auto& g : devices.spec.groups)
    for (const auto& a : g.accelerators)
      if (a.index == static_cast<uint32_t>(index)) return &a;
  return nullptr;
}

}  // namespace

Status check_mode_flip(const Devices& detected, const std::vector<int32_t>& cards, bool mig) {
  Devices scratch = detected;
  return set_card_partitioning(scratch, cards, mig);
}

std::vector<int32_t> flipped_cards(const Devices& detected, const std::vector<int32_t>& cards, bool mig) {
  std::set<int32_t> out;
  for (const int32_t c : cards) {
    const Accelerator* card = find_card(detected, c);
    if (card != nullptr && is_partitioned(card->status) != mig) out.insert(c);
  }
  return {out.begin(), out.end()};
}

std::vector<PendingModeFlip> merge_pending_flip(const Devices& detected, std::vector<PendingModeFlip> pending,
                                                const std::vector<int32_t>& cards, bool mig) {
  const std::set<int32_t> named(cards.begin(), cards.end());
  for (auto& p : pending)
    std::erase_if(p.cards, [&](int32_t c) { return named.count(c) > 0; });
  std::erase_if(pending, [](const PendingModeFlip& p) { return p.cards.empty(); });
  auto changed = flipped_cards(detected, cards, mig);
  if (!changed.empty()) pending.push_back({std::move(changed), mig});
  return pending;
}

Status check_allocation_in_flip_window(const std::vector<ContainerAllocation>& allocations,
                                       const std::vector<PendingModeFlip>& pending) {
  for (const auto& a : allocations) {
    for (const auto& p : pending) {
      if (std::find(p.cards.begin(), p.cards.end(), static_cast<int32_t>(a.index)) == p.cards.end()) continue;
      return err("Allocate failed due to card " + std::to_string(a.index) + " (" + a.accelerator + ") is in " +
                 (p.mig ? "MIG" : "logical") + " mode but its device plugin still registers it in " +
                 (p.mig ? "logical" : "MIG") + " mode until the device manager re-detects it, which is unexpected");
    }
  }
  return Ok{};
}

}  // namespace chaintwin::model
