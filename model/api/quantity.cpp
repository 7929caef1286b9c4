// Quantity parsing and canonical printing, following k8s.io/apimachinery's resource package.
#include "model/api/quantity.h"

#include <array>

#include "model/api/int128.h"

namespace chaintwin::model {
namespace {

struct Suffix {
  int base;      // 10 or 2
  int exponent;  // power of base (binary: power of 2)
  Quantity::Format format;
};

std::optional<Suffix> parse_suffix(std::string_view s) {
  using F = Quantity::Format;
  if (s.empty()) return Suffix{10, 0, F::kDecimalSI};
  static constexpr std::array<std::pair<std::string_view, int>, 6> kBinary{
      {{"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}}};
  for (const auto& [name, exp] : kBinary)
    if (s == name) return Suffix{2, exp, F::kBinarySI};
  static constexpr std::array<std::pair<std::string_view, int>, 9> kDecimal{
      {{"n", -9}, {"u", -6}, {"m", -3}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}}};
  for (const auto& [name, exp] : kDecimal)
    if (s == name) return Suffix{10, exp, F::kDecimalSI};
  if (s.size() >= 2 && (s[0] == 'e' || s[0] == 'E')) {
    size_t i = 1;
    bool neg = false;
    if (s[i] == '+' || s[i] == '-') {
      neg = s[i] == '-';
      ++i;
    }
    if (i >= s.size() || s.size() - i > 4) return std::nullopt;
    int e = 0;
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
      e = e * 10 + (s[i] - '0');
    }
    return Suffix{10, neg ? -e : e, F::kDecimalExponent};
  }
  return std::nullopt;
}

std::string decimal_suffix(int exponent, Quantity::Format format) {
  if (format == Quantity::Format::kDecimalSI) {
    switch (exponent) {
      case -9: return "n";
      case -6: return "u";
      case -3: return "m";
      case 0: return "";
      case 3: return "k";
      case 6: return "M";
      case 9: return "G";
      case 12: return "T";
      case 15: return "P";
      case 18: return "E";
      default: break;
    }
  }
  if (exponent == 0) return "";
  return "e" + std::to_string(exponent);
}

}  // namespace

Quantity::Quantity(int64_t mantissa, int32_t exponent, Format format)
    : mantissa_(mantissa), exponent_(exponent), format_(format) {
  normalize();
}

void Quantity::normalize() {
  if (mantissa_ == 0) {
    exponent_ = 0;
    return;
  }
  while (mantissa_ % 10 == 0) {
    mantissa_ /= 10;
    ++exponent_;
  }
}

Quantity Quantity::from_int(int64_t v) { return Quantity(v, 0, Format::kDecimalSI); }
Quantity Quantity::from_int_binary(int64_t v) { return Quantity(v, 0, Format::kBinarySI); }
Quantity Quantity::from_milli(int64_t milli) { return Quantity(milli, -3, Format::kDecimalSI); }
Quantity Quantity::from_scaled(int64_t mantissa, int32_t exponent10, Format format) {
  return Quantity(mantissa, exponent10, format);
}

Result<Quantity> Quantity::parse(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return err("quantity '" + std::string(text) + "' " + why);
  };
  constexpr const char* too_large = "is too large (the largest quantity is 9223372036854775807)";
  if (text.empty()) return bad("is empty");
  size_t i = 0;
  bool negative = false;
  if (text[i] == '+' || text[i] == '-') {
    negative = text[i] == '-';
    ++i;
  }
  i128 digits = 0;
  int fraction_digits = 0;
  int dropped_nonzero = 0;  // digits beyond what an int128 holds; only matter for rounding
  bool any_digit = false, in_fraction = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (in_fraction) return bad("has two decimal points");
      in_fraction = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    any_digit = true;
    if (digits > pow10_i128(30)) {  // keep precision bounded; count what we drop
      if (!in_fraction) return bad(too_large);
      if (c != '0') ++dropped_nonzero;
      continue;
    }
    digits = digits * 10 + (c - '0');
    if (in_fraction) ++fraction_digits;
  }
  if (!any_digit) return bad("must start with a number (expected e.g. 24Gi, 6400k, 1.5, 500m)");
  const auto suffix = parse_suffix(text.substr(i));
  if (!suffix) return bad("has an unknown suffix '" + std::string(text.substr(i)) +
                          "' (expected one of n u m k M G T P E Ki Mi Gi Ti Pi Ei or eN)");
  i128 m = digits;
  int e = -fraction_digits;
  if (suffix->base == 10) {
    e += suffix->exponent;
  } else {
    for (int k = 0; k < suffix->exponent; ++k) {
      m *= 2;
      if (m > pow10_i128(36)) return bad(too_large);
    }
  }
  // Kubernetes keeps nano precision at most and rounds finer values up.
  if (e < -9) {
    if (-9 - e > 38) {  // finer than any int128 holds: whatever is non-zero rounds up to 1n
      m = (m != 0 || dropped_nonzero > 0) ? 1 : 0;
    } else {
      const i128 div = pow10_i128(-9 - e);
      const bool rem = (m % div) != 0 || dropped_nonzero > 0;
      m = m / div + (rem ? 1 : 0);
    }
    e = -9;
  }
  while (m != 0 && m % 10 == 0) {
    m /= 10;
    ++e;
  }
  while (!fits_mantissa(m) && e < 0) return bad("has more precision than fits");
  if (!fits_mantissa(m)) return bad(too_large);
  // The value itself must fit an int64 (Kubernetes' largest Quantity, 2^63-1): `1e400` or `8Ei`
  // is no capacity, and every consumer reads quantities as int64 amounts.
  if (m != 0 && e > 0 && (e > 18 || !fits_mantissa(m * pow10_i128(e))))
    return bad(too_large);
  // Bring huge exponents back into the mantissa when they fit, so comparisons stay simple.
  int64_t mant = static_cast<int64_t>(m);
  if (negative) mant = -mant;
  return Quantity(mant, e, suffix->format);
}

