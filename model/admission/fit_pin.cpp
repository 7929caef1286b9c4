// Fit pin requirements and their idempotent merge into required node affinity.
#include "model/admission/fit_pin.h"

#include <algorithm>

#include "model/stage3/fit_labels.h"

namespace chaintwin::model {

PodFitDemand combine_fit_demands(const PodFitDemand& a, const PodFitDemand& b) {
  return {std::max(a.sliced_units, b.sliced_units), std::max(a.shared_cards, b.shared_cards)};
}

std::vector<NodeSelectorRequirement> fit_pin_requirements(std::string_view a_key, const PodFitDemand& demand) {
  std::vector<NodeSelectorRequirement> out;
  if (demand.sliced_units > 0) {
    const std::string key = fit_sliced_max_free_units_label_key(a_key);
    if (is_fit_label_key(key)) out.push_back({key, "Gt", {std::to_string(demand.sliced_units - 1)}});
  }
  if (demand.shared_cards >= 2) {
    const std::string key = fit_shared_free_cards_label_key(a_key);
    if (is_fit_label_key(key)) out.push_back({key, "Gt", {std::to_string(demand.shared_cards - 1)}});
  }
  return out;
}

std::vector<NodeSelectorTerm> pin_required_terms(std::vector<NodeSelectorTerm> terms,
                                                 const std::vector<NodeSelectorRequirement>& requirements) {
  if (requirements.empty()) return terms;
  if (terms.empty()) terms.emplace_back();
  for (auto& term : terms) {
    for (const auto& req : requirements) {
      // A pin already there for the same key and operator is replaced, so re-pinning leaves
      // one copy and follows a changed demand.
      auto& exprs = term.match_expressions;
      std::erase_if(exprs, [&](const NodeSelectorRequirement& e) { return e.key == req.key && e.op == req.op; });
      exprs.push_back(req);
    }
  }
  return terms;
}

}  // namespace chaintwin::model
