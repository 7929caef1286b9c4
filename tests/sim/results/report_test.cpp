#include <catch2/catch.hpp>

#include <deque>
#include <ostream>

#include "sim/results/report.h"

using chaintwin::sim::build_report;
using chaintwin::sim::nearest_rank;
using chaintwin::sim::PoolSample;
using chaintwin::sim::Report;
using chaintwin::sim::report_json;
using chaintwin::sim::report_text;
using chaintwin::sim::RunRecord;
using chaintwin::sim::SimTime;
using chaintwin::sim::wait_stats;
using chaintwin::sim::WaitPercentile;
using chaintwin::sim::WaitStats;
using chaintwin::sim::WorkloadOutcome;

namespace chaintwin::sim {
bool operator==(const WaitPercentile& a, const WaitPercentile& b) { return a.us == b.us && a.censored == b.censored; }
std::ostream& operator<<(std::ostream& os, const WaitPercentile& p) {
  return os << (p.censored ? ">= " : "") << p.us << " us";
}
}  // namespace chaintwin::sim

namespace {

constexpr int64_t kCard = 1'600'000;
const std::string kCredits = "credits.gpustack.ai/nvidia";

PoolSample sample(int64_t hour, int64_t nominal, int64_t reserved, chaintwin::model::StopPolicy stop_policy = chaintwin::model::StopPolicy::kNone,
                  bool draining = false, std::string queue = "cq-a", std::string resource = kCredits) {
  PoolSample s;
  s.at = SimTime::hours(hour);
  s.cluster_queue = std::move(queue);
  s.resource = std::move(resource);
  s.nominal = nominal;
  s.reserved = reserved;
  s.admitted = reserved;
  s.stop_policy = stop_policy;
  s.draining = draining;
  return s;
}

// A workload of class `generator` created at `created_s` seconds; the builder defaults the rest.
struct Wl {
  WorkloadOutcome o;
  Wl(std::string key, std::string generator, int64_t created_s = 0, std::string queue = "cq-a") {
    o.key = std::move(key);
    o.generator = std::move(generator);
    o.cluster_queue = std::move(queue);
    o.created = SimTime::seconds(created_s);
  }
  Wl& admitted_after(int64_t wait_s) {
    o.first_reserved = o.created + SimTime::seconds(wait_s);
    o.first_admitted = o.created + SimTime::seconds(wait_s);
    o.admitted_at_end = true;
    return *this;
  }
  Wl& finished_at(int64_t s) {
    o.finished = SimTime::seconds(s);
    o.admitted_at_end = false;
    return *this;
  }
  Wl& evicted(int32_t n) {
    o.evictions = n;
    o.admitted_at_end = false;
    return *this;
  }
  Wl& retried(int32_t n) {
    o.retries = n;
    return *this;
  }
  Wl& rejected() {
    o.rejected = true;
    o.reject_message = "refused";
    return *this;
  }
  operator WorkloadOutcome() const { return o; }  // NOLINT(google-explicit-constructor)
};

RunRecord run_until(int64_t hour) {
  RunRecord r;
  r.info.scenario_name = "steps";
  r.info.scenario_file = "steps.yaml";
  r.info.scenario_hash = "00ff";
  r.info.version = "0.1.0";
  r.info.seed = 1;
  r.info.horizon = SimTime::hours(hour);
  r.info.ended_at = SimTime::hours(hour);
  r.info.events = 9;
  return r;
}

}  // namespace