std::string Quantity::to_string() const {
  if (mantissa_ == 0) return "0";
  Format format = format_;
  if (format == Format::kBinarySI) {
    const bool small = exponent_ <= 3 && [&] {
      i128 v = static_cast<i128>(mantissa_) * pow10_i128(exponent_ < 0 ? 0 : exponent_);
      if (exponent_ < 0) return true;  // fractional: shown as decimal anyway
      return v > -1024 && v < 1024;
    }();
    if (small || exponent_ < 0) {
      format = Format::kDecimalSI;
    } else {
      i128 v = static_cast<i128>(mantissa_) * pow10_i128(exponent_);
      int exp2 = 0;
      while (v % 1024 == 0 && exp2 < 60) {
        v /= 1024;
        exp2 += 10;
      }
      if (fits_mantissa(v)) {
        static constexpr std::array<std::string_view, 7> kNames{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        return std::to_string(static_cast<int64_t>(v)) + std::string(kNames[exp2 / 10]);
      }
      format = Format::kDecimalSI;
    }
  }
  i128 m = mantissa_;
  int e = exponent_;
  const int r = ((e % 3) + 3) % 3;
  if (r != 0) {
    m *= pow10_i128(r);
    e -= r;
  }
  // An int64 mantissa times 100 never overflows int128.
  return i128_to_decimal(m) + decimal_suffix(e, format);
}

int64_t Quantity::value_ceil() const {
  if (exponent_ >= 0) return static_cast<int64_t>(static_cast<i128>(mantissa_) * pow10_i128(exponent_));
  if (-exponent_ > 30) return mantissa_ > 0 ? 1 : 0;
  const i128 div = pow10_i128(-exponent_);
  i128 q = mantissa_ / div;
  if (mantissa_ % div != 0 && mantissa_ > 0) ++q;
  return static_cast<int64_t>(q);
}

int64_t Quantity::milli_value_ceil() const {
  Quantity scaled(mantissa_, exponent_ + 3, format_);
  return scaled.value_ceil();
}

std::optional<int64_t> Quantity::exact_int() const {
  if (exponent_ < 0) return std::nullopt;
  const i128 v = static_cast<i128>(mantissa_) * pow10_i128(exponent_);
  if (!fits_mantissa(v)) return std::nullopt;
  return static_cast<int64_t>(v);
}

std::strong_ordering Quantity::operator<=>(const Quantity& other) const {
  if (sign() != other.sign()) return sign() <=> other.sign();
  if (mantissa_ == 0) return std::strong_ordering::equal;
  const int d = exponent_ - other.exponent_;
  if (d > 20) return sign() > 0 ? std::strong_ordering::greater : std::strong_ordering::less;
  if (d < -20) return sign() > 0 ? std::strong_ordering::less : std::strong_ordering::greater;
  i128 a = mantissa_, b = other.mantissa_;
  if (d > 0) a *= pow10_i128(d);
  if (d < 0) b *= pow10_i128(-d);
  return a <=> b;
}

}  // namespace chaintwin::model
