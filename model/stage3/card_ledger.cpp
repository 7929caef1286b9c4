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

bool card_serves_family(const AcceleratorStatus& capability, ResourceFamily family) {
  switch (family) {
    case ResourceFamily::kPartitioned: return is_partitioned(capability);
    case ResourceFamily::kSliced: return is_logically_sliceable(capability);
    default: return is_whole_accelerator_capable(capability);
  }
}

int32_t card_free_slots(const AcceleratorStatus& capability, const AcceleratorAllocation& ledger) {
  return logical_slots_free(capability, ledger.allocated_slices);
}

int64_t card_free_shares(const AcceleratorStatus& capability, const AcceleratorAllocation& ledger) {
  if (!is_whole_accelerator_capable(capability)) return 0;
  if (ledger.mode != DeviceAllocationMode::kNone && ledger.mode != DeviceAllocationMode::kShared) return 0;
  return int64_t{ledger.remaining} / kUnitsPerShare;
}

int64_t card_free_slice_units(const AcceleratorStatus& capability, const AcceleratorAllocation& ledger) {
  if (!is_logically_sliceable(capability)) return -1;
  if (ledger.mode != DeviceAllocationMode::kNone && ledger.mode != DeviceAllocationMode::kSliced) return -1;
  if (card_free_slots(capability, ledger) <= 0) return -1;
  return ledger.remaining;
}

bool CardLedger::serves_family(ResourceFamily family) const { return card_serves_family(capability, family); }
int32_t CardLedger::free_slots() const { return card_free_slots(capability, ledger); }
int64_t CardLedger::free_shares() const { return card_free_shares(capability, ledger); }
int64_t CardLedger::free_slice_units() const { return card_free_slice_units(capability, ledger); }

CardJoin::CardJoin(const Devices& devices) {
  // Spec accelerators by id in one sorted vector of views (stable: equal ids keep spec order).
  for (const auto& group : devices.spec.groups)
    for (const auto& acc : group.accelerators) by_id_.push_back({acc.id, {&acc, &group}});
  const auto by_id = [](const Entry& x, const Entry& y) { return x.id < y.id; };
  if (!std::is_sorted(by_id_.begin(), by_id_.end(), by_id)) std::stable_sort(by_id_.begin(), by_id_.end(), by_id);
}

CardJoin::SpecEntry CardJoin::spec_of(std::string_view id) const {
  const auto it = std::upper_bound(by_id_.begin(), by_id_.end(), id,
                                   [](std::string_view v, const Entry& e) { return v < e.id; });
  if (it == by_id_.begin() || std::prev(it)->id != id) return {};
  return std::prev(it)->spec;  // the last of equal ids in spec order
}

const AcceleratorStatus& CardJoin::capability_of(std::string_view id) const {
  static const AcceleratorStatus kNone;  // a row the spec does not list: no capability
  const SpecEntry found = spec_of(id);
  return found.accelerator == nullptr ? kNone : found.accelerator->status;
}

std::vector<CardGroup> card_groups_of(const Devices& devices, LedgerCopy copy) {
  const CardJoin join(devices);
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
      card.capability = join.capability_of(row.id);
      if (copy == LedgerCopy::kWhole) {
        card.ledger = row;
      } else {
        card.ledger.id = row.id;
        card.ledger.index = row.index;
        card.ledger.mode = row.mode;
        card.ledger.allocated = row.allocated;
        card.ledger.remaining = row.remaining;
        card.ledger.allocated_slices = row.allocated_slices;
        card.ledger.allocated_profiles = row.allocated_profiles;
        card.ledger.remaining_profiles = row.remaining_profiles;
      }
      group.cards.push_back(std::move(card));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

std::vector<CardLedger> cards_of(const Devices& devices, LedgerCopy copy) {
  std::vector<CardLedger> cards;
  for (auto& group : card_groups_of(devices, copy))
    for (auto& card : group.cards) cards.push_back(std::move(card));
  return cards;
}

}  // namespace chaintwin::model
