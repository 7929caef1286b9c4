// Colours for states that are not a family or a stop policy: a card's ledger mode (drawn in its
// family's colour; an idle card in grey), a Workload's phase, the TopologyReady condition. One
// place, so every panel agrees.
#pragma once

#include <string_view>

#include "viz/family_palette.h"
#include "viz/snapshot.h"

namespace chaintwin::viz {

Rgba card_mode_colour(std::string_view mode);  // "Exclusive" → EX blue, ..., "None" → idle grey
Rgba card_mode_dim_colour(std::string_view mode);  // the same two fifths of the way from the background
Rgba workload_phase_colour(WorkloadPhase phase);
std::string_view workload_phase_label(WorkloadPhase phase);  // Pending, Admitted, Evicted, Finished, Rejected
// An event-log line's colour by its kind (and, for checks and expectations, its verdict): an
// expectation that holds green and one that failed red, an eviction orange, an admission green, a
// wait yellow, a Retry amber, the operator's writes blue, timeline actions violet, the rest grey.
Rgba event_colour(std::string_view kind, std::string_view message);
Rgba topology_ready_colour(std::string_view status);          // True green, False red, else grey
Rgba background_colour();                                     // the window's clear colour

}  // namespace chaintwin::viz
