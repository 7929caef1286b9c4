// `expect: - at: end, slo: {...}` in scenario files (scenario_slo.cpp): what a good entry becomes,
// and the exact `file:line: field: reason` of every bad one.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario_loader.h"

namespace {

using namespace chaintwin;

// Lines 1-3 header, 4-8 two generators; the expect entry is on line 10.
const std::string kHead =
    "apiVersion: chaintwin/v1\nkind: Scenario\nhorizon: 2h\n"
    "workloads:\n"
    "- {name: chat, arrival: {every: 5m}, duration: {fixed: 1h}, podSets: [{request: {cpu: 1}}]}\n"
    "- {name: batch, arrival: {every: 5m}, duration: {fixed: 1h}, podSets: [{request: {cpu: 1}}]}\n"
    "# -\n"
    "# -\n"
    "expect:\n";

model::Result<sim::Scenario> with_expect(const std::string& entry) {
  return sim::load_scenario_text(kHead + "- " + entry + "\n", "t.yaml");
}

}  // namespace

TEST_CASE("an slo expectation reads its subject and its checks", "[scenario][slo]") {
  const auto s = with_expect(
      "{at: end, slo: {class: chat, wait: {p95: \"<= 15m\", max: \"< 1h\"}, admittedFraction: \">= 0.9\", "
      "neverAdmitted: 0}}");
  INFO((s.ok() ? std::string() : s.error()));
  REQUIRE(s.ok());
  REQUIRE(s->expectations.size() == 1);
  const sim::Expectation& e = s->expectations[0];
  CHECK_FALSE(e.at.has_value());
  REQUIRE(e.slo.has_value());
  CHECK(e.slo->subject == sim::SloExpectation::Subject::kClass);
  CHECK(e.slo->name == "chat");
  REQUIRE(e.slo->wait.size() == 2);
  CHECK(e.slo->wait.at("p95").str() == "<= 15m");
  CHECK(e.slo->wait.at("max").str() == "< 1h");
  REQUIRE(e.slo->admitted_fraction.has_value());
  CHECK(e.slo->admitted_fraction->str() == ">= 0.9");
  CHECK(e.slo->admitted_fraction->mantissa == 9);
  CHECK(e.slo->admitted_fraction->scale == 1);
  REQUIRE(e.slo->never_admitted.has_value());
  CHECK(e.slo->never_admitted->str() == "0");

  const auto pool = with_expect("{at: end, slo: {pool: some-queue, utilization: 0.5}}");
  REQUIRE(pool.ok());
  CHECK(pool->expectations[0].slo->subject == sim::SloExpectation::Subject::kPool);
  CHECK(pool->expectations[0].slo->utilization->str() == "0.5");
  const auto model = with_expect("{at: end, slo: {gpuModel: nvidia-tesla-t4, utilization: \"> 0.25\"}}");
  REQUIRE(model.ok());
  CHECK(model->expectations[0].slo->subject == sim::SloExpectation::Subject::kGpuModel);
}

TEST_CASE("decimal comparisons of an slo hold exactly on the fraction", "[scenario][slo]") {
  struct Row {
    const char* written;
    int64_t numerator, denominator;
    bool holds;
  };
  const Row rows[] = {
      {"\">= 0.9\"", 9, 10, true},   {"\">= 0.9\"", 8, 10, false}, {"\"> 0.9\"", 9, 10, false},
      {"\"== 0.75\"", 3, 4, true},   {"0.75", 3, 4, true},         {"\"< 1\"", 19, 20, true},
      {"1", 20, 20, true},           {"\"!= 1\"", 20, 20, false},  {"\">= 0.333\"", 1, 3, true},
      {"\">= 0.334\"", 1, 3, false}, {"\"<=0.5\"", 1, 2, true},
  };
  for (const auto& r : rows) {
    INFO(r.written << " on " << r.numerator << "/" << r.denominator);
    const auto s = with_expect(std::string("{at: end, slo: {class: chat, admittedFraction: ") + r.written + "}}");
    INFO((s.ok() ? std::string() : s.error()));
    REQUIRE(s.ok());
    CHECK(s->expectations[0].slo->admitted_fraction->holds(r.numerator, r.denominator) == r.holds);
  }
}

