// The Workload webhook's fit pin: turns a PodSet's per-card demand into required node-affinity
// requirements on the fit labels (fit_labels.h), so Kueue TAS skips a node none of whose cards
// fits. A slice of U units per card → `<sliced key> Gt U-1`; a shared request of N ≥ 2 cards →
// `<shared key> Gt N-1`. Exclusive and partition requests, N = 1 and unfolded slices get no pin.
// The pin lives on the Workload's PodSet template only, never on a Pod.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace chaintwin::model {

struct NodeSelectorRequirement {
  std::string key;
  std::string op;  // "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"
  std::vector<std::string> values;
  bool operator==(const NodeSelectorRequirement&) const = default;
};

struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;
  bool operator==(const NodeSelectorTerm&) const = default;
};

// What one Pod of a PodSet needs from one card: the slice units (0 = no slice, or a slice the
// webhook did not fold), and the largest count of distinct cards any one container wants a share on.
struct PodFitDemand {
  int64_t sliced_units = 0;
  int32_t shared_cards = 0;
  bool operator==(const PodFitDemand&) const = default;
};

// Containers combine by maximum, not sum: the larger slice and the larger shared count decide.
PodFitDemand combine_fit_demands(const PodFitDemand& a, const PodFitDemand& b);

// The requirements for accelerator model `a_key`; none for a key that is not a valid fit label key.
std::vector<NodeSelectorRequirement> fit_pin_requirements(std::string_view a_key, const PodFitDemand& demand);

// ANDs the requirements into every required term (adding them as the only term when there is
// none). Idempotent: an earlier pin on the same key and operator is replaced, never duplicated.
std::vector<NodeSelectorTerm> pin_required_terms(std::vector<NodeSelectorTerm> terms,
                                                 const std::vector<NodeSelectorRequirement>& requirements);

}  // namespace chaintwin::model
