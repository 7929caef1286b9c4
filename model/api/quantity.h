// Quantity: Kubernetes' resource.Quantity as an exact decimal value type.
//
// Parses every form the API server accepts (`24Gi`, `6400k`, `1.5`, `125m`, `1e3`) and
// prints the canonical form the API server writes back (`6400000` -> `6400k`,
// `0.125` -> `125m`, `24Gi` stays `24Gi`). Values are m × 10^e with an int64 mantissa,
// so node capacities, credits (M = 1,600,000 per card) and milli-CPU stay exact.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/result.h"

namespace chaintwin::model {

class Quantity {
 public:
  enum class Format { kDecimalSI, kBinarySI, kDecimalExponent };

  Quantity() = default;
  // An integer quantity printed in decimal SI form (what Go's NewQuantity(v, DecimalSI) gives).
  static Quantity from_int(int64_t v);
  // An integer quantity printed in binary SI form (memory sizes).
  static Quantity from_int_binary(int64_t v);
  // v × 10^-3, decimal SI (Go's NewMilliQuantity).
  static Quantity from_milli(int64_t milli);
  // mantissa × 10^exponent10 in `format`, trailing zeros of the mantissa folded into the exponent
  // (so from_scaled(1600000, 0, kDecimalSI) prints "1600k"). No rounding: Kubernetes keeps at most
  // nano precision, so callers keep exponent10 >= -9 (what parse would have rounded up).
  static Quantity from_scaled(int64_t mantissa, int32_t exponent10, Format format);
  static Result<Quantity> parse(std::string_view text);

  // The canonical string form, as Kubernetes prints it.
  std::string to_string() const;

  // Go's Quantity.Value(): the value rounded up to an integer.
  int64_t value_ceil() const;
  // Go's Quantity.MilliValue(): the value × 1000 rounded up.
  int64_t milli_value_ceil() const;
  // The exact integer value when the quantity is integral.
  std::optional<int64_t> exact_int() const;
  bool is_zero() const { return mantissa_ == 0; }
  int sign() const { return mantissa_ > 0 ? 1 : (mantissa_ < 0 ? -1 : 0); }
  Format format() const { return format_; }

  int64_t mantissa() const { return mantissa_; }
  int32_t exponent() const { return exponent_; }

  // Exact comparison of values (format is ignored, as Go's Cmp does).
  std::strong_ordering operator<=>(const Quantity& other) const;
  bool operator==(const Quantity& other) const { return (*this <=> other) == 0; }

 private:
  Quantity(int64_t mantissa, int32_t exponent, Format format);
  void normalize();

  int64_t mantissa_ = 0;  // value = mantissa_ × 10^exponent_
  int32_t exponent_ = 0;
  Format format_ = Format::kDecimalSI;
};

}  // namespace chaintwin::model
