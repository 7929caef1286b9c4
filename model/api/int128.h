// Exact 128-bit integer helpers for the decimal arithmetic of Quantity (quantity.cpp) and the
// credit conversions (credit_conversions.cpp): powers of ten, the range a Quantity mantissa may
// take, and decimal printing (std::to_string has no __int128 overload).
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace chaintwin::model {

__extension__ typedef __int128 i128;

// 10^n for 0 <= n <= 38 (1 for n <= 0): read from a table built at compile time, as the digit
// and suffix loops of Quantity::parse ask for it once per digit.
inline i128 pow10_i128(int n) {
  static constexpr auto kPowers = [] {
    struct Table {
      i128 v[39];
    } t{};
    t.v[0] = 1;
    for (int i = 1; i <= 38; ++i) t.v[i] = t.v[i - 1] * 10;
    return t;
  }();
  if (n <= 0) return 1;
  if (n <= 38) return kPowers.v[n];
  i128 r = kPowers.v[38];
  for (int i = 38; i < n; ++i) r *= 10;  // beyond an int128's range: as the plain loop did
  return r;
}

// |v| <= INT64_MAX: what a Quantity mantissa may hold (parse refuses -2^63 as well).
inline bool fits_mantissa(i128 v) {
  return v <= std::numeric_limits<int64_t>::max() && v >= -std::numeric_limits<int64_t>::max();
}

// v in decimal, with a leading '-' when negative.
inline std::string i128_to_decimal(i128 v) {
  const bool negative = v < 0;
  i128 a = negative ? -v : v;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(a % 10)));
    a /= 10;
  } while (a != 0);
  return negative ? "-" + digits : digits;
}

}  // namespace chaintwin::model
