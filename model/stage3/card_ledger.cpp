// Card view join and Gate 3's per-card predicates.
#include "model/stage3/card_ledger.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include <map>

#include "model/credits.h"
#include "model/normalize_name.h"
#include "model/stage3/population.h"

namespace chaintwin::model {

std::string CardLedger::accelerator_key() const { return model::accelerator_key(manufacturer, group_id); }
std::string CardGroup::accelerator_key() const { return model::accelerator_key(manufacturer, id); }

bool CardLedger::serves_family(ResourceFamily family) const {
  switch (family) {
    case ResourceFamily::kPartitioned: return is_partitioned(capability);
    case ResourceFamily::kSliced: return is_logically_sliceable(capability);
    default: return is_whole_accelerator_capable(capability);
  }
}

int32_t CardLedger::free_slots() const { return logical_slots_free(capability, ledger.allocated_slices); }

int64_t CardLedger::free_shares() const {
  if (!is_whole_accelerator_capable(capability)) return 0;
  if (ledger.mode != DeviceAllocationMode::kNone && ledger.mode != DeviceAllocationMode::kShared) return 0;
  return int64_t{ledger.remaining} / kUnitsPerShare;
}

int64_t CardLedger::free_slice_units() const {
  if (!is_logically_sliceable(capability)) return -1;
  if (ledger.mode != DeviceAllocationMode::kNone && ledger.mode != DeviceAllocationMode::kSliced) return -1;
  if (free_slots() <= 0) return -1;
  return ledger.remaining;
}

std::vector<CardGroup> card_groups_of(const Devices& devices) {
  // Spec accelerators by id, the last one winning when an id repeats; one sorted vector of views
  // instead of a map of copied ids (this runs for every Node a Pod start or finish touches).
  std::vector<std::pair<std::string_view, const AcceleratorStatus*>> by_id;
  for (const auto& group : devices.spec.groups)
    for (const auto& acc : group.accelerators) by_id.emplace_back(acc.id, &acc.status);
  std::stable_sort(by_id.begin(), by_id.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  const auto capability_of = [&](const std::string& id) -> const AcceleratorStatus* {
    const auto it = std::upper_bound(by_id.begin(), by_id.end(), std::string_view(id),
                                     [](std::string_view v, const auto& e) { return v < e.first; });
    if (it == by_id.begin() || std::prev(it)->first != id) return nullptr;
    return std::prev(it)->second;  // the last of equal ids in spec order
  };
  std::vector<CardGroup> groups;
  groups.reserve(devices.status.groups.size());
  for (const auto& status_group : devices.status.groups) {
    CardGroup group{status_group.manufacturer, status_group.id, {}};
    group.cards.reserve(status_group.accelerators.size());
    for (const auto& row : status_group.accelerators) {
      CardLedger card;
      card.node = devices.metadata.name;
      card.manufacturer = status_group.manufacturer;
      card.group_id = status_group.id;
      if (const AcceleratorStatus* cap = capability_of(row.id)) card.capability = *cap;
      card.ledger = row;
      group.cards.push_back(std::move(card));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

std::vector<CardLedger> cards_of(const Devices& devices) {
  std::vector<CardLedger> cards;
  for (auto& group : card_groups_of(devices))
    for (auto& card : group.cards) cards.push_back(std::move(card));
  return cards;
}

}  // namespace chaintwin::model
