// Kueue's admission fair sharing (admission_fair_sharing.h, following v0.14.8
// util/admissionfairsharing, workload.go CalcLocalQueueFSUsage, cluster_queue.go queueOrderingFunc,
// preemption/common/ordering.go CandidatesOrdering): the decay arithmetic with Kueue's truncation,
// the usage a LocalQueue shows, and what it changes in schedule_cycle — which Workload of a
// ClusterQueue is popped, and which one is preempted.
#include <catch2/catch.hpp>

#include <cmath>

#include "model/kueue/scheduler/admission_fair_sharing.h"
#include "model/kueue/scheduler/workload_conditions.h"
#include "tests/model/kueue/scheduler/scheduler_fixtures.h"

namespace chaintwin::model::testing {
namespace {

constexpr TimeUs kMinute = 60'000'000;

TEST_CASE("Admission fair sharing decays consumed usage as Kueue's CalculateDecayedConsumed does",
          "[kueue][admission-fair-sharing]") {
  struct Row {
    const char* what;
    MilliAmounts old_consumed, admitted;
    double elapsed, half_life;
    MilliAmounts want;
  };
  const std::vector<Row> rows{
      {"one half-life moves it half way", {{"cpu", 4000}}, {{"cpu", 2000}}, 600, 600, {{"cpu", 3000}}},
      {"each part is truncated on its own (MulByFloat)", {{"cpu", 1001}}, {{"cpu", 1001}}, 600, 600, {{"cpu", 1000}}},
      {"a half-life of 0 keeps the old value (alpha 0)", {{"cpu", 7000}}, {{"cpu", 1000}}, 300, 0, {{"cpu", 7000}}},
      {"a resource only admitted now comes in by alpha", {}, {{"memory", 1024000}}, 600, 600, {{"memory", 512000}}},
      {"two half-lives keep a quarter", {{"cpu", 8000}}, {}, 1200, 600, {{"cpu", 2000}}},
  };
  for (const Row& r : rows) {
    INFO(r.what);
    MilliAmounts got = afs_decayed(r.old_consumed, r.admitted, r.elapsed, r.half_life);
    MilliAmounts want = r.want;
    // A key present with 0 reads the same as an absent one (the usage sums values).
    for (auto it = got.begin(); it != got.end();) it = it->second == 0 ? got.erase(it) : std::next(it);
    for (auto it = want.begin(); it != want.end();) it = it->second == 0 ? want.erase(it) : std::next(it);
    CHECK(got == want);
  }
  CHECK(afs_alpha(300, 600) == Approx(1 - std::sqrt(0.5)));
  CHECK(afs_alpha(300, 0) == 0);
}

// One ClusterQueue "q" of `cards` cards (admissionScope UsageBasedAdmissionFairSharing unless
// `scoped` is false) fed by LocalQueues lq-a, lq-b and lq-c; the configuration's block with a
// 10-minute half-life and Kueue's 5-minute sampling, and the gate on unless `gate` is false.
struct AfsFixture : Fixture {
  explicit AfsFixture(int64_t cards, bool scoped = true, bool gate = true) {
    node("n1", 16);
    flavor("f");
    ClusterQueue& q = queue("q", {{"f", cards}});
    q.spec.preemption.within_cluster_queue = "LowerPriority";
    if (scoped) q.spec.admission_mode = "UsageBasedAdmissionFairSharing";
    for (const std::string lq : {"a", "b", "c"})
      cluster.local_queues["default/lq-" + lq] = LocalQueue{meta("lq-" + lq, "default"), "q", {}};
    queues.refresh(cluster);
    config.admission_fair_sharing = AdmissionFairSharingConfig{10 * kMinute, 5 * kMinute, {}};
    config.gates.admission_fair_sharing = gate;
  }
  bool reserved(const std::string& name) { return wl(name).status.admission.has_value(); }
  double usage(const std::string& lq) { return queues.admission_fair_sharing().usage("default/" + lq, cluster, config); }
};

const double kAlpha5of10 = 1 - std::sqrt(0.5);  // alpha(5m, 10m)

}  // namespace

TEST_CASE("An admission charges its LocalQueue the entry penalty and a later sample decays it toward the admitted usage",
          "[kueue][admission-fair-sharing]") {
  AfsFixture f(2);
  f.submit("a1", "a", 1, 1, 0);
  f.cycle(0);
  REQUIRE(f.reserved("a1"));
  // Requests are credits after Kueue's transformation: 1 card = 1,600,000 credits. The fold at
  // admission samples with elapsed 0 (alpha 0) and adds the penalty requests × alpha(5m, 10m).
  const auto penalty = static_cast<int64_t>(1'600'000.0 * 1000 * kAlpha5of10);
  CHECK(f.usage("lq-a") == Approx(static_cast<double>(penalty) / 1000));
  CHECK(f.usage("lq-b") == 0);
  const LocalQueueConsumption& a = f.queues.admission_fair_sharing().local_queues().at("default/lq-a");
  CHECK(a.consumed.at(kCredits) == penalty);
  CHECK(a.penalty.at(kCredits) == 0);  // pushed and folded in the same update
  // At 5m the sample takes alpha(5m, 10m) of the admitted 1,600,000 and keeps the rest.
  f.queues.admission_fair_sharing().catch_up(f.cluster, f.state, f.config, 5 * kMinute);
  const auto admitted = static_cast<int64_t>(1'600'000.0 * 1000 * kAlpha5of10);
  const auto kept = static_cast<int64_t>(static_cast<double>(penalty) * (1 - kAlpha5of10));
  CHECK(a.consumed.at(kCredits) == kept + admitted);
  CHECK(a.last_update == 5 * kMinute);
  // Nothing is due before the next interval.
  f.queues.admission_fair_sharing().catch_up(f.cluster, f.state, f.config, 10 * kMinute - 1);
  CHECK(a.last_update == 5 * kMinute);
}

TEST_CASE("A LocalQueue's usage weighs resources and divides by its fairSharing weight", "[kueue][admission-fair-sharing]") {
  AfsFixture f(2);
  f.submit("a1", "a", 1, 1, 0);
  f.cycle(0);
  const double plain = f.usage("lq-a");
  REQUIRE(plain > 0);
  f.cluster.local_queues.at("default/lq-a").fair_sharing_weight = Quantity::from_int(4);
  CHECK(f.usage("lq-a") == Approx(plain / 4));
  f.config.admission_fair_sharing->resource_weights[kCredits] = 0.5;
  CHECK(f.usage("lq-a") == Approx(plain / 8));
}

TEST_CASE("Admission fair sharing pops the Workload of the LocalQueue that used less, before an older one",
          "[kueue][admission-fair-sharing]") {
  struct Row {
    const char* what;
    bool scoped, gate;
    const char* second;  // admitted in the second cycle
  };
  for (const Row& r : std::vector<Row>{{"on: lq-b's head goes before lq-a's older second", true, true, "b1"},
                                       {"no admissionScope on the ClusterQueue: queue order", false, true, "a2"},
                                       {"the gate off (v0.14's default): queue order", true, false, "a2"}}) {
    INFO(r.what);
    AfsFixture f(2, r.scoped, r.gate);
    f.submit("a1", "a", 1, 1, 0);
    f.submit("a2", "a", 1, 1, 1);
    f.submit("b1", "b", 1, 1, 2);
    f.cycle(10);
    REQUIRE(f.reserved("a1"));
    f.cycle(11);
    CHECK(f.reserved(r.second));
  }
}

TEST_CASE("Admission fair sharing preempts first from the LocalQueue with the higher usage",
          "[kueue][admission-fair-sharing]") {
  for (const bool afs : {true, false}) {
    INFO((afs ? "on" : "off"));
    AfsFixture f(3, afs);
    f.submit("a-low1", "a", 1, 1, 0, -1);
    f.submit("a-low2", "a", 1, 1, 1, -1);
    f.cycle(0);
    f.cycle(1);
    f.submit("b-low", "b", 1, 1, 5, -1);
    f.cycle(10);
    REQUIRE((f.reserved("a-low1") && f.reserved("a-low2") && f.reserved("b-low")));
    if (afs) REQUIRE(f.usage("lq-a") > f.usage("lq-b"));
    f.submit("urgent", "c", 1, 1, 20, 100);
    f.cycle(20);
    // Without it, the most recently reserved goes (b-low); with it, lq-a's usage decides first.
    const std::string victim = afs ? "a-low2" : "b-low";
    CHECK(f.cond(victim, kWorkloadPreempted) != nullptr);
    for (const std::string other : {"a-low1", "a-low2", "b-low"})
      if (other != victim) CHECK(f.cond(other, kWorkloadPreempted) == nullptr);
  }
}

}  // namespace chaintwin::model::testing
