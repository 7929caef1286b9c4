#include <catch2/catch.hpp>

#include "model/api/int128.h"
#include "model/api/quantity.h"

using chaintwin::model::Quantity;

TEST_CASE("quantities print in the canonical form the API server writes back", "[quantity]") {
  struct Row {
    const char* in;
    const char* canonical;
  };
  const Row rows[] = {
      {"6400000", "6400k"}, {"1600000", "1600k"}, {"12800000", "12800k"}, {"0", "0"},
      {"0k", "0"},          {"24Gi", "24Gi"},     {"1024Mi", "1Gi"},      {"1536", "1536"},
      {"1.5", "1500m"},     {"0.125", "125m"},    {"125m", "125m"},       {"100", "100"},
      {"1000", "1k"},       {"16", "16"},         {"1e3", "1e3"},         {"1.5Gi", "1536Mi"},
      {"512", "512"},       {"800", "800"},       {"-5", "-5"},           {"102400", "102400"},
      {"1Ki", "1Ki"},       {"1023Mi", "1023Mi"}, {"0.5Ki", "512"},       {"3125", "3125"},
      {"196608", "196608"}, {"2400k", "2400k"},   {"1n", "1n"},           {"0.0000000001", "1n"},
  };
  for (const auto& row : rows) {
    const auto q = Quantity::parse(row.in);
    INFO(row.in);
    REQUIRE(q.ok());
    CHECK(q->to_string() == row.canonical);
  }
}

TEST_CASE("malformed quantities are refused with the reason", "[quantity]") {
  const char* bad[] = {"", "abc", "1.2.3", "12x", "Gi", "1Gib", "--1"};
  for (const char* text : bad) {
    INFO(text);
    const auto q = Quantity::parse(text);
    CHECK_FALSE(q.ok());
  }
  CHECK(Quantity::parse("12x").error() ==
        "quantity '12x' has an unknown suffix 'x' (expected one of n u m k M G T P E Ki Mi Gi Ti Pi Ei or eN)");
}

TEST_CASE("a quantity whose value does not fit an int64 is refused as too large", "[quantity]") {
  struct Row {
    const char* in;
    bool ok;
  };
  const Row rows[] = {
      {"1e400", false},   {"1e19", false},  {"10E", false},   {"8Ei", false},  {"-1e400", false},
      {"9E", true},       {"7Ei", true},    {"1e18", true},   {"9223372036854775807", true},
      {"9223372036854775808", false},       {"1e-400", true}, {"0e400", true}, {"-9E", true},
  };
  for (const auto& row : rows) {
    INFO(row.in);
    const auto q = Quantity::parse(row.in);
    CHECK(q.ok() == row.ok);
    if (q.ok()) CHECK(q->exact_int().has_value() == (q->exponent() >= 0));
  }
  CHECK(Quantity::parse("1e400").error() ==
        "quantity '1e400' is too large (the largest quantity is 9223372036854775807)");
  CHECK(Quantity::parse("1e-400")->to_string() == "1e-9");  // rounded up to a nano, as Kubernetes rounds
}

TEST_CASE("values round up to integers the way Go's Value() does", "[quantity]") {
  CHECK(Quantity::parse("1.5")->value_ceil() == 2);
  CHECK(Quantity::parse("16")->value_ceil() == 16);
  CHECK(Quantity::parse("100m")->value_ceil() == 1);
  CHECK(Quantity::parse("24Gi")->value_ceil() == 25769803776);
  CHECK(Quantity::parse("100m")->milli_value_ceil() == 100);
  CHECK(Quantity::parse("2")->milli_value_ceil() == 2000);
  CHECK(Quantity::parse("24Gi")->exact_int() == 25769803776);
  CHECK_FALSE(Quantity::parse("1.5")->exact_int().has_value());
}

TEST_CASE("quantities compare by value whatever their spelling", "[quantity]") {
  CHECK(*Quantity::parse("1Ki") == *Quantity::parse("1024"));
  CHECK(*Quantity::parse("1k") == *Quantity::parse("1000"));
  CHECK(*Quantity::parse("1500m") == *Quantity::parse("1.5"));
  CHECK(*Quantity::parse("1") < *Quantity::parse("1001m"));
  CHECK(*Quantity::parse("-1") < *Quantity::parse("0"));
  CHECK(*Quantity::parse("1E") > *Quantity::parse("999P"));
}

TEST_CASE("a scaled quantity folds trailing zeros and prints like its parsed spelling", "[quantity]") {
  using F = Quantity::Format;
  struct Row {
    int64_t mantissa;
    int32_t exponent;
    F format;
    const char* parsed;  // the text parse() reads as the same value and format
    const char* printed;
  };
  const Row rows[] = {
      {1600000, 0, F::kDecimalSI, "1600000", "1600k"},
      {16, 5, F::kDecimalSI, "1600k", "1600k"},
      {125000, -6, F::kDecimalSI, "125m", "125m"},
      {125, -6, F::kDecimalSI, "125u", "125u"},
      {-1500, -3, F::kDecimalSI, "-1.5", "-1500m"},
      {1, -9, F::kDecimalSI, "1n", "1n"},
      {125, -6, F::kDecimalExponent, "125e-6", "125e-6"},
      {64, 5, F::kDecimalExponent, "64e5", "6400e3"},
      {25769803776, 0, F::kBinarySI, "24Gi", "24Gi"},
      {15, -1, F::kBinarySI, "1.5", "1500m"},  // binary SI only prints integers
      {0, 7, F::kDecimalSI, "0", "0"},
  };
  for (const auto& r : rows) {
    INFO(r.mantissa << "e" << r.exponent);
    const auto q = Quantity::from_scaled(r.mantissa, r.exponent, r.format);
    const auto want = Quantity::parse(r.parsed);
    REQUIRE(want.ok());
    CHECK(q == *want);
    CHECK(q.mantissa() == want->mantissa());
    CHECK(q.exponent() == want->exponent());
    CHECK(q.to_string() == r.printed);
  }
  CHECK(Quantity::from_scaled(1600000, 0, F::kDecimalSI).mantissa() == 16);
  CHECK(Quantity::from_scaled(1600000, 0, F::kDecimalSI).exponent() == 5);
  CHECK(Quantity::from_scaled(3, 0, F::kBinarySI).format() == F::kBinarySI);
}

TEST_CASE("the powers of ten come from the table as the plain product gives them, up to 10^38", "[quantity]") {
  using chaintwin::model::i128;
  i128 product = 1;
  for (int n = 0; n <= 38; ++n) {
    CAPTURE(n);
    CHECK(chaintwin::model::pow10_i128(n) == product);
    if (n < 38) product *= 10;
  }
  CHECK(chaintwin::model::pow10_i128(-5) == 1);
  CHECK(chaintwin::model::i128_to_decimal(chaintwin::model::pow10_i128(38)) == "1" + std::string(38, '0'));
}
