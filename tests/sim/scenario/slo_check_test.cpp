// check_slo (sim/scenario/slo_check.h): SLO expectations judged on a hand-built run — censored
// percentiles fail an upper bound, fractions are exact, utilization comes from the report.
#include <catch2/catch.hpp>

#include "sim/scenario/slo_check.h"

namespace {

using namespace chaintwin::sim;

constexpr int64_t kCard = 1'600'000;

// A 2 h run: class chat on queue cq-a, 20 workloads created at 0 — 4 admitted after 1..4 min, 16 never
// admitted; class batch on cq-b, 2 admitted at once and 1 rejected. Pool cq-a: 4 cards nominal, 1 card
// reserved the first hour and 3 the second (utilization 0.5); cq-b has only cpu quota.
RunRecord run() {
  RunRecord r;
  r.info.horizon = SimTime::hours(2);
  r.info.ended_at = SimTime::hours(2);
  for (int i = 0; i < 20; ++i) {
    WorkloadOutcome w;
    w.key = "a/chat-" + std::to_string(i);
    w.generator = "chat";
    w.cluster_queue = "cq-a";
    w.gpu_model = "nvidia-h100";
    if (i < 4) w.first_admitted = SimTime::minutes(i + 1);
    r.workloads.push_back(w);
  }
  for (int i = 0; i < 3; ++i) {
    WorkloadOutcome w;
    w.key = "a/batch-" + std::to_string(i);
    w.generator = "batch";
    w.cluster_queue = "cq-b";
    if (i < 2) w.first_admitted = SimTime::seconds(0);
    w.rejected = i == 2;
    r.workloads.push_back(w);
  }
  const auto sample = [](int64_t hour, std::string queue, std::string resource, int64_t nominal, int64_t reserved) {
    PoolSample s;
    s.at = SimTime::hours(hour);
    s.cluster_queue = std::move(queue);
    s.resource = std::move(resource);
    s.nominal = nominal;
    s.reserved = reserved;
    s.admitted = reserved;
    s.stop_policy = chaintwin::model::StopPolicy::kNone;
    return s;
  };
  r.pool_series = {sample(0, "cq-a", "credits.gpustack.ai/nvidia", 4 * kCard, kCard),
                   sample(1, "cq-a", "credits.gpustack.ai/nvidia", 4 * kCard, 3 * kCard),
                   sample(0, "cq-b", "cpu", 8000, 4000)};
  GpuModelSummary h100;
  h100.gpu_model = "nvidia-h100";
  h100.cards = 4;
  h100.mean_utilization = 0.375;
  r.gpu_models = {h100};
  return r;
}

Expectation slo(SloExpectation::Subject subject, std::string name) {
  Expectation e;
  e.where = SourceRef{"t.yaml", 7};
  e.slo = SloExpectation{};
  e.slo->subject = subject;
  e.slo->name = std::move(name);
  return e;
}

DecimalComparison decimal(std::string op, int64_t mantissa, int32_t scale, std::string text) {
  return DecimalComparison{std::move(op), mantissa, scale, std::move(text)};
}

std::vector<std::string> failures(const Expectation& e) {
  const RunRecord record = run();
  std::vector<std::string> out;
  for (const auto& f : check_slo(e, build_report(record), record)) out.push_back(f.str());
  return out;
}

using Lines = std::vector<std::string>;
using Subject = SloExpectation::Subject;

}  // namespace

TEST_CASE("an slo's wait percentiles fail an upper bound when they fall on a censored workload", "[slo]") {
  struct Row {
    const char* what;
    std::string percentile;
    WaitBound bound;
    Lines want;
  };
  const Row rows[] = {
      // Waits 1, 2, 3, 4 min and 16 × >= 2 h: p50 (rank 10) and p95 (rank 19) are censored; p99 too.
      {"p95 on a censored rank", "p95", {"<=", SimTime::minutes(15)},
       {"t.yaml:7: at end: SLO class chat: wait p95: want <= 15m, got >= 2h00m00s (16 of 20 censored: the true "
        "value is at least this)"}},
      {"a censored rank fails even a bound it would meet", "p50", {"<=", SimTime::hours(3)},
       {"t.yaml:7: at end: SLO class chat: wait p50: want <= 3h, got >= 2h00m00s (16 of 20 censored: the true value "
        "is at least this)"}},
      {"a lower bound holds on a censored rank that meets it", "p95", {">=", SimTime::hours(1)}, {}},
      {"a lower bound beyond the censored value fails", "max", {">", SimTime::hours(3)},
       {"t.yaml:7: at end: SLO class chat: wait max: want > 3h, got >= 2h00m00s (16 of 20 censored: the true value "
        "is at least this)"}},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    Expectation e = slo(Subject::kClass, "chat");
    e.slo->wait[r.percentile] = r.bound;
    CHECK(failures(e) == r.want);
  }
}

