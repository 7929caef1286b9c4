// Credit and slice conversions, following the operator's knowns.go arithmetic step by step:
// Go's ScaledValue rounds up, its int64 divisions truncate, Mul is exact and SetScaled keeps
// the quantity's format.
#include "model/credit_conversions.h"

#include <limits>
#include <string>

#include "model/credits.h"
#include "model/api/int128.h"

namespace chaintwin::model {
namespace {

constexpr int64_t kMicroPerUnit = 1'000'000;

bool fits_int64(i128 v) {
  return v <= std::numeric_limits<int64_t>::max() && v >= std::numeric_limits<int64_t>::min();
}

Error out_of_range(const std::string& what) { return err(what + " does not fit a quantity"); }

// The exponents an "<m>e<n>" spelling carries: nano precision at most, four exponent digits.
constexpr int kMinExponent = -9;
constexpr int kMaxExponentForm = 9999;

// A Quantity worth mantissa × 10^exponent, printed in `format` the way Kubernetes would print a
// quantity of that format (binary SI only applies to integral values, as in Go). Refuses what
// the canonical spelling could not carry: an exponent-form value outside int64 × 10^[-9, 9999],
// a decimal-SI value finer than nano or not an int64 count of its SI unit.
Result<Quantity> make_quantity(i128 mantissa, int exponent, Quantity::Format format) {
  if (mantissa == 0) return format == Quantity::Format::kBinarySI ? Quantity::from_int_binary(0) : Quantity::from_int(0);
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  const auto refuse = [&] { return out_of_range(i128_to_decimal(mantissa) + "e" + std::to_string(exponent)); };
  if (format == Quantity::Format::kDecimalExponent) {
    if (!fits_mantissa(mantissa) || exponent < kMinExponent || exponent > kMaxExponentForm) return refuse();
    return Quantity::from_scaled(static_cast<int64_t>(mantissa), exponent, format);
  }
  if (exponent >= 0 && exponent <= 18 && fits_int64(mantissa)) {  // else the product could overflow i128
    const i128 value = mantissa * pow10_i128(exponent);
    if (fits_int64(value)) {
      const auto v = static_cast<int64_t>(value);
      return format == Quantity::Format::kBinarySI ? Quantity::from_int_binary(v) : Quantity::from_int(v);
    }
  }
  // Decimal SI (also a binary value that is fractional or too large for binary SI): the value
  // must be an int64 count of the SI unit at or below its exponent (125000 × 10^-6 is 125m).
  static constexpr int kSiExponents[] = {18, 15, 12, 9, 6, 3, 0, -3, -6, kMinExponent};
  for (const int si : kSiExponents) {
    if (exponent < si) continue;
    if (exponent - si > 18 || !fits_mantissa(mantissa * pow10_i128(exponent - si))) break;  // 10^19 never fits
    return Quantity::from_scaled(static_cast<int64_t>(mantissa), exponent, Quantity::Format::kDecimalSI);
  }
  return refuse();
}

// Go's ScaledValue(resource.Micro): ceil(q × 10^6).
Result<int64_t> micro_value_ceil(const Quantity& q) {
  const int shift = q.exponent() + 6;
  i128 v = q.mantissa();
  if (shift >= 0) {
    if (shift > 30) return out_of_range(q.to_string() + " in micro units");
    v *= pow10_i128(shift);
  } else {
    if (-shift > 30) return int64_t{q.mantissa() > 0 ? 1 : 0};
    const i128 div = pow10_i128(-shift);
    const bool rem = v % div != 0;
    v /= div;  // truncates toward zero, which is the ceiling for negatives
    if (rem && q.mantissa() > 0) ++v;
  }
  if (!fits_int64(v)) return out_of_range(q.to_string() + " in micro units");
  return static_cast<int64_t>(v);
}

// M / sliced for a size the operator knows (1, 2, 4, ..., 512), or 0.
int64_t units_per_slice(int64_t sliced) {
  if (sliced < 1 || sliced > kSlicedResourceMaxSize || (sliced & (sliced - 1)) != 0) return 0;
  return kUnitsPerAccelerator / sliced;
}

}  // namespace

bool is_valid_sliced_partitions(int64_t n) {
  return n >= 2 && n <= kSlicedResourceMaxSize && (n & (n - 1)) == 0;
}

Result<Quantity> accelerators_to_credits(const Quantity& accelerators) {
  return make_quantity(static_cast<i128>(accelerators.mantissa()) * kUnitsPerAccelerator, accelerators.exponent(),
                       accelerators.format());
}

Result<Quantity> credits_to_accelerators(const Quantity& credits) {
  const i128 whole = credits.value_ceil();
  return make_quantity(whole * kMicroPerUnit / kUnitsPerAccelerator, -6, credits.format());
}

Result<Quantity> quantity_to_slice_count(const Quantity& q, int64_t sliced) {
  if (sliced <= 0 || units_per_slice(sliced) == 0) return q;
  const auto micro = micro_value_ceil(q);
  if (!micro) return err(micro.error());
  return make_quantity(static_cast<i128>(*micro) * sliced / kMicroPerUnit, 0, q.format());
}

Result<Quantity> quantity_to_aligned_value(const Quantity& q, int64_t sliced) {
  const int64_t per_slice = sliced <= 0 ? 0 : units_per_slice(sliced);
  if (per_slice == 0) return q;
  return make_quantity(static_cast<i128>(q.mantissa()) * per_slice, q.exponent(), q.format());
}

Result<Quantity> quantity_to_original_value(const Quantity& q, int64_t sliced) {
  const int64_t per_slice = sliced <= 0 ? 0 : units_per_slice(sliced);
  if (per_slice == 0) return q;
  const auto micro = micro_value_ceil(q);
  if (!micro) return err(micro.error());
  return make_quantity(*micro / per_slice, -6, q.format());
}

}  // namespace chaintwin::model
