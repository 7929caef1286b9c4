#include <catch2/catch.hpp>

#include "viz/units_text.h"

using namespace chaintwin::viz;

TEST_CASE("every GUI number carries its unit, credits also as cards", "[viz][units]") {
  struct Row {
    const char* resource;
    int64_t value;
    const char* text;
    const char* short_text;
  };
  const Row rows[] = {
      {"credits.gpustack.ai/nvidia", 1'600'000, "1,600,000 cr (1.00 cards)", "1.00 cards"},
      {"credits.gpustack.ai/nvidia", 400'000, "400,000 cr (0.25 cards)", "0.25 cards"},
      {"credits.gpustack.ai/hygon", 12'800'000, "12,800,000 cr (8.00 cards)", "8.00 cards"},
      {"cpu", 312'000, "312.000 cores", "312.0 cores"},
      {"cpu", 2'500, "2.500 cores", "2.5 cores"},
      {"pods", 1234, "1,234 pods", "1,234"},
  };
  for (const auto& row : rows) {
    INFO(row.resource << " " << row.value);
    CHECK(quantity_text(row.resource, row.value) == row.text);
    CHECK(quantity_short(row.resource, row.value) == row.short_text);
  }
  CHECK(grouped(0) == "0");
  CHECK(grouped(-1'600'000) == "-1,600,000");
}

TEST_CASE("simulated time reads and writes as the event log spells it", "[viz][units]") {
  CHECK(time_text(0) == "0d00:00:00");
  CHECK(time_text(93'784'000'000) == "1d02:03:04");
  CHECK(time_text(1'500'000) == "0d00:00:01.5");
  struct Row {
    const char* text;
    bool ok;
    int64_t us;
  };
  const Row rows[] = {{"90s", true, 90'000'000},      {"15m", true, 900'000'000},   {"2h", true, 7'200'000'000},
                      {"1d", true, 86'400'000'000},  {"1.5h", true, 5'400'000'000}, {"30", true, 30'000'000},
                      {"1d02:00:00", true, 93'600'000'000}, {"", false, 0},        {"2x", false, 0},
                      {"-1h", false, 0},             {"h", false, 0},              {"1d25:00:00", false, 0}};
  for (const auto& row : rows) {
    INFO(row.text);
    int64_t us = -1;
    CHECK(parse_time(row.text, &us) == row.ok);
    if (row.ok) CHECK(us == row.us);
  }
}
