#include <string>

#include <catch2/catch.hpp>

#include "model/api/go_duration.h"

using namespace chaintwin::model;

TEST_CASE("Go durations parse as time.ParseDuration reads them, in microseconds", "[go_duration]") {
  struct Row {
    const char* text;
    int64_t us;
  };
  const Row rows[] = {
      {"0", 0},           {"10m", 600'000'000},   {"1h30m", 5'400'000'000}, {"5m0s", 300'000'000},
      {"1.5s", 1'500'000}, {"250ms", 250'000},      {"2us", 2},                {"3\xC2\xB5s", 3},
      {"1500ns", 1},      {"-1m", -60'000'000},     {"+2s", 2'000'000},        {".5s", 500'000},
      {"1h0m0s", 3'600'000'000},
  };
  for (const auto& r : rows) {
    INFO(r.text);
    const auto got = parse_go_duration(r.text);
    REQUIRE(got.ok());
    CHECK(*got == r.us);
  }
}

TEST_CASE("text that is not a Go duration is refused with Go's message", "[go_duration]") {
  struct Row {
    const char* text;
    const char* message;
  };
  const Row rows[] = {
      {"", R"(time: invalid duration "")"},
      {"10", R"(time: missing unit in duration "10")"},
      {"5 m", R"(time: unknown unit " m" in duration "5 m")"},
      {"3d", R"(time: unknown unit "d" in duration "3d")"},
      {"m", R"(time: invalid duration "m")"},
      {"99999999999999999999h", R"(time: invalid duration "99999999999999999999h")"},
  };
  for (const auto& r : rows) {
    INFO(r.text);
    const auto got = parse_go_duration(r.text);
    REQUIRE_FALSE(got.ok());
    CHECK(got.error() == r.message);
  }
}

TEST_CASE("durations print as Go's Duration.String", "[go_duration]") {
  struct Row {
    int64_t us;
    const char* text;
  };
  const Row rows[] = {
      {0, "0s"},           {600'000'000, "10m0s"}, {3'600'000'000, "1h0m0s"}, {1'500'000, "1.5s"},
      {250'000, "250ms"},  {1'250, "1.25ms"},      {7, "7\xC2\xB5s"},          {-60'000'000, "-1m0s"},
      {5'400'000'000, "1h30m0s"},
  };
  for (const auto& r : rows) {
    INFO(r.us);
    CHECK(format_go_duration(r.us) == r.text);
    CHECK(*parse_go_duration(format_go_duration(r.us)) == r.us);
  }
}
