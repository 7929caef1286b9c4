#include <catch2/catch.hpp>

#include <climits>

#include "sim/results/duration_text.h"

using chaintwin::sim::column_precision;
using chaintwin::sim::duration_bound_text;
using chaintwin::sim::duration_text;
using P = chaintwin::sim::DurationPrecision;

namespace {

constexpr int64_t kS = 1'000'000;
constexpr int64_t kM = 60 * kS;
constexpr int64_t kH = 60 * kM;
constexpr int64_t kD = 24 * kH;

}  // namespace

TEST_CASE("a duration prints its largest unit first and every smaller one down to seconds in two digits",
          "[duration_text]") {
  struct Row {
    const char* what;
    int64_t us;
    P precision;
    const char* printed;
  };
  const Row rows[] = {
      {"zero", 0, P::kSeconds, "0s"},
      {"zero in hundredths", 0, P::kHundredths, "0s"},
      {"zero exact", 0, P::kExact, "0s"},
      {"sub-second in whole seconds", 58'717, P::kSeconds, "<1s"},
      {"sub-second in hundredths", 940'000, P::kHundredths, "0.94s"},
      {"hundredths cut, not rounded", 949'999, P::kHundredths, "0.94s"},
      {"under a hundredth", 4'000, P::kHundredths, "<0.01s"},
      {"sub-second exact", 58'717, P::kExact, "0.058717s"},
      {"seconds", 42 * kS + 999'999, P::kSeconds, "42s"},
      {"seconds in hundredths", 12 * kS + 500'000, P::kHundredths, "12.50s"},
      {"minutes", 5 * kM + 3 * kS, P::kSeconds, "5m03s"},
      {"whole minutes keep their seconds", 10 * kM, P::kSeconds, "10m00s"},
      {"hours", 6 * kH + 15 * kM + 3 * kS + 421'281, P::kSeconds, "6h15m03s"},
      {"hours in hundredths", 6 * kH + 15 * kM + 3 * kS + 421'281, P::kHundredths, "6h15m03.42s"},
      {"hours exact", 6 * kH + 15 * kM + 3 * kS + 421'281, P::kExact, "6h15m03.421281s"},
      {"exact drops trailing zeros", 15 * kM + 500'000, P::kExact, "15m00.5s"},
      {"exact whole", 18 * kH, P::kExact, "18h00m00s"},
      {"days", 119 * kD + 1 * kH + 25 * kM + 26 * kS, P::kSeconds, "119d01h25m26s"},
      {"a whole day", kD, P::kSeconds, "1d00h00m00s"},
      {"negative", -(6 * kH + 40 * kM + 50 * kS + 283'829), P::kSeconds, "-6h40m50s"},
      {"negative sub-second", -21'788, P::kSeconds, "-<1s"},
      {"negative in hundredths", -21'788, P::kHundredths, "-0.02s"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(duration_text(r.us, r.precision) == r.printed);
  }
  CHECK(duration_text(INT64_MIN, P::kSeconds) == "-106751991d04h00m54s");
}

TEST_CASE("a bound rounds toward what keeps it true and never reads as less than a second",
          "[duration_text]") {
  struct Row {
    const char* what;
    int64_t us;
    P precision;
    bool round_up;
    const char* printed;
  };
  const Row rows[] = {
      {"censored wait: at least, rounded down", 11 * kH + 26 * kM + 37 * kS + 421'281, P::kSeconds, false,
       "11h26m37s"},
      {"censored under a second: at least 0", 300'000, P::kSeconds, false, "0s"},
      {"at most, rounded up", 11 * kH + 26 * kM + 37 * kS + 421'281, P::kSeconds, true, "11h26m38s"},
      {"negative at least, rounded down (away from zero)", -(3 * kH + 500'000), P::kSeconds, false, "-3h00m01s"},
      {"negative at most, rounded up (toward zero)", -(3 * kH + 500'000), P::kSeconds, true, "-3h00m00s"},
      {"negative under a second at most is 0", -300'000, P::kSeconds, true, "0s"},
      {"hundredths up", 4'000, P::kHundredths, true, "0.01s"},
      {"whole values do not move", 15 * kM, P::kSeconds, true, "15m00s"},
      {"exact does not round", 1, P::kExact, true, "0.000001s"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(duration_bound_text(r.us, r.precision, r.round_up) == r.printed);
  }
}

TEST_CASE("a column prints in hundredths only when every value is under a minute", "[duration_text]") {
  struct Row {
    const char* what;
    std::vector<int64_t> us;
    P precision;
  };
  const Row rows[] = {
      {"empty", {}, P::kHundredths},
      {"zeros", {0, 0}, P::kHundredths},
      {"sub-second and seconds", {58'717, 59 * kS + 999'999}, P::kHundredths},
      {"one value of a minute", {58'717, kM}, P::kSeconds},
      {"a negative minute counts by its magnitude", {0, -kM}, P::kSeconds},
      {"hours", {0, 3 * kH}, P::kSeconds},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(column_precision(r.us) == r.precision);
  }
}
