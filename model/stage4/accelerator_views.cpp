// The four accelerator views (instance_type.go getAcceleratorResources / poolPartitionView),
// with the SH onceMaxRequest read the way the docs now define it.
#include "model/normalize_name.h"
#include "model/stage4/accelerator_views.h"

#include <algorithm>
#include <map>
#include <optional>

#include "model/stage3/card_ledger.h"
#include "model/credits.h"
#include "model/catalog/partition_geometry.h"
#include "model/stage3/population.h"
#include "model/catalog/profile_names.h"

namespace chaintwin::model {
namespace {

constexpr int64_t kPercentPerCard = 100;

struct UnpartitionedTotals {
  int64_t cards = 0, sliceable_cards = 0;
  int64_t free_cards = 0, shares = 0, share_cards = 0, percent = 0;
  int64_t freest_card_percent = 0;
};

// One node's unpartitioned cards of the group, read from the status ledger joined with the
// capability of the same card (in place: the join is built only for a Node with the group).
UnpartitionedTotals unpartitioned_totals(const Devices& devices, std::string_view accelerator_group) {
  UnpartitionedTotals t;
  std::optional<CardJoin> join;
  for (const auto& group : devices.status.groups) {
    if (!is_accelerator_key(accelerator_group, group.manufacturer, group.id)) continue;
    if (!join) join.emplace(devices);
    for (const auto& row : group.accelerators) {
      const AcceleratorStatus& capability = join->capability_of(row.id);
      if (is_partitioned(capability)) continue;  // counted by the partition side
      ++t.cards;
      const int64_t remaining = row.remaining;
      const bool free = remaining >= kUnitsPerAccelerator;
      if (free) ++t.free_cards;
      if (free || row.mode == DeviceAllocationMode::kShared) {
        const int64_t shares = remaining / kUnitsPerShare;
        t.shares += shares;
        if (shares > 0) ++t.share_cards;
      }
      // A card reporting neither capability is a whole card and nothing else: no slice view.
      if (!is_logically_sliceable(capability)) continue;
      ++t.sliceable_cards;
      if (free || row.mode == DeviceAllocationMode::kSliced) {
        const int64_t percent = remaining / kUnitsPerMemoryPercent;
        t.percent += percent;
        t.freest_card_percent = std::max(t.freest_card_percent, percent);
      }
    }
  }
  return t;
}

// The ledger's own published per-profile counts, used only when the placement model refuses
// the row's live instances: the operator itself reads these counts and never the placements.
CardPartitionView view_from_published_counts(std::string_view manufacturer, const AcceleratorStatus& capability,
                                             const AcceleratorAllocation& row) {
  auto count_of = [](const std::vector<AcceleratorProfileCount>& counts, const std::string& name) {
    int32_t n = 0;
    for (const auto& c : counts)
      if (c.name == name) n += c.count;
    return n;
  };
  CardPartitionView view;
  for (const auto& p : capability.physical_sliced.profiles) {
    const int32_t allocated = count_of(row.allocated_profiles, p.name);
    const int32_t remaining = count_of(row.remaining_profiles, p.name);
    view.profiles.push_back({p.name, publish_partitioned_profile_name(manufacturer, p.name), true, allocated, remaining});
    view.allocated_total += allocated;
    view.max_remaining = std::max(view.max_remaining, remaining);
    view.ceiling = std::max(view.ceiling, p.count);
  }
  return view;
}

const AcceleratorAllocation* ledger_row(const Devices& devices, std::string_view accelerator_group,
                                        const std::string& card_id) {
  for (const auto& group : devices.status.groups) {
    if (!is_accelerator_key(accelerator_group, group.manufacturer, group.id)) continue;
    for (const auto& row : group.accelerators)
      if (row.id == card_id) return &row;
  }
  return nullptr;
}

// One node's partitioned cards of the group, enumerated from the capability side so a card
// whose ledger row is missing (or not rebuilt yet) still counts, at its catalog ceilings.
void add_partitioned_cards(const Devices& devices, std::string_view accelerator_group,
                           std::vector<CardPartitionView>& cards, std::vector<std::string>& notes) {
  for (const auto& group : devices.spec.groups) {
    if (!is_accelerator_key(accelerator_group, group.manufacturer, group.id)) continue;
    for (const auto& acc : group.accelerators) {
      if (!is_partitioned(acc.status)) continue;
      const auto geometry = geometry_from_capability(group.manufacturer, acc.status.physical_sliced);
      const AcceleratorAllocation* row = ledger_row(devices, accelerator_group, acc.id);
      auto view = card_view_from_ledger(geometry, row);
      if (view.ok()) {
        cards.push_back(std::move(*view));
        continue;
      }
      notes.push_back(devices.metadata.name + " card " + acc.id + ": " + view.error() +
                      "; counted from the ledger's published per-profile counts");
      cards.push_back(view_from_published_counts(group.manufacturer, acc.status, *row));
    }
  }
}

InstanceTypeCapacityView view_of(int64_t capacity, int64_t once_max_request, int64_t remaining) {
  return {capacity, once_max_request, remaining};
}

}  // namespace

AcceleratorViews accelerator_views(const std::vector<const Devices*>& pool, std::string_view accelerator_group) {
  AcceleratorViews out;
  int64_t cards = 0, sliceable = 0, free_cards = 0, shares = 0, percent = 0;
  int64_t once_exclusive = 0, once_shared = 0, once_sliced = 0;
  std::vector<CardPartitionView> partitioned;
  for (const Devices* devices : pool) {
    if (devices == nullptr) continue;
    const auto t = unpartitioned_totals(*devices, accelerator_group);
    cards += t.cards;
    sliceable += t.sliceable_cards;
    free_cards += t.free_cards;
    shares += t.shares;
    percent += t.percent;
    once_exclusive = std::max(once_exclusive, t.free_cards);
    once_shared = std::max(once_shared, t.share_cards);
    once_sliced = std::max(once_sliced, t.freest_card_percent);
    add_partitioned_cards(*devices, accelerator_group, partitioned, out.notes);
  }
  out.exclusive = view_of(cards, once_exclusive, free_cards);
  out.shared = view_of(cards * kSharesPerAccelerator, once_shared, shares);
  out.sliced = view_of(sliceable * kPercentPerCard, once_sliced, percent);

  const auto summary = summarize_partitioned_cards(partitioned);
  out.partitioned.view = view_of(summary.pt_capacity, summary.once_max_request, summary.pt_remaining);
  for (const auto& card : partitioned) {
    for (const auto& p : card.profiles) {
      if (!p.offered) continue;
      out.partitioned.remaining_profiles[p.published] += p.remaining;
      if (p.allocated > 0) out.partitioned.allocated_profiles[p.published] += p.allocated;
    }
  }
  return out;
}

}  // namespace chaintwin::model