TEST_CASE("nearest-rank percentiles pick the value at rank ceil(p times n over 100)", "[report]") {
  struct Row {
    std::vector<int64_t> sorted;
    int32_t percent;
    std::optional<int64_t> value;
  };
  std::vector<int64_t> tens;
  for (int64_t v = 10; v <= 200; v += 10) tens.push_back(v);  // n = 20
  const Row rows[] = {
      {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 50, 5},  // rank 5
      {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 95, 10}, // rank ceil(9.5) = 10
      {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 10, 1},  // rank 1
      {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 11, 2},  // rank ceil(1.1) = 2
      {tens, 50, 100},                           // rank 10
      {tens, 95, 190},                           // rank 19
      {tens, 99, 200},                           // rank ceil(19.8) = 20
      {{5, 7, 9}, 50, 7},                        // rank ceil(1.5) = 2
      {{5, 7, 9}, 95, 9},                        // rank ceil(2.85) = 3
      {{42}, 99, 42},
      {{}, 50, std::nullopt},
  };
  for (const auto& r : rows) {
    INFO(r.percent << " of " << r.sorted.size() << " values");
    CHECK(nearest_rank(r.sorted, r.percent) == r.value);
  }
}

TEST_CASE("wait percentiles count the never-admitted as censored at the end and leave the rejected out", "[report]") {
  // Each workload: created at 0 s; `wait` seconds to its first admission, or -1: never admitted
  // (censored at the end, 100 s), or -2: rejected at Gate 1.
  struct Row {
    const char* what;
    std::vector<int64_t> waits;
    int64_t count, censored;
    std::optional<WaitPercentile> p50, p90, p95, p99, max;
  };
  const auto at = [](int64_t s, bool censored = false) { return WaitPercentile{s * 1'000'000, censored}; };
  const Row rows[] = {
      {"no workloads", {}, 0, 0, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt},
      {"only rejected ones", {-2, -2}, 0, 0, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt},
      {"all admitted", {5, 1, 3, 2, 4}, 5, 0, at(3), at(5), at(5), at(5), at(5)},
      {"never admitted only", {-1, -1}, 2, 2, at(100, true), at(100, true), at(100, true), at(100, true),
       at(100, true)},
      // 16 of 20 never admitted: every percentile from rank 5 on is censored.
      {"mostly never admitted", {10, 20, 30, 40, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}, 20,
       16, at(100, true), at(100, true), at(100, true), at(100, true), at(100, true)},
      // 19 observed and one censored: p95 (rank 19) is observed, p99 (rank 20) is not.
      {"one censored at the top",
       {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, -1}, 20, 1, at(10), at(18), at(19),
       at(100, true), at(100, true)},
      // A wait equal to the censored value sorts first: the max is the censored one.
      {"an observed wait equal to a censored one", {100, -1}, 2, 1, at(100), at(100, true), at(100, true),
       at(100, true), at(100, true)},
      {"rejected ones are not counted", {7, -2, -2, -2}, 1, 0, at(7), at(7), at(7), at(7), at(7)},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    std::deque<WorkloadOutcome> outcomes;
    std::vector<const WorkloadOutcome*> list;
    for (const int64_t w : r.waits) {
      WorkloadOutcome& o = outcomes.emplace_back();
      o.created = SimTime::seconds(0);
      if (w >= 0) o.first_admitted = SimTime::seconds(w);
      o.rejected = w == -2;
      list.push_back(&o);
    }
    const WaitStats s = wait_stats(list, SimTime::seconds(100));
    CHECK(s.count == r.count);
    CHECK(s.censored == r.censored);
    CHECK(s.p50 == r.p50);
    CHECK(s.p90 == r.p90);
    CHECK(s.p95 == r.p95);
    CHECK(s.p99 == r.p99);
    CHECK(s.max == r.max);
  }
}

TEST_CASE("a censored wait is the time from creation to the end of the run", "[report]") {
  std::deque<WorkloadOutcome> outcomes(2);
  outcomes[0].created = SimTime::minutes(30);
  outcomes[1].created = SimTime::hours(2);  // created at the end: censored at 0
  const WaitStats s = wait_stats({&outcomes[0], &outcomes[1]}, SimTime::hours(2));
  CHECK(s.censored == 2);
  CHECK(s.p50 == WaitPercentile{0, true});
  CHECK(s.max == WaitPercentile{SimTime::minutes(90).us(), true});
}

