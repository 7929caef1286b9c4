#include <catch2/catch.hpp>

#include "model/api/rfc3339.h"

using namespace chaintwin::model;

TEST_CASE("RFC 3339 timestamps round-trip through seconds since the epoch", "[rfc3339]") {
  CHECK(format_rfc3339(0) == "1970-01-01T00:00:00Z");
  CHECK(format_rfc3339(1767225600) == "2026-01-01T00:00:00Z");
  CHECK(format_rfc3339(1767225600 + 35 * 60) == "2026-01-01T00:35:00Z");
  CHECK(*parse_rfc3339("2026-01-01T00:35:00Z") == 1767225600 + 35 * 60);
  CHECK(*parse_rfc3339("2024-02-29T23:59:59Z") == *parse_rfc3339("2024-03-01T00:00:00Z") - 1);
  CHECK(*parse_rfc3339("2026-01-01T01:00:00+01:00") == 1767225600);
  CHECK(*parse_rfc3339("2026-01-01T00:00:00.75Z") == 1767225600);  // the fraction is dropped
}

TEST_CASE("every second formats to the text that parses back to it, across days, years and centuries", "[rfc3339]") {
  // Steps of a prime number of seconds over 0000..9999, plus each edge of the day and the year.
  const int64_t first = *parse_rfc3339("0000-01-01T00:00:00Z");
  const int64_t last = *parse_rfc3339("9999-12-31T23:59:59Z");
  for (int64_t t = first; t <= last; t += 7919 * 3607) {
    INFO(t);
    const std::string text = format_rfc3339(t);
    CHECK(text.size() == 20);
    CHECK(parse_rfc3339(text) == t);
  }
  CHECK(format_rfc3339(last) == "9999-12-31T23:59:59Z");
  CHECK(format_rfc3339(first) == "0000-01-01T00:00:00Z");
  CHECK(format_rfc3339(1767225600 - 1) == "2025-12-31T23:59:59Z");
  // Years of another width keep the general form.
  CHECK(format_rfc3339(last + 1) == "10000-01-01T00:00:00Z");
  CHECK(format_rfc3339(first - 1) == "-0001-12-31T23:59:59Z");
}

TEST_CASE("text that is not an RFC 3339 timestamp does not parse", "[rfc3339]") {
  for (const char* bad : {"", "2026-01-01", "2026-01-01 00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00",
                          "2026-01-01T00:00:00Zx", "2026-01-01T24:00:00Z"}) {
    INFO(bad);
    CHECK_FALSE(parse_rfc3339(bad).has_value());
  }
}
