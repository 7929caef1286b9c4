// Gate 3's greedy per-card fit. Each family spends cards the way the device plugin will:
// exclusive takes untouched whole cards, shared spends the cards with the most free shares,
// a slice lands on the fullest card that still fits it, a partition instance takes a placement.
#include "model/admission/gate3/gate3_feasibility.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "model/credits.h"
#include "model/stage3/population.h"
#include "model/catalog/profile_names.h"

namespace chaintwin::model {
namespace {

constexpr int32_t kWholeUnits = static_cast<int32_t>(kUnitsPerAccelerator);
constexpr int32_t kShareUnits = static_cast<int32_t>(kUnitsPerShare);

std::string for_roles(std::vector<std::string> pod_sets) {
  if (pod_sets.empty()) return "";
  std::sort(pod_sets.begin(), pod_sets.end());
  pod_sets.erase(std::unique(pod_sets.begin(), pod_sets.end()), pod_sets.end());
  std::string out = pod_sets.size() == 1 ? " for role " : " for roles ";
  for (size_t i = 0; i < pod_sets.size(); ++i) {
    if (i > 0) out += ", ";
    out += '"' + pod_sets[i] + '"';
  }
  return out;
}

Gate3Verdict ready(std::string message) { return {Gate3State::kReady, std::move(message), 0}; }
Gate3Verdict retry(std::string message) {
  return {Gate3State::kRetry, std::move(message) + "; will retry as capacity frees", kGate3RetryAfterSeconds};
}

std::string num(int64_t v) { return std::to_string(v); }

// Applies one allocation of `units` in `mode` to a card's ledger row, as Allocate would.
void charge(CardLedger& card, int32_t units, DeviceAllocationMode mode) {
  card.ledger.remaining -= units;
  card.ledger.allocated += units;
  card.ledger.mode = mode;
}

int32_t remaining_profile_count(const std::vector<AcceleratorProfileCount>& profiles, std::string_view name) {
  for (const auto& p : profiles)
    if (p.name == name) return p.count;
  return 0;
}

}  // namespace

std::string_view to_string(Gate3State state) { return state == Gate3State::kReady ? "Ready" : "Retry"; }

void sort_demands(std::vector<FamilyDemand>& demands) {
  std::stable_sort(demands.begin(), demands.end(), [](const FamilyDemand& a, const FamilyDemand& b) {
    const bool pa = a.family == ResourceFamily::kPartitioned;
    const bool pb = b.family == ResourceFamily::kPartitioned;
    if (pa != pb) return pa;
    if (a.units_per_card != b.units_per_card) return a.units_per_card > b.units_per_card;
    return static_cast<int>(a.family) < static_cast<int>(b.family);
  });
}

CardBudget::CardBudget(std::vector<CardLedger> cards, std::string scope) : scope_(std::move(scope)) {
  if (scope_.empty() && !cards.empty()) scope_ = cards.front().node;
  room_.placements_given.assign(cards.size(), 0);
  room_.cards = std::move(cards);
}

std::string CardBudget::where() const { return scope_.empty() ? "in the pool" : "on node " + scope_; }

bool CardBudget::covers(const CardLedger& card, const FamilyDemand& demand) const {
  if (!demand.accelerator_key.empty() && !card.has_accelerator_key(demand.accelerator_key)) return false;
  return card.serves_family(demand.family);
}

Gate3Verdict CardBudget::fit(const FamilyDemand& demand) {
  if (demand.accelerators <= 0) return ready("nothing to place" + for_roles(demand.pod_sets));
  switch (demand.family) {
    case ResourceFamily::kExclusive:
    case ResourceFamily::kShared:
    case ResourceFamily::kSliced:
    case ResourceFamily::kPartitioned: break;
    default: return ready("no accelerator family to gate" + for_roles(demand.pod_sets));
  }
  saved_.clear();
  for (std::size_t i = 0; i < room_.cards.size(); ++i) {
    const AcceleratorAllocation& l = room_.cards[i].ledger;
    saved_.push_back({l.remaining, l.allocated, l.allocated_slices, room_.placements_given[i], l.mode});
  }
  Gate3Verdict verdict;
  switch (demand.family) {
    case ResourceFamily::kExclusive: verdict = fit_exclusive(demand, room_); break;
    case ResourceFamily::kShared: verdict = fit_shared(demand, room_); break;
    case ResourceFamily::kSliced: verdict = fit_sliced(demand, room_); break;
    default: verdict = fit_partition(demand, room_); break;
  }
  if (!verdict.ready()) {
    for (std::size_t i = 0; i < room_.cards.size(); ++i) {
      AcceleratorAllocation& l = room_.cards[i].ledger;
      const Saved& s = saved_[i];
      l.remaining = s.remaining;
      l.allocated = s.allocated;
      l.allocated_slices = s.allocated_slices;
      l.mode = s.mode;
      room_.placements_given[i] = s.placements_given;
    }
  }
  return verdict;
}

Gate3Verdict CardBudget::fit_exclusive(const FamilyDemand& d, Room& room) const {
  int32_t fit = 0;
  for (auto& card : room.cards) {
    if (!covers(card, d)) continue;
    if (card.ledger.mode != DeviceAllocationMode::kNone || card.ledger.remaining < kWholeUnits) continue;
    charge(card, kWholeUnits, DeviceAllocationMode::kExclusive);
    if (++fit >= d.accelerators)
      return ready(num(d.accelerators) + " whole free accelerator(s) " + where() + for_roles(d.pod_sets));
  }
  return retry("the exclusive demand" + for_roles(d.pod_sets) + " needs " + num(d.accelerators) +
               " whole free accelerator(s), only " + num(fit) + " " + where());
}

Gate3Verdict CardBudget::fit_shared(const FamilyDemand& d, Room& room) const {
  std::vector<int32_t> holders;
  if (d.shared_holders.empty()) {
    holders.push_back(d.accelerators);
  } else {
    for (const auto& h : d.shared_holders)
      for (int32_t i = 0; i < h.count; ++i) holders.push_back(h.cards);
  }
  std::stable_sort(holders.begin(), holders.end(), std::greater<>());
  for (const int32_t need : holders) {
    if (need <= 0) continue;
    std::vector<size_t> candidates;
    for (size_t i = 0; i < room.cards.size(); ++i)
      if (covers(room.cards[i], d) && room.cards[i].free_shares() > 0) candidates.push_back(i);
    if (candidates.size() < static_cast<size_t>(need)) {
      return retry("the shared demand" + for_roles(d.pod_sets) + " needs " + num(need) +
                   " distinct accelerator(s) with a free share, only " + num(static_cast<int64_t>(candidates.size())) +
                   " " + where());
    }
    std::stable_sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) {
      return room.cards[a].free_shares() > room.cards[b].free_shares();
    });
    for (int32_t k = 0; k < need; ++k)
      charge(room.cards[candidates[static_cast<size_t>(k)]], kShareUnits, DeviceAllocationMode::kShared);
  }
  return ready("a free share on " + num(d.accelerators) + " accelerator(s) " + where() + for_roles(d.pod_sets));
}