TEST_CASE("bad slo expectations are refused with the file, the line, the field and the reason", "[scenario][slo]") {
  const std::vector<std::pair<std::string, std::string>> table{
      {"{at: 1h, slo: {class: chat, neverAdmitted: 0}}",
       "t.yaml:10: expect[0].at: an SLO is judged on the whole run (expected at: end)"},
      {"{at: end, slo: {queue: chat, neverAdmitted: 0}}",
       "t.yaml:10: expect[0].slo.queue: unknown field (expected one of: class, pool, gpuModel, wait, admittedFraction, "
       "neverAdmitted, utilization)"},
      {"{at: end, slo: {neverAdmitted: 0}}",
       "t.yaml:10: expect[0].slo: missing subject (expected one of class, pool, gpuModel)"},
      {"{at: end, slo: {class: chat, pool: q, neverAdmitted: 0}}",
       "t.yaml:10: expect[0].slo.pool: an SLO has exactly one subject (also given: class)"},
      {"{at: end, slo: {class: chatt, neverAdmitted: 0}}",
       "t.yaml:10: expect[0].slo.class: no workload class 'chatt' (known: batch, chat)"},
      {"{at: end, slo: {class: chat, wait: {p96: \"<= 15m\"}}}",
       "t.yaml:10: expect[0].slo.wait.p96: unknown field (expected one of: p50, p90, p95, p99, max)"},
      {"{at: end, slo: {class: chat, wait: {}}}",
       "t.yaml:10: expect[0].slo.wait: expected at least one percentile (p50, p90, p95, p99, max)"},
      {"{at: end, slo: {class: chat, wait: {p95: 15m}}}",
       "t.yaml:10: expect[0].slo.wait.p95: '15m' is not a wait bound (expected a comparison and a duration such as "
       "\"<= 15m\" (==, !=, >=, <=, >, <))"},
      {"{at: end, slo: {class: chat, wait: {p95: \"<= soon\"}}}",
       "t.yaml:10: expect[0].slo.wait.p95: '<= soon' is not a wait bound (expected a comparison and a duration such "
       "as \"<= 15m\" (==, !=, >=, <=, >, <))"},
      {"{at: end, slo: {class: chat, admittedFraction: \">= .9\"}}",
       "t.yaml:10: expect[0].slo.admittedFraction: '>= .9' is not a comparison (expected a number or a comparison "
       "and a number such as \">= 0.9\" (==, !=, >=, <=, >, <; a plain decimal))"},
      {"{at: end, slo: {class: chat, admittedFraction: most}}",
       "t.yaml:10: expect[0].slo.admittedFraction: 'most' is not a comparison (expected a number or a comparison "
       "and a number such as \">= 0.9\" (==, !=, >=, <=, >, <; a plain decimal))"},
      {"{at: end, slo: {class: chat, neverAdmitted: \"few\"}}",
       "t.yaml:10: expect[0].slo.neverAdmitted: 'few' is not a comparison (expected an integer or a comparison such "
       "as \">= 480\" (==, !=, >=, <=, >, <))"},
      {"{at: end, slo: {class: chat, utilization: \">= 0.5\"}}",
       "t.yaml:10: expect[0].slo.utilization: not a check of a class SLO (expected: wait, admittedFraction, "
       "neverAdmitted; utilization goes with pool or gpuModel)"},
      {"{at: end, slo: {pool: q}}",
       "t.yaml:10: expect[0].slo: nothing to check (expected one of: wait, admittedFraction, neverAdmitted, "
       "utilization)"},
      {"{at: end, slo: {class: chat}}",
       "t.yaml:10: expect[0].slo: nothing to check (expected one of: wait, admittedFraction, neverAdmitted)"},
      {"{at: end, slo: {class: chat, neverAdmitted: 0}, stopPolicy: None}",
       "t.yaml:10: expect[0].stopPolicy: not a check of a slo expectation (expected: checks inside slo)"},
      {"{at: end, slo: chat}",
       "t.yaml:10: expect[0].slo: expected an SLO {class | pool | gpuModel, wait, admittedFraction, ...} (a mapping), "
       "got a string"},
  };
  for (const auto& [entry, want] : table) {
    INFO(entry);
    const auto s = with_expect(entry);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error() == want);
  }
}