TEST_CASE("an slo judges observed waits, fractions, never-admitted counts and utilization", "[slo]") {
  struct Row {
    const char* what;
    Expectation e;
    Lines want;
  };
  std::vector<Row> rows;
  {
    Expectation e = slo(Subject::kClass, "batch");
    e.slo->wait["p99"] = {"<=", SimTime::seconds(0)};  // both admitted at once; the rejected one is not a wait
    e.slo->admitted_fraction = decimal(">=", 9, 1, "0.9");
    e.slo->never_admitted = Comparison{"==", 0};
    rows.push_back({"a class with a rejection", e,
                    {"t.yaml:7: at end: SLO class batch: admittedFraction: want >= 0.9, got 0.6667 (2 of 3 admitted)",
                     "t.yaml:7: at end: SLO class batch: neverAdmitted: want 0, got 1 (of 3 arrived)"}});
  }
  {
    Expectation e = slo(Subject::kClass, "chat");
    e.slo->admitted_fraction = decimal(">=", 2, 1, "0.2");  // 4 of 20 = 0.2 exactly
    e.slo->never_admitted = Comparison{"<=", 16};
    rows.push_back({"an exact fraction at the bound", e, {}});
  }
  {
    Expectation e = slo(Subject::kPool, "cq-a");
    e.slo->utilization = decimal(">=", 5, 1, "0.5");  // (1 + 3) / (4 + 4) card·h
    e.slo->wait["p50"] = {"<=", SimTime::hours(3)};
    rows.push_back({"a pool's utilization and its workloads' waits", e,
                    {"t.yaml:7: at end: SLO pool cq-a: wait p50: want <= 3h, got >= 2h00m00s (16 of 20 censored: "
                     "the true value is at least this)"}});
  }
  {
    Expectation e = slo(Subject::kPool, "cq-a");
    e.slo->utilization = decimal(">", 6, 1, "0.6");
    rows.push_back({"a pool's utilization below the bound", e,
                    {"t.yaml:7: at end: SLO pool cq-a: utilization: want > 0.6, got 0.5000"}});
  }
  {
    Expectation e = slo(Subject::kPool, "cq-b");
    e.slo->utilization = decimal(">=", 5, 1, "0.5");
    rows.push_back({"a pool without credits quota", e,
                    {"t.yaml:7: at end: SLO pool cq-b: utilization: want >= 0.5, got - (the pool had no credits "
                     "quota)"}});
  }
  {
    Expectation e = slo(Subject::kGpuModel, "nvidia-h100");
    e.slo->utilization = decimal(">=", 4, 1, "0.4");
    e.slo->never_admitted = Comparison{"<", 20};
    rows.push_back({"a GPU model's mean utilization", e,
                    {"t.yaml:7: at end: SLO gpuModel nvidia-h100: utilization: want >= 0.4, got 0.3750"}});
  }
  {
    Expectation e = slo(Subject::kPool, "cq-z");
    e.slo->never_admitted = Comparison{"==", 0};
    rows.push_back({"a pool the run never had", e,
                    {"t.yaml:7: at end: SLO pool cq-z: exists: want yes, got no (the run has no such pool)"}});
  }
  {
    Expectation e = slo(Subject::kGpuModel, "amd-mi300x");
    e.slo->never_admitted = Comparison{"==", 0};
    rows.push_back({"a GPU model the run never had", e,
                    {"t.yaml:7: at end: SLO gpuModel amd-mi300x: exists: want yes, got no (the run has no such "
                     "gpuModel)"}});
  }
  {
    Expectation e = slo(Subject::kClass, "idle");  // a class that had no arrivals
    e.slo->wait["p95"] = {"<=", SimTime::minutes(15)};
    e.slo->admitted_fraction = decimal(">=", 9, 1, "0.9");
    e.slo->never_admitted = Comparison{"==", 0};
    rows.push_back({"a class without arrivals", e,
                    {"t.yaml:7: at end: SLO class idle: wait p95: want <= 15m, got - (no waits: no workload that was "
                     "not rejected)",
                     "t.yaml:7: at end: SLO class idle: admittedFraction: want >= 0.9, got - (no workload arrived)"}});
  }
  for (const auto& r : rows) {
    INFO(r.what);
    CHECK(failures(r.e) == r.want);
  }
}