Gate3Verdict CardBudget::fit_sliced(const FamilyDemand& d, Room& room) const {
  const int64_t units = std::max<int64_t>(d.units_per_card, 0);
  for (int32_t placed = 0; placed < d.accelerators; ++placed) {
    size_t best = room.cards.size();
    int64_t best_free = 0;
    for (size_t i = 0; i < room.cards.size(); ++i) {
      if (!covers(room.cards[i], d)) continue;
      const int64_t free = room.cards[i].free_slice_units();
      if (free < 0 || free < units) continue;
      if (best == room.cards.size() || free < best_free) {
        best = i;
        best_free = free;
      }
    }
    if (best == room.cards.size()) {
      return retry("the sliced demand" + for_roles(d.pod_sets) + " places " + num(placed) + " of " +
                   num(d.accelerators) + " slice(s) of " + num(units) + " units " + where() +
                   "; no accelerator has that much free with a free slice slot");
    }
    CardLedger& card = room.cards[best];
    charge(card, static_cast<int32_t>(units), DeviceAllocationMode::kSliced);
    ++card.ledger.allocated_slices;
  }
  return ready(num(d.accelerators) + " slice(s) of " + num(units) + " units fit " + where() + for_roles(d.pod_sets));
}

Gate3Verdict CardBudget::fit_partition(const FamilyDemand& d, Room& room) const {
  int32_t partition_cards = 0, ledger_ready = 0, fit = 0;
  for (size_t i = 0; i < room.cards.size(); ++i) {
    CardLedger& card = room.cards[i];
    if (!covers(card, d)) continue;
    ++partition_cards;
    if (partition_ledger_ready(&card.ledger)) ++ledger_ready;
    if (card.ledger.mode != DeviceAllocationMode::kNone && card.ledger.mode != DeviceAllocationMode::kPartitioned)
      continue;  // held whole by an exclusive or shared allocation
    // One placement per instance, whatever the profile: profiles of one card overlap physically.
    const std::string vendor = vendor_partitioned_profile_name(card.manufacturer, d.profile);
    const int32_t free = remaining_profile_count(card.ledger.remaining_profiles, vendor) - room.placements_given[i];
    if (free <= 0) continue;
    const int32_t take = std::min(free, d.accelerators - fit);
    room.placements_given[i] += take;
    card.ledger.mode = DeviceAllocationMode::kPartitioned;
    if ((fit += take) >= d.accelerators)
      return ready(num(d.accelerators) + " free \"" + d.profile + "\" placement(s) " + where() + for_roles(d.pod_sets));
  }
  if (partition_cards == 0)
    return retry("there is no partitioned accelerator for profile \"" + d.profile + "\"" + for_roles(d.pod_sets) +
                 " " + where() + "; partition one");
  if (ledger_ready == 0)
    return retry("the partition ledger " + where() + for_roles(d.pod_sets) + " is not ready (device manager rolling out)");
  return retry("the partition demand" + for_roles(d.pod_sets) + " needs " + num(d.accelerators) + " free \"" +
               d.profile + "\" placement(s), only " + num(fit) + " " + where());
}

Gate3Verdict node_devices_feasibility(std::vector<CardLedger> cards, std::vector<FamilyDemand> demands,
                                      std::string scope) {
  sort_demands(demands);
  CardBudget budget(std::move(cards), std::move(scope));
  Gate3Verdict verdict = ready("no accelerator demand to place");
  for (const auto& demand : demands) {
    verdict = budget.fit(demand);
    if (!verdict.ready()) return verdict;
  }
  return verdict;
}

}  // namespace chaintwin::model
