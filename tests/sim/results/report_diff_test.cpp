// diff_reports and its text (sim/results/report_diff.h): B − A per figure, bounds where a wait is
// censored, rows that only one run has.
#include <catch2/catch.hpp>

#include "sim/results/report_diff.h"

namespace {

using namespace chaintwin::sim;

ClassReport with_wait(std::string generator, std::optional<WaitPercentile> p95) {
  ClassReport c;
  c.generator = std::move(generator);
  c.workloads.workloads = 10;
  c.workloads.admitted = 8;
  c.workloads.wait.count = 10;
  c.workloads.wait.censored = p95 && p95->censored ? 2 : 0;
  c.workloads.wait.p95 = p95;
  return c;
}

// The B − A cell of `figure` in `text`'s line for `row`.
std::string cell(const std::string& text, const std::string& row, const std::string& figure) {
  const size_t at = text.find("\n" + row + "  ");
  for (size_t line = at; line != std::string::npos; line = text.find("\n" + row + "  ", line + 1)) {
    const size_t end = text.find('\n', line + 1);
    const std::string l = text.substr(line + 1, end - line - 1);
    if (l.find("  " + figure + "  ") == std::string::npos) continue;
    const size_t gap = l.rfind("  ");
    return l.substr(l.find_first_not_of(' ', gap));
  }
  return "(no line)";
}

}  // namespace

TEST_CASE("a wait difference is exact, or a bound when a side is censored", "[report_diff]") {
  struct Row {
    const char* what;
    std::optional<WaitPercentile> a, b;
    std::string difference;
    std::string bound;  // JSON
  };
  const int64_t m = 60'000'000;
  const int64_t s = 1'000'000;
  const Row rows[] = {
      {"both observed, equal", WaitPercentile{10 * m, false}, WaitPercentile{10 * m, false}, "0", "exact"},
      {"both observed", WaitPercentile{10 * m, false}, WaitPercentile{25 * m, false}, "+15m00s", "exact"},
      {"both observed, shorter", WaitPercentile{25 * m, false}, WaitPercentile{10 * m, false}, "-15m00s", "exact"},
      {"both under a minute: hundredths", WaitPercentile{81'833, false}, WaitPercentile{60'045, false}, "-0.02s",
       "exact"},
      {"B censored: at least", WaitPercentile{10 * m, false}, WaitPercentile{60 * m, true}, ">= +50m00s", "at_least"},
      {"A censored: at most", WaitPercentile{60 * m, true}, WaitPercentile{30 * m, false}, "<= -30m00s", "at_most"},
      {"at least rounds down", WaitPercentile{180 * m + 10 * s + 500'000, false}, WaitPercentile{10 * s, true},
       ">= -3h00m01s", "at_least"},
      {"at most rounds up", WaitPercentile{10 * s, true}, WaitPercentile{180 * m + 10 * s + 500'000, false},
       "<= +3h00m01s", "at_most"},
      {"both censored: unknown", WaitPercentile{60 * m, true}, WaitPercentile{90 * m, true}, "? (both censored)",
       "unknown"},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    Report a, b;
    a.classes = {with_wait("chat", r.a)};
    b.classes = {with_wait("chat", r.b)};
    const ReportDiff d = diff_reports(a, b);
    CHECK(cell(report_diff_text(d), "chat", "wait p95") == r.difference);
    const auto j = report_diff_json(d);
    const auto& fig = j["classes"][0]["figures"][7];
    REQUIRE(fig["figure"] == "wait p95");
    CHECK(fig["difference"]["bound"] == r.bound);
    CHECK(fig["difference"]["us"] == r.b->us - r.a->us);
  }
}

TEST_CASE("rows that only one run has are kept and marked", "[report_diff]") {
  Report a, b;
  PoolReport p;
  p.cluster_queue = "cq-new";
  p.resource = "credits.gpustack.ai/nvidia";
  p.utilization = 0.5;
  b.pools = {p};
  a.classes = {with_wait("old", std::nullopt)};
  b.classes = {with_wait("chat", std::nullopt)};
  a.classes.push_back(with_wait("chat", std::nullopt));
  std::swap(a.classes[0], a.classes[1]);  // sorted by generator, as build_report gives them
  const ReportDiff d = diff_reports(a, b);
  REQUIRE(d.pools.size() == 1);
  CHECK_FALSE(d.pools[0].in_a);
  CHECK(d.pools[0].in_b);
  const std::string text = report_diff_text(d);
  CHECK(cell(text, "cq-new", "utilization") == "(only in B)");
  CHECK(cell(text, "old", "arrived") == "(only in A)");
  CHECK(cell(text, "chat", "arrived") == "0");
  // Every figure of a one-sided row differs: 7 of the pool, 10 of class old.
  CHECK(d.differences() == 17);
  CHECK(text.substr(text.size() - 18) == "17 figures differ\n");
  const auto j = report_diff_json(d);
  CHECK(j["pools"][0]["in"] == "b");
  CHECK(j["pools"][0]["figures"][0]["a"].is_null());
  CHECK(j["pools"][0]["figures"][0]["b"] == 0.5);
  CHECK(j["pools"][0]["figures"][0]["difference"].is_null());
  CHECK(j["classes"][1]["generator"] == "old");
  CHECK(j["classes"][1]["in"] == "a");
}

TEST_CASE("pool differences are in their table's unit and utilization differs in percentage points", "[report_diff]") {
  Report a, b;
  PoolReport p;
  p.cluster_queue = "cq";
  p.resource = "credits.gpustack.ai/nvidia";
  p.utilization = 0.25;
  p.reserved.mean = 1'600'000;
  p.held_us = 60'000'000;
  a.pools = {p};
  p.utilization = 0.5;
  p.reserved.mean = 4'000'000;
  p.held_us = 0;
  b.pools = {p};
  p.resource = "cpu";
  p.reserved.mean = 2'500;
  b.pools.push_back(p);
  p.reserved.mean = 1'000;
  a.pools.push_back(p);
  const std::string text = report_diff_text(diff_reports(a, b));
  CHECK(cell(text, "cq", "utilization") == "+25.00 pp");
  CHECK(cell(text, "cq", "reserved mean") == "+1.500");
  CHECK(cell(text, "cq", "held") == "-1m00s");
  CHECK(cell(text, "cq", "nominal mean") == "0");
  // One table per unit, cards first, each titled with its unit.
  const size_t cards = text.find("\nPools in cards (ClusterQueue × resource, 1 card = 1,600,000 credits;");
  const size_t cores = text.find("\nPools in cores (ClusterQueue × resource;");
  REQUIRE(cards != std::string::npos);
  REQUIRE(cores != std::string::npos);
  CHECK(cards < cores);
  CHECK(text.find(" cpu ", cards) > cores);  // the cpu rows are in the cores table only
  CHECK(text.find(" cpu ", cores) != std::string::npos);
}
