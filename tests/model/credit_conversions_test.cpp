#include <catch2/catch.hpp>

#include "model/credit_conversions.h"

namespace m = chaintwin::model;

namespace {
m::Quantity q(const char* text) { return *m::Quantity::parse(text); }
std::string show(const m::Result<m::Quantity>& r) { return r ? r->to_string() : "error: " + r.error(); }
}  // namespace

TEST_CASE("whole accelerators become M credits each and come back exactly", "[credits]") {
  struct Row {
    const char* accelerators;
    const char* credits;
  };
  const Row rows[] = {{"4", "6400k"}, {"0", "0"}, {"1", "1600k"}, {"125m", "200k"}, {"3625m", "5800k"}};
  for (const auto& row : rows) {
    INFO(row.accelerators);
    CHECK(show(m::accelerators_to_credits(q(row.accelerators))) == row.credits);
    CHECK(show(m::credits_to_accelerators(q(row.credits))) == m::Quantity::parse(row.accelerators)->to_string());
  }
}

TEST_CASE("a fractional credit is rounded up before converting, as Kueue reads it", "[credits]") {
  CHECK(show(m::credits_to_accelerators(q("199999500m"))) == "125m");
  // Below the micro scale the fraction floors: 1 credit is 0.625 µ-accelerator, 2 credits 1.25.
  CHECK(show(m::credits_to_accelerators(q("1"))) == "0");
  CHECK(show(m::credits_to_accelerators(q("2"))) == "1u");
}

TEST_CASE("slice counts floor and unknown slice sizes pass the quantity through", "[credits]") {
  struct Row {
    const char* quantity;
    int64_t sliced;
    const char* count;
  };
  const Row rows[] = {{"1", 0, "1"},      {"1.5", 1, "1"},    {"1", 2, "2"},   {"0.5", 4, "2"},
                      {"0.125", 16, "2"}, {"0.1", 8, "0"},    {"3", 3, "3"},   {"1", 1024, "1"}};
  for (const auto& row : rows) {
    INFO(row.quantity << " sliced " << row.sliced);
    CHECK(show(m::quantity_to_slice_count(q(row.quantity), row.sliced)) == row.count);
  }
}

TEST_CASE("aligned values are M / sliced per slice and convert back to the slice count", "[credits]") {
  CHECK(show(m::quantity_to_aligned_value(q("1.5"), 1)) == "2400k");
  CHECK(show(m::quantity_to_aligned_value(q("1"), 8)) == "200k");
  CHECK(show(m::quantity_to_aligned_value(q("1"), 512)) == "3125");
  CHECK(show(m::quantity_to_aligned_value(q("1"), 0)) == "1");
  CHECK(show(m::quantity_to_original_value(q("800000"), 2)) == "1");
  CHECK(show(m::quantity_to_original_value(q("3125"), 512)) == "1");
  CHECK(show(m::quantity_to_original_value(q("1000"), 512)) == "320m");
}

TEST_CASE("only powers of two from 2 to 512 are valid slice partitions", "[credits]") {
  for (int64_t n : {2, 4, 8, 16, 32, 64, 128, 256, 512}) CHECK(m::is_valid_sliced_partitions(n));
  for (int64_t n : {-8, 0, 1, 3, 6, 1024}) CHECK_FALSE(m::is_valid_sliced_partitions(n));
}
