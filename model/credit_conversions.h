// Credit and slice conversions (pkg/nodefeature/knowns.go): whole accelerators <-> Kueue credits
// (M = 1,600,000 per accelerator), and a card's credits <-> slice counts on a card cut into a
// power-of-two number of slices. Used by the queue quota, the Pod-webhook fold and the status
// views. All arithmetic is exact integer/Quantity arithmetic, as the operator's int64 and
// resource.Quantity code does it.
#pragma once

#include <cstdint>

#include "model/api/quantity.h"
#include "model/result.h"

namespace chaintwin::model {

// A usable slice partition count: a power of two in [2, 512]. One slice is a whole card.
bool is_valid_sliced_partitions(int64_t n);

// accelerators × M, exact (Go's Quantity.Mul); "4" -> "6400k". Refuses only when the product
// cannot be represented.
Result<Quantity> accelerators_to_credits(const Quantity& accelerators);

// credits ÷ M at micro precision, after first rounding the credits up to an integer the way
// Kueue's Value() does: "200000" -> "125m", "199999500m" -> "125m".
Result<Quantity> credits_to_accelerators(const Quantity& credits);

// The slice count a per-card credits quantity stands for on a card cut into `sliced` slices:
// floor(ceil_micro(q) × sliced / 10^6). `q` is returned unchanged when `sliced` is not one of
// 1, 2, 4, ..., 512.
Result<Quantity> quantity_to_slice_count(const Quantity& q, int64_t sliced);

// A slice count as `.sliced.units`: q × (M / sliced). Unchanged for an unknown `sliced`.
Result<Quantity> quantity_to_aligned_value(const Quantity& q, int64_t sliced);

// The reverse: `.sliced.units` back to a slice count, ceil_micro(q) / (M / sliced) read at micro
// scale. Unchanged for an unknown `sliced`.
Result<Quantity> quantity_to_original_value(const Quantity& q, int64_t sliced);

}  // namespace chaintwin::model
