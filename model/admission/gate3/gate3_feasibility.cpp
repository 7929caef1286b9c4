// Gate 3's greedy per-card fit. Each family spends cards the way the device plugin will:
// exclusive takes untouched whole cards, shared spends the cards with the most free shares,
// a slice lands on the fullest card that still fits it, a partition instance takes a placement.
#include "model/admission/gate3/gate3_feasibility.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "model/credits.h"
#include "model/normalize_name.h"
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

CardBudget::CardBudget(std::vector<CardLedger> cards, std::string scope)
    : owned_(std::move(cards)), scope_(std::move(scope)) {
  cards_.reserve(owned_.size());
  for (const CardLedger& c : owned_) push(&c.node, c.manufacturer, c.group_id, c.capability, c.ledger);
}

CardBudget::CardBudget(const Devices& devices, std::string scope) : scope_(std::move(scope)) { add(devices); }

void CardBudget::add(const Devices& devices) {
  const CardJoin join(devices);
  std::size_t cards = cards_.size();
  for (const auto& group : devices.status.groups) cards += group.accelerators.size();
  // One block for the Node's cards; growing geometrically, as a budget may add many Nodes.
  if (cards > cards_.capacity()) cards_.reserve(std::max(cards, 2 * cards_.capacity()));
  for (const auto& group : devices.status.groups)
    for (const auto& row : group.accelerators)
      push(&devices.metadata.name, group.manufacturer, group.id, join.capability_of(row.id), row);
}

void CardBudget::push(const std::string* node, std::string_view manufacturer, std::string_view group_id,
                      const AcceleratorStatus& capability, const AcceleratorAllocation& row) {
  if (scope_.empty() && cards_.empty()) scope_ = *node;  // no scope given: the first card's node
  Card c;
  c.capability = &capability;
  c.row = &row;
  c.node = node;
  c.manufacturer = manufacturer;
  c.group_id = group_id;
  c.figures = CardFigures::of(row);
  c.allocated = row.allocated;
  cards_.push_back(c);
}

