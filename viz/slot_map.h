// The memory-slice map of a partitioned card: where each placed instance sits, as fractions of the
// card's width, which memory slices are free, and whether two instances claim the same slice (a
// placement conflict the ledger should never hold).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viz/snapshot.h"

namespace chaintwin::viz {

struct SlotRect {
  double x0 = 0, x1 = 0;  // [0, 1] of the card's width
  std::string label;      // the instance's profile
  bool conflict = false;  // overlaps another instance
  bool operator==(const SlotRect&) const = default;
};

struct SlotMap {
  std::vector<SlotRect> instances;    // in placement order
  std::vector<int32_t> free_slices;   // memory-slice indexes no instance covers
  bool out_of_range = false;          // an instance reaches past the card's memory slices
  bool operator==(const SlotMap&) const = default;
};

// `memory_slices` is the card's slice count (8 for an A100/H100); an instance covering slices
// [start, start + length) is drawn at [start/slices, (start + length)/slices).
SlotMap slot_map(int32_t memory_slices, const std::vector<PlacedInstance>& instances);

}  // namespace chaintwin::viz
