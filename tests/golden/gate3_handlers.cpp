// Golden handlers for the Gate 3 predicates of node_devices_admission.go (area fit-labels, beside
// the label-vs-Gate-3 agreement cases): the per-card predicates of cardLedger, the per-family
// fits, sortDemands and nodeDevicesFeasibility. Cards are given in the same simplified view the
// fit-label cases use (remaining, mode, logicalCount, physicalCount, allocatedSlices), plus
// remainingProfiles ({published-or-vendor name: count}) for partitioned cards; everything
// asserted is computed by model/card_ledger and model/gate3_feasibility.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/stage3/card_ledger.h"
#include "model/admission/gate3/gate3_feasibility.h"
#include "model/catalog/resource_names.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;

namespace {

using chaintwin::golden::json;
namespace m = chaintwin::model;

m::ResourceFamily family_of(const std::string& text) {
  for (const auto f : {m::ResourceFamily::kNone, m::ResourceFamily::kExclusive, m::ResourceFamily::kShared,
                       m::ResourceFamily::kSliced, m::ResourceFamily::kPartitioned, m::ResourceFamily::kVisibility})
    if (m::to_string(f) == text) return f;
  throw std::runtime_error("unknown family " + text);
}

// One card of the view: capability (spec) and ledger row (status) of accelerator `index`.
m::CardLedger card_of(const json& a, const std::string& manufacturer, const std::string& group, uint32_t index) {
  static const json kKnown = {"remaining", "mode", "logicalCount", "physicalCount", "allocatedSlices", "remainingProfiles"};
  for (const auto& [k, _] : a.items())
    if (std::find(kKnown.begin(), kKnown.end(), k) == kKnown.end()) throw std::runtime_error("unknown card field " + k);
  m::CardLedger card;
  card.node = "n";
  card.manufacturer = manufacturer;
  card.group_id = group;
  card.capability.logical_sliced.count = a.value("logicalCount", 0);
  card.capability.physical_sliced.count = a.value("physicalCount", 0);
  card.ledger.id = "n-" + group + "-" + std::to_string(index);
  card.ledger.index = index;
  const auto mode = m::parse_allocation_mode(a.value("mode", std::string("None")));
  if (!mode) throw std::runtime_error("unknown mode " + a.value("mode", std::string()));
  card.ledger.mode = *mode;
  card.ledger.remaining = a.value("remaining", 0);
  card.ledger.allocated_slices = a.value("allocatedSlices", 0);
  const json profiles = a.value("remainingProfiles", json::object());
  for (const auto& [name, count] : profiles.items())
    card.ledger.remaining_profiles.push_back({name, count.get<int32_t>()});
  return card;
}

// The node's cards, group after group, in ledger order.
std::vector<m::CardLedger> cards_of(const json& in) {
  const std::string manufacturer = in.value("manufacturer", "nvidia");
  std::vector<m::CardLedger> cards;
  for (const auto& g : in.at("groups")) {
    uint32_t index = 0;
    for (const auto& a : g.at("accelerators")) cards.push_back(card_of(a, manufacturer, g.at("id"), index++));
  }
  return cards;
}

m::FamilyDemand demand_of(const json& d) {
  static const json kKnown = {"family", "accelerators", "unitsPerCard", "profile", "sharedHolders", "acceleratorKey", "podSets"};
  for (const auto& [k, _] : d.items())
    if (std::find(kKnown.begin(), kKnown.end(), k) == kKnown.end()) throw std::runtime_error("unknown demand field " + k);
  m::FamilyDemand demand;
  demand.family = family_of(d.at("family"));
  demand.accelerators = d.value("accelerators", 0);
  demand.units_per_card = d.value("unitsPerCard", int64_t{0});
  demand.profile = d.value("profile", std::string());
  for (const auto& h : d.value("sharedHolders", json::array()))
    demand.shared_holders.push_back({h.at("cards").get<int32_t>(), h.value("count", 1)});
  demand.accelerator_key = d.value("acceleratorKey", std::string());
  for (const auto& p : d.value("podSets", json::array())) demand.pod_sets.push_back(p);
  return demand;
}

// The verdict; `messageContains` is an assertion: it answers the asked substrings the message
// holds (so a missing one shows in the diff).
json verdict_json(const m::Gate3Verdict& v, const json& want) {
  json out = {{"state", std::string(m::to_string(v.state))}, {"retryAfterSeconds", v.retry_after_seconds}};
  if (want.contains("messageContains")) {
    json found = json::array();
    for (const auto& s : want.at("messageContains"))
      if (v.message.find(s.get<std::string>()) != std::string::npos) found.push_back(s);
    out["messageContains"] = found;
  }
  return out;
}

// One family's fit on a fresh budget: the verdict and the cards as the grants left them.
json fit_one(const json& in, const json& want, m::ResourceFamily family) {
  const m::FamilyDemand demand = demand_of(in.at("demand"));
  if (demand.family != family)
    throw std::runtime_error("the demand's family is " + std::string(m::to_string(demand.family)) + ", not " +
                             std::string(m::to_string(family)));
  m::CardBudget budget(cards_of(in));
  json out = verdict_json(budget.fit(demand), want);
  json after = json::array();
  const std::vector<m::CardLedger> cards_after = budget.cards();
  const std::vector<int32_t> placements = budget.placements_given();
  for (size_t i = 0; i < cards_after.size(); ++i) {
    const auto& c = cards_after[i];
    json row = {{"remaining", c.ledger.remaining}, {"mode", std::string(m::to_string(c.ledger.mode))},
                {"allocatedSlices", c.ledger.allocated_slices}};
    if (family == m::ResourceFamily::kPartitioned) row["placementsGiven"] = placements[i];
    after.push_back(row);
  }
  out["cardsAfter"] = after;
  return out;
}


GOLDEN_HANDLER(Spec("fit-labels", "fitExclusiveDemand").in({"groups", "demand"}).opt({"manufacturer"}).out({"state", "retryAfterSeconds", "messageContains", "cardsAfter"}),
               [](const json& in, const json& want) -> json { return fit_one(in, want, m::ResourceFamily::kExclusive); });
GOLDEN_HANDLER(Spec("fit-labels", "fitSharedDemand").in({"groups", "demand"}).opt({"manufacturer"}).out({"state", "retryAfterSeconds", "messageContains", "cardsAfter"}),
               [](const json& in, const json& want) -> json { return fit_one(in, want, m::ResourceFamily::kShared); });
GOLDEN_HANDLER(Spec("fit-labels", "fitSlicedDemand").in({"groups", "demand"}).opt({"manufacturer"}).out({"state", "retryAfterSeconds", "messageContains", "cardsAfter"}),
               [](const json& in, const json& want) -> json { return fit_one(in, want, m::ResourceFamily::kSliced); });
GOLDEN_HANDLER(Spec("fit-labels", "fitPartitionDemand").in({"groups", "demand"}).opt({"manufacturer"}).out({"state", "retryAfterSeconds", "messageContains", "cardsAfter"}),
               [](const json& in, const json& want) -> json { return fit_one(in, want, m::ResourceFamily::kPartitioned); });

// sortDemands: the input positions in the order the demands are fitted.
GOLDEN_HANDLER(Spec("fit-labels", "sortDemands").in({"demands"}).out({"order"}), [](const json& in, const json&) -> json {
  std::vector<m::FamilyDemand> demands;
  int index = 0;
  for (const auto& d : in.at("demands")) {
    demands.push_back(demand_of(d));
    demands.back().pod_sets = {std::to_string(index++)};  // tags the position; sortDemands never reads it
  }
  m::sort_demands(demands);
  json order = json::array();
  for (const auto& d : demands) order.push_back(std::stoi(d.pod_sets.front()));
  return {{"order", order}};
});

GOLDEN_HANDLER(Spec("fit-labels", "nodeDevicesFeasibility").in({"groups", "demands"}).opt({"manufacturer"}).out({"state", "retryAfterSeconds", "messageContains"}),
               [](const json& in, const json& want) -> json {
                 std::vector<m::FamilyDemand> demands;
                 for (const auto& d : in.at("demands")) demands.push_back(demand_of(d));
                 return verdict_json(m::node_devices_feasibility(cards_of(in), demands), want);
               });

// The per-card predicates of one card (its group and manufacturer do not matter to them).
m::CardLedger one_card(const json& in) { return card_of(in.at("card"), "nvidia", "g", 0); }

GOLDEN_HANDLER(Spec("fit-labels", "cardLedger.servesFamily").alias("servesFamily").in({"card", "family"}).out({"servesFamily"}),
               [](const json& in, const json&) -> json {
                 return {{"servesFamily", one_card(in).serves_family(family_of(in.at("family")))}};
               });
GOLDEN_HANDLER(Spec("fit-labels", "cardLedger.freeShares").alias("freeShares").in({"card"}).out({"freeShares"}),
               [](const json& in, const json&) -> json { return {{"freeShares", one_card(in).free_shares()}}; });
GOLDEN_HANDLER(Spec("fit-labels", "cardLedger.freeSliceUnits").alias("freeSliceUnits").in({"card"}).out({"freeSliceUnits"}),
               [](const json& in, const json&) -> json { return {{"freeSliceUnits", one_card(in).free_slice_units()}}; });
GOLDEN_HANDLER(Spec("fit-labels", "cardLedger.freeSlots").alias("freeSlots").in({"card"}).out({"freeSlots"}),
               [](const json& in, const json&) -> json { return {{"freeSlots", one_card(in).free_slots()}}; });

}  // namespace