TEST_CASE("utilization is reserved over nominal weighted by how long each step held", "[report]") {
  RunRecord run = run_until(4);
  // nominal 2 cards throughout; reserved 0 for 1h, 1 card for 2h (1h of it held), 2 cards for 1h.
  run.pool_series = {sample(0, 2 * kCard, 0), sample(1, 2 * kCard, kCard), sample(2, 2 * kCard, kCard, chaintwin::model::StopPolicy::kHold),
                     sample(3, 2 * kCard, 2 * kCard, chaintwin::model::StopPolicy::kHoldAndDrain, true), sample(4, 2 * kCard, 2 * kCard)};
  const Report report = build_report(run);
  REQUIRE(report.pools.size() == 1);
  const auto& p = report.pools[0];
  CHECK(p.span_us == SimTime::hours(4).us());
  CHECK(p.nominal.mean == Approx(2.0 * kCard));
  CHECK(p.nominal.peak == 2 * kCard);
  CHECK(p.reserved.mean == Approx(1.0 * kCard));  // (0·1 + 1·2 + 2·1) cards·h / 4 h
  CHECK(p.reserved.peak == 2 * kCard);
  REQUIRE(p.utilization.has_value());
  CHECK(*p.utilization == Approx(0.5));
  CHECK(p.held_us == SimTime::hours(1).us());
  CHECK(p.draining_us == SimTime::hours(1).us());
  CHECK(p.stop_policy_at_end == "None");
}

TEST_CASE("a pool's span starts at its first sample and samples at one time keep only the last", "[report]") {
  RunRecord run = run_until(4);
  run.pool_series = {
      sample(1, 4 * kCard, 4 * kCard), sample(1, 4 * kCard, 0),  // a transient at 1h: counts for the peak only
      sample(3, 0, 0),                                           // quota withdrawn at 3h
      sample(6, 9 * kCard, 9 * kCard),                           // after the run stopped: ignored
  };
  const Report report = build_report(run);
  REQUIRE(report.pools.size() == 1);
  const auto& p = report.pools[0];
  CHECK(p.span_us == SimTime::hours(3).us());
  CHECK(p.reserved.mean == Approx(0.0));
  CHECK(p.reserved.peak == 4 * kCard);
  CHECK(p.nominal.peak == 4 * kCard);
  CHECK(p.nominal.mean == Approx(4.0 * kCard * 2 / 3));  // 4 cards for 2 of 3 hours
  REQUIRE(p.utilization.has_value());
  CHECK(*p.utilization == Approx(0.0));
}

TEST_CASE("a pool without nominal quota has no utilization", "[report]") {
  RunRecord run = run_until(2);
  run.pool_series = {sample(0, 0, 0)};
  const Report report = build_report(run);
  REQUIRE(report.pools.size() == 1);
  CHECK_FALSE(report.pools[0].utilization.has_value());
}

