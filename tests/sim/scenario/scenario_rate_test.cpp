// Poisson rates in scenario files (scenario_reader.cpp: as_rate): whole and decimal counts per
// second, minute, hour or day, and the exact message for every rate that is refused.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario_loader.h"

namespace {

using namespace chaintwin;

// A scenario with one generator whose Poisson rate is `rate`; the rate is on line 6.
model::Result<sim::Scenario> with_rate(const std::string& rate) {
  return sim::load_scenario_text("apiVersion: chaintwin/v1\nkind: Scenario\nhorizon: 2h\n"
                                 "workloads:\n- name: w\n  arrival: {poisson: {rate: \"" +
                                     rate + "\"}}\n  duration: {fixed: 1h}\n  podSets: [{request: {cpu: 1}}]\n",
                                 "t.yaml");
}

}  // namespace

TEST_CASE("a rate may be a whole or a decimal count per second, minute, hour or day", "[scenario][rate]") {
  struct Row {
    const char* rate;
    double per_second;
  };
  const Row rows[] = {
      {"12/h", 12.0 / 3600},    {"1.5/h", 1.5 / 3600},      {"0.25/m", 0.25 / 60},  {"3/s", 3.0},
      {"0.5/d", 0.5 / 86400},   {"007.50/h", 7.5 / 3600},   {"1000000/s", 1e6},     {"0.001/d", 0.001 / 86400},
  };
  for (const auto& r : rows) {
    INFO(r.rate);
    const auto s = with_rate(r.rate);
    INFO((s.ok() ? std::string() : s.error()));
    REQUIRE(s.ok());
    CHECK(s->workloads.at(0).arrival.rate_per_second == Approx(r.per_second));
  }
}

TEST_CASE("a rate that is not a positive plain decimal per known unit is refused with the reason", "[scenario][rate]") {
  const std::string what = "workloads[0].arrival.poisson.rate: ";
  const std::string expected =
      " (expected a rate <count>/<unit> such as 12/h or 1.5/h: a positive decimal count (digits, optionally a point "
      "and digits) and a unit s, m, h or d)";
  const std::vector<std::pair<std::string, std::string>> table{
      {"0/h", "'0/h': the count must be greater than 0" + expected},
      {"0.0/h", "'0.0/h': the count must be greater than 0" + expected},
      {"-1/h", "'-1/h' is not a rate" + expected},
      {"+1/h", "'+1/h' is not a rate" + expected},
      {".5/h", "'.5/h' is not a rate" + expected},
      {"5./h", "'5./h' is not a rate" + expected},
      {"1.2.3/h", "'1.2.3/h' is not a rate" + expected},
      {"1e3/h", "'1e3/h' is not a rate" + expected},
      {"inf/h", "'inf/h' is not a rate" + expected},
      {"nan/h", "'nan/h' is not a rate" + expected},
      {"1 /h", "'1 /h' is not a rate" + expected},
      {"12", "'12' is not a rate" + expected},
      {"/h", "'/h' is not a rate" + expected},
      {"1.5/hour", "'1.5/hour': unknown rate unit 'hour' (expected s, m, h or d)"},
      // 1e400 written out: finite digits, but no double holds it.
      {"1" + std::string(400, '0') + "/h", "'1" + std::string(400, '0') + "/h' is not a rate" + expected},
      {"2000000/s", "'2000000/s' is out of range (expected a mean interval between 1us and 10000d, i.e. a rate "
                    "between 1/10000d and 1000000/s)"},
      {"0.00001/d", "'0.00001/d' is out of range (expected a mean interval between 1us and 10000d, i.e. a rate "
                    "between 1/10000d and 1000000/s)"},
  };
  for (const auto& [rate, message] : table) {
    INFO(rate);
    const auto s = with_rate(rate);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == "t.yaml:6: " + what + message);
  }
}
