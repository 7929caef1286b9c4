// Card view join and Gate 3's per-card predicates.
#include "model/stage3/card_ledger.h"

#include <algorithm>
#include <cstring>
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

int32_t card_free_slots(const AcceleratorStatus& capability, const CardFigures& ledger) {
  return logical_slots_free(capability, ledger.allocated_slices);
}

int64_t card_free_shares(const AcceleratorStatus& capability, const CardFigures& ledger) {
  if (!is_whole_accelerator_capable(capability)) return 0;
  if (ledger.mode != DeviceAllocationMode::kNone && ledger.mode != DeviceAllocationMode::kShared) return 0;
  return int64_t{ledger.remaining} / kUnitsPerShare;
}

int64_t card_free_slice_units(const AcceleratorStatus& capability, const CardFigures& ledger) {
  if (!is_logically_sliceable(capability)) return -1;
  if (ledger.mode != DeviceAllocationMode::kNone && ledger.mode != DeviceAllocationMode::kSliced) return -1;
  if (card_free_slots(capability, ledger) <= 0) return -1;
  return ledger.remaining;
}

bool CardLedger::serves_family(ResourceFamily family) const { return card_serves_family(capability, family); }
int32_t CardLedger::free_slots() const { return card_free_slots(capability, ledger); }
int64_t CardLedger::free_shares() const { return card_free_shares(capability, ledger); }
int64_t CardLedger::free_slice_units() const { return card_free_slice_units(capability, ledger); }

namespace {

// An id's length with its last (up to) eight bytes: two ids that differ there differ, so the
// repeated-id check compares text only where the prints agree.
uint64_t id_fingerprint(std::string_view id) {
  uint64_t tail = 0;
  if (id.size() >= sizeof tail) std::memcpy(&tail, id.data() + id.size() - sizeof tail, sizeof tail);
  else std::memcpy(&tail, id.data(), id.size());
  return tail ^ (uint64_t{id.size()} * 0x9E3779B97F4A7C15ULL);
}

}  // namespace

CardJoin::CardJoin(const Devices& devices) {
  for (const auto& group : devices.spec.groups)
    for (const auto& acc : group.accelerators) spec_.push_back({acc.id, {&acc, &group}, id_fingerprint(acc.id), false});
  // Repeated ids, pair by pair (a Node has a few cards): the prints first, the text where they agree.
  for (std::size_t i = 0; i < spec_.size(); ++i)
    for (std::size_t j = i + 1; j < spec_.size(); ++j)
      if (spec_[i].fingerprint == spec_[j].fingerprint && spec_[i].id == spec_[j].id)
        spec_[i].repeated = spec_[j].repeated = true;
}

CardJoin::SpecEntry CardJoin::spec_of(std::string_view id) const {
  if (next_ < spec_.size() && !spec_[next_].repeated && spec_[next_].id == id) return spec_[next_++].spec;
  return search(id);
}

CardJoin::SpecEntry CardJoin::search(std::string_view id) const {
  if (by_id_.size() != spec_.size()) {
    // Positions by id, stable (equal ids keep spec order): an insertion sort, as a Node has a few
    // cards and it needs no buffer.
    by_id_.clear();
    for (uint32_t i = 0; i < spec_.size(); ++i) {
      by_id_.push_back(i);
      for (std::size_t j = by_id_.size() - 1; j > 0 && spec_[i].id < spec_[by_id_[j - 1]].id; --j)
        std::swap(by_id_[j], by_id_[j - 1]);
    }
  }
  const auto it = std::upper_bound(by_id_.begin(), by_id_.end(), id,
                                   [&](std::string_view v, uint32_t e) { return v < spec_[e].id; });
  if (it == by_id_.begin() || spec_[*std::prev(it)].id != id) return {};
  const uint32_t found = *std::prev(it);  // the last of equal ids in spec order
  next_ = found + 1;
  return spec_[found].spec;
}

const AcceleratorStatus& CardJoin::capability_of(std::string_view id) const {
  static const AcceleratorStatus kNone;  // a row the spec does not list: no capability
  const SpecEntry found = spec_of(id);
  return found.accelerator == nullptr ? kNone : found.accelerator->status;
}

namespace {

// One status row joined with its capability, copied as `copy` says.
CardLedger card_of(const Devices& devices, const DevicesAllocationGroup& status_group, const AcceleratorAllocation& row,
                   const CardJoin& join, LedgerCopy copy) {
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
  return card;
}

}  // namespace

std::vector<CardGroup> card_groups_of(const Devices& devices, LedgerCopy copy) {
  const CardJoin join(devices);
  std::vector<CardGroup> groups;
  groups.reserve(devices.status.groups.size());
  for (const auto& status_group : devices.status.groups) {
    CardGroup group{status_group.manufacturer, status_group.id, {}};
    group.cards.reserve(status_group.accelerators.size());
    for (const auto& row : status_group.accelerators) group.cards.push_back(card_of(devices, status_group, row, join, copy));
    groups.push_back(std::move(group));
  }
  return groups;
}

std::vector<CardLedger> cards_of(const Devices& devices, LedgerCopy copy) {
  // Built flat (not through card_groups_of and moved again): Gate 3 asks for it on every check.
  const CardJoin join(devices);
  std::size_t count = 0;
  for (const auto& status_group : devices.status.groups) count += status_group.accelerators.size();
  std::vector<CardLedger> cards;
  cards.reserve(count);
  for (const auto& status_group : devices.status.groups)
    for (const auto& row : status_group.accelerators) cards.push_back(card_of(devices, status_group, row, join, copy));
  return cards;
}

}  // namespace chaintwin::model