TEST_CASE("workload figures count admissions once, pending at the end, evictions and Gate 1 rejections", "[report]") {
  RunRecord run = run_until(1);
  run.workloads = {
      Wl("a/1", "chat").admitted_after(10).finished_at(600),
      Wl("a/2", "chat", 5).admitted_after(30).evicted(2).retried(1),  // evicted, waiting again
      Wl("a/3", "chat", 5).admitted_after(20),                       // running at the end
      Wl("a/4", "batch", 100),                                       // never admitted
      Wl("a/5", "batch", 100, "").rejected(),
  };
  const Report report = build_report(run);
  const auto& t = report.total;
  CHECK(t.workloads == 5);
  CHECK(t.admitted == 3);
  CHECK(t.running_at_end == 1);
  CHECK(t.pending_at_end == 2);
  CHECK(t.finished == 1);
  CHECK(t.rejected == 1);
  CHECK(t.evictions == 2);
  CHECK(t.retries == 1);
  // Waits 10 s, 20 s, 30 s observed; a/4 never admitted: censored at the end, 1h − 100 s.
  CHECK(t.wait.count == 4);
  CHECK(t.wait.censored == 1);
  CHECK(t.wait.p50 == WaitPercentile{SimTime::seconds(20).us(), false});
  CHECK(t.wait.p95 == WaitPercentile{SimTime::seconds(3500).us(), true});
  CHECK(t.wait.max == WaitPercentile{SimTime::seconds(3500).us(), true});

  REQUIRE(report.classes.size() == 2);
  CHECK(report.classes[0].generator == "batch");
  CHECK(report.classes[0].workloads.pending_at_end == 1);
  CHECK(report.classes[0].workloads.rejected == 1);
  CHECK(report.classes[0].workloads.wait.count == 1);  // the rejected one is not in the waits
  CHECK(report.classes[0].workloads.wait.p50 == WaitPercentile{SimTime::seconds(3500).us(), true});
  CHECK(report.classes[1].generator == "chat");
  CHECK(report.classes[1].workloads.admitted == 3);

  REQUIRE(report.queues.size() == 2);
  CHECK(report.queues[0].cluster_queue.empty());
  CHECK(report.queues[1].cluster_queue == "cq-a");
  CHECK(report.queues[1].workloads.workloads == 4);
}

TEST_CASE("the text report is aligned tables, one unit per table, with durations for people", "[report]") {
  RunRecord run = run_until(2);
  run.pool_series = {sample(0, 2 * kCard, 0), sample(1, 2 * kCard, kCard, chaintwin::model::StopPolicy::kHold),
                     sample(0, 64000, 16000, chaintwin::model::StopPolicy::kNone, false, "cq-a", "cpu")};
  // a/2 never admitted: its wait is censored at the end (2 h), so every percentile from rank 2 on is ">= 2h00m00s".
  run.workloads = {Wl("a/1", "chat").admitted_after(90), Wl("a/2", "chat")};
  const std::string expected =
      "Run steps (steps.yaml, hash 00ff), seed 1, chaintwin 0.1.0\n"
      "Simulated to 2h00m00s of horizon 2h00m00s, 9 events\n"
      "\n"
      "Pools in cards (ClusterQueue × resource, 1 card = 1,600,000 credits; means weighted by time from the pool's "
      "first sample to the end)\n"
      "ClusterQueue  resource                    nominal mean  nominal peak  reserved mean  reserved peak  "
      "utilization      held  draining  stop policy at end\n"
      "cq-a          credits.gpustack.ai/nvidia         2.000         2.000          0.500          1.000      "
      "25.00 %  1h00m00s        0s  Hold\n"
      "\n"
      "Pools in cores (ClusterQueue × resource; means weighted by time from the pool's first sample to the end)\n"
      "ClusterQueue  resource  nominal mean  nominal peak  reserved mean  reserved peak  utilization  held  draining  "
      "stop policy at end\n"
      "cq-a          cpu             64.000        64.000         16.000         16.000      25.00 %    0s        0s  "
      "None\n"
      "\n"
      "Workloads by ClusterQueue (counts in workloads; waits from creation to first admission over the workloads "
      "not rejected, nearest rank; a workload never admitted counts at its wait until the end, censored: \">= \" "
      "marks a percentile that fell on one, whose true value is at least that)\n"
      "ClusterQueue  workloads  admitted  running  pending  finished  rejected  evictions  preempted  retries  "
      "wait p50     wait p90     wait p95     wait p99     wait max  censored\n"
      "cq-a                  2         1        1        1         0         0          0          0        0  "
      "   1m30s  >= 2h00m00s  >= 2h00m00s  >= 2h00m00s  >= 2h00m00s         1\n"
      "\n"
      "Workloads by class\n"
      "class  workloads  admitted  running  pending  finished  rejected  evictions  preempted  retries  "
      "wait p50     wait p90     wait p95     wait p99     wait max  censored\n"
      "chat           2         1        1        1         0         0          0          0        0  "
      "   1m30s  >= 2h00m00s  >= 2h00m00s  >= 2h00m00s  >= 2h00m00s         1\n"
      "total          2         1        1        1         0         0          0          0        0  "
      "   1m30s  >= 2h00m00s  >= 2h00m00s  >= 2h00m00s  >= 2h00m00s         1\n";
  CHECK(report_text(build_report(run)) == expected);
}

