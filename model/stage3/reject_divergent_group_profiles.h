// rejectDivergentGroupProfiles (operator-code-rules.md §3e; the T-Head and Hygon detectors,
// pkg/devicemanager/allocator/{thead,hygon}/mig.go): before a group's sliced detail is aggregated
// (which merges profiles by name, sums their counts and keeps the first card's memory), every
// profile name two cards of the group expose differently — any of memoryMib, computeSlices,
// memorySlices, count or placements, compared with the first card that exposed the name — is
// withheld from every card of the group. When something was withheld, each card's
// physicalSliced.count is recomputed as the largest surviving per-profile count, and a card left
// with no profile has no physical capability (no profiles, count 0). When nothing diverges the
// group is left exactly as it was.
#pragma once

#include <string>
#include <vector>

#include "model/api/devices.h"

namespace chaintwin::model {

// Strips the divergent names from `group` and returns one reason per withheld name, in the order
// the divergence was first seen (card order, then each card's profile order); empty when the
// cards agree.
std::vector<std::string> reject_divergent_group_profiles(DevicesGroup& group);

}  // namespace chaintwin::model