std::vector<CardLedger> CardBudget::cards() const {
  std::vector<CardLedger> out;
  for (const Card& c : cards_) {
    CardLedger l;
    l.node = *c.node;
    l.manufacturer = std::string(c.manufacturer);
    l.group_id = std::string(c.group_id);
    l.capability = *c.capability;
    l.ledger = *c.row;
    l.ledger.mode = c.figures.mode;
    l.ledger.remaining = c.figures.remaining;
    l.ledger.allocated_slices = c.figures.allocated_slices;
    l.ledger.allocated = c.allocated;
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<int32_t> CardBudget::placements_given() const {
  std::vector<int32_t> out;
  for (const Card& c : cards_) out.push_back(c.placements_given);
  return out;
}

std::string CardBudget::where() const { return scope_.empty() ? "in the pool" : "on node " + scope_; }

bool CardBudget::Card::covers(const FamilyDemand& demand) const {
  if (!demand.accelerator_key.empty() && !is_accelerator_key(demand.accelerator_key, manufacturer, group_id))
    return false;
  return card_serves_family(*capability, demand.family);
}

void CardBudget::Card::charge(int32_t units, DeviceAllocationMode mode) {
  figures.remaining -= units;
  allocated += units;
  figures.mode = mode;
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
  for (const Card& c : cards_) saved_.push_back({c.figures, c.allocated, c.placements_given});
  Gate3Verdict verdict;
  switch (demand.family) {
    case ResourceFamily::kExclusive: verdict = fit_exclusive(demand); break;
    case ResourceFamily::kShared: verdict = fit_shared(demand); break;
    case ResourceFamily::kSliced: verdict = fit_sliced(demand); break;
    default: verdict = fit_partition(demand); break;
  }
  if (!verdict.ready()) {
    for (std::size_t i = 0; i < cards_.size(); ++i) {
      cards_[i].figures = saved_[i].figures;
      cards_[i].allocated = saved_[i].allocated;
      cards_[i].placements_given = saved_[i].placements_given;
    }
  }
  return verdict;
}

Gate3Verdict CardBudget::fit_exclusive(const FamilyDemand& d) {
  int32_t fit = 0;
  for (auto& card : cards_) {
    if (!card.covers(d)) continue;
    if (card.figures.mode != DeviceAllocationMode::kNone || card.figures.remaining < kWholeUnits) continue;
    card.charge(kWholeUnits, DeviceAllocationMode::kExclusive);
    if (++fit >= d.accelerators)
      return ready(num(d.accelerators) + " whole free accelerator(s) " + where() + for_roles(d.pod_sets));
  }
  return retry("the exclusive demand" + for_roles(d.pod_sets) + " needs " + num(d.accelerators) +
               " whole free accelerator(s), only " + num(fit) + " " + where());
}

Gate3Verdict CardBudget::fit_shared(const FamilyDemand& d) {
  std::vector<int32_t> holders;
  if (d.shared_holders.empty()) {
    holders.push_back(d.accelerators);
  } else {
    for (const auto& h : d.shared_holders)
      for (int32_t i = 0; i < h.count; ++i) holders.push_back(h.cards);
  }
  std::stable_sort(holders.begin(), holders.end(), std::greater<>());
  const auto free_shares = [&](size_t i) { return card_free_shares(*cards_[i].capability, cards_[i].figures); };
  for (const int32_t need : holders) {
    if (need <= 0) continue;
    std::vector<size_t> candidates;
    for (size_t i = 0; i < cards_.size(); ++i)
      if (cards_[i].covers(d) && free_shares(i) > 0) candidates.push_back(i);
    if (candidates.size() < static_cast<size_t>(need)) {
      return retry("the shared demand" + for_roles(d.pod_sets) + " needs " + num(need) +
                   " distinct accelerator(s) with a free share, only " + num(static_cast<int64_t>(candidates.size())) +
                   " " + where());
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](size_t a, size_t b) { return free_shares(a) > free_shares(b); });
    for (int32_t k = 0; k < need; ++k)
      cards_[candidates[static_cast<size_t>(k)]].charge(kShareUnits, DeviceAllocationMode::kShared);
  }
  return ready("a free share on " + num(d.accelerators) + " accelerator(s) " + where() + for_roles(d.pod_sets));
}

Gate3Verdict CardBudget::fit_sliced(const FamilyDemand& d) {
  const int64_t units = std::max<int64_t>(d.units_per_card, 0);
  for (int32_t placed = 0; placed < d.accelerators; ++placed) {
    size_t best = cards_.size();
    int64_t best_free = 0;
    for (size_t i = 0; i < cards_.size(); ++i) {
      if (!cards_[i].covers(d)) continue;
      const int64_t free = card_free_slice_units(*cards_[i].capability, cards_[i].figures);
      if (free < 0 || free < units) continue;
      if (best == cards_.size() || free < best_free) {
        best = i;
        best_free = free;
      }
    }
    if (best == cards_.size()) {
      return retry("the sliced demand" + for_roles(d.pod_sets) + " places " + num(placed) + " of " +
                   num(d.accelerators) + " slice(s) of " + num(units) + " units " + where() +
                   "; no accelerator has that much free with a free slice slot");
    }
    Card& card = cards_[best];
    card.charge(static_cast<int32_t>(units), DeviceAllocationMode::kSliced);
    ++card.figures.allocated_slices;
  }
  return ready(num(d.accelerators) + " slice(s) of " + num(units) + " units fit " + where() + for_roles(d.pod_sets));
}

Gate3Verdict CardBudget::fit_partition(const FamilyDemand& d) {
  int32_t partition_cards = 0, ledger_ready = 0, fit = 0;
  for (Card& card : cards_) {
    if (!card.covers(d)) continue;
    ++partition_cards;
    if (partition_ledger_ready(card.row)) ++ledger_ready;
    if (card.figures.mode != DeviceAllocationMode::kNone && card.figures.mode != DeviceAllocationMode::kPartitioned)
      continue;  // held whole by an exclusive or shared allocation
    // One placement per instance, whatever the profile: profiles of one card overlap physically.
    const std::string vendor = vendor_partitioned_profile_name(card.manufacturer, d.profile);
    const int32_t free = remaining_profile_count(card.row->remaining_profiles, vendor) - card.placements_given;
    if (free <= 0) continue;
    const int32_t take = std::min(free, d.accelerators - fit);
    card.placements_given += take;
    card.figures.mode = DeviceAllocationMode::kPartitioned;
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