TEST_CASE("a wait column prints in hundredths only when all its values are under a minute", "[report]") {
  RunRecord run = run_until(2);
  // fast waits 0.94 s and 12.5 s; slow waits 0.058717 s and 2 h: every column but p50 holds an hour.
  Wl fast1("a/1", "fast"), fast2("a/2", "fast"), slow1("a/3", "slow"), slow2("a/4", "slow");
  fast1.o.first_admitted = SimTime::micros(940'000);
  fast2.o.first_admitted = SimTime::micros(12'500'000);
  slow1.o.first_admitted = SimTime::micros(58'717);
  slow2.o.first_admitted = SimTime::hours(2);
  run.workloads = {fast1, fast2, slow1, slow2};
  const std::string text = report_text(build_report(run));
  // The cells of the line that starts with `start`, split on runs of two or more spaces.
  const auto cells = [&](const std::string& start) {
    const size_t at = text.find("\n" + start + " ");
    REQUIRE(at != std::string::npos);
    const std::string line = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
    std::vector<std::string> out;
    for (size_t i = 0; i < line.size();) {
      const size_t gap = line.find("  ", i);
      out.push_back(line.substr(i, gap == std::string::npos ? std::string::npos : gap - i));
      if (gap == std::string::npos) break;
      i = line.find_first_not_of(' ', gap);
    }
    return std::vector<std::string>(out.end() - 6, out.end());  // wait p50 … max, censored
  };
  // p50 column: 0.94 s, 0.058717 s and, in total, 0.94 s: hundredths; the others reach 2 h: whole seconds.
  using Cells = std::vector<std::string>;
  CHECK(cells("fast") == Cells{"0.94s", "12s", "12s", "12s", "12s", "0"});
  CHECK(cells("slow") == Cells{"0.05s", "2h00m00s", "2h00m00s", "2h00m00s", "2h00m00s", "0"});
  CHECK(cells("total") == Cells{"0.94s", "2h00m00s", "2h00m00s", "2h00m00s", "2h00m00s", "0"});
}

TEST_CASE("the JSON report keeps exact integers beside the means and null where there is no value", "[report]") {
  RunRecord run = run_until(2);
  run.pool_series = {sample(0, 2 * kCard, 0), sample(1, 2 * kCard, kCard)};
  run.workloads = {Wl("a/1", "chat")};
  const auto j = report_json(build_report(run));
  CHECK(j["run"]["horizon_us"] == 7'200'000'000);
  REQUIRE(j["pools"].size() == 1);
  const auto& p = j["pools"][0];
  CHECK(p["unit"] == "credits");
  CHECK(p["reserved"]["peak"] == kCard);
  CHECK(p["reserved"]["peak_cards"] == 1.0);
  CHECK(p["reserved"]["mean"] == 800000.0);
  CHECK(p["utilization"] == 0.25);
  CHECK(p["workloads"]["pending_at_end"] == 1);
  CHECK(p["workloads"]["wait_us"]["count"] == 1);
  CHECK(p["workloads"]["wait_us"]["censored"] == 1);
  CHECK(p["workloads"]["wait_us"]["p50"]["us"] == 7'200'000'000);  // never admitted: censored at the end
  CHECK(p["workloads"]["wait_us"]["p50"]["censored"] == true);
  CHECK(j["classes"][0]["workloads"]["wait_us"]["max"]["censored"] == true);
  CHECK(j["classes"][0]["generator"] == "chat");
  CHECK(j["total"]["workloads"] == 1);
  // Same record, same bytes.
  CHECK(j.dump() == report_json(build_report(run)).dump());
}
