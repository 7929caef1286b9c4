// Kueue versions and the feature gates that change a decision (kueue_version.h), with each gate's
// default read from pkg/features/kube_features.go at the release tags; and the flavor-scan record
// of FlavorFungibilityPreserveScanProgress in schedule_cycle (scheduler.go getAssignments,
// flavorassigner.go findFlavorForPodSets, cluster_queue.go requeueIfNotPresent / PendingFlavors).
#include <catch2/catch.hpp>

#include "model/kueue/scheduler/kueue_version.h"
#include "model/kueue/scheduler/scheduler.h"
#include "tests/model/kueue/scheduler/scheduler_fixtures.h"

namespace chaintwin::model::testing {

TEST_CASE("Kueue versions read as v0.MINOR.PATCH within v0.14 to v0.20", "[kueue][version]") {
  const std::vector<std::pair<std::string, std::optional<KueueVersion>>> cases{
      {"v0.14.8", KueueVersion{14, 8}}, {"0.19.1", KueueVersion{19, 1}}, {"v0.19", KueueVersion{19, 0}},
      {"v0.20.0", KueueVersion{20, 0}}, {"v0.13.0", std::nullopt},     {"v0.21.0", std::nullopt},
      {"v1.0.0", std::nullopt},         {"v0.18.x", std::nullopt},     {"", std::nullopt},
      {"v0.18.-1", std::nullopt},       {"v0.18.5.1", std::nullopt}};
  for (const auto& [text, want] : cases) {
    INFO(text);
    CHECK(parse_kueue_version(text) == want);
  }
}

TEST_CASE("FlavorFungibilityPreserveScanProgress is on by default exactly in the releases that carry it",
          "[kueue][version]") {
  const std::vector<std::pair<KueueVersion, bool>> cases{
      {{14, 8}, false}, {{17, 6}, false}, {{18, 4}, false}, {{18, 5}, true}, {{18, 9}, true},
      {{19, 0}, false}, {{19, 1}, true},  {{19, 2}, true},  {{20, 0}, true}};
  for (const auto& [v, on] : cases) {
    INFO(v.to_string());
    CHECK(default_feature_gates(v).flavor_fungibility_preserve_scan_progress == on);
    CHECK(feature_gate_absent("FlavorFungibilityPreserveScanProgress", v).empty() == on);
  }
  KueueFeatureGates g;
  CHECK(set_feature_gate(g, "FlavorFungibilityPreserveScanProgress", true));
  CHECK(g.flavor_fungibility_preserve_scan_progress);
  CHECK_FALSE(set_feature_gate(g, "TASFlavorFallback", true));
}

TEST_CASE("The fair-sharing gates are on by default from the releases that bring them", "[kueue][version]") {
  struct Row {
    KueueVersion v;
    bool afs, v17;
  };
  for (const Row& r : std::vector<Row>{
           {{14, 0}, false, false}, {{14, 8}, false, false}, {{15, 0}, true, false}, {{16, 3}, true, false},
           {{17, 0}, true, true}, {{19, 2}, true, true}, {{20, 0}, true, true}}) {
    INFO(r.v.to_string());
    const KueueFeatureGates g = default_feature_gates(r.v);
    CHECK(g.admission_fair_sharing == r.afs);
    CHECK(g.fair_sharing_preempt_within_nominal == r.v17);
    CHECK(g.fair_sharing_prioritize_non_borrowing == r.v17);
    // AdmissionFairSharing exists (alpha) in every modelled release; the v0.17 gates only from v0.17.
    CHECK(feature_gate_absent("AdmissionFairSharing", r.v).empty());
    CHECK(feature_gate_absent("FairSharingPreemptWithinNominal", r.v).empty() == r.v17);
    CHECK(feature_gate_absent("FairSharingPrioritizeNonBorrowing", r.v).empty() == r.v17);
  }
  KueueFeatureGates g;
  for (const char* name : {"AdmissionFairSharing", "FairSharingPreemptWithinNominal", "FairSharingPrioritizeNonBorrowing"})
    CHECK(set_feature_gate(g, name, true));
  CHECK((g.admission_fair_sharing && g.fair_sharing_preempt_within_nominal && g.fair_sharing_prioritize_non_borrowing));
}

namespace {

// One queue over two TAS flavors: "small" (quota 8 cards, a 1-card Node) first, "big" (8 cards, a
// 4-card Node) second. A 2-card Pod fits small's quota but not its Node.
struct FallbackFixture : Fixture {
  explicit FallbackFixture(bool preserve) {
    node("s1", 1, "small");
    node("b1", 4, "big");
    flavor("small", "small");
    flavor("big", "big");
    queue("q", {{"small", 8}, {"big", 8}});
    config.gates.flavor_fungibility_preserve_scan_progress = preserve;
  }
  std::string flavor_of(const std::string& name) {
    const auto& a = wl(name).status.admission;
    return a ? a->pod_set_assignments.front().flavors.begin()->second : "";
  }
};

}  // namespace

TEST_CASE("with the scan preserved a TAS failure on the first flavor moves on to the second next cycle",
          "[kueue][version]") {
  FallbackFixture on(true);
  on.submit("w", "q", 2);
  on.cycle(0);
  CHECK(on.flavor_of("w").empty());
  CHECK(on.queues.inadmissible("q") == 0);  // flavors left: straight back to the heap
  on.cycle(1);
  CHECK(on.flavor_of("w") == "big");

  FallbackFixture off(false);
  off.submit("w", "q", 2);
  for (int c = 0; c < 3; ++c) {
    off.cycle(c);
    off.queues.release_inadmissible();
  }
  CHECK(off.flavor_of("w").empty());  // every search starts at small again
  CHECK(off.message("w").find("couldn't assign flavors to pod set main: topology") == 0);
}

TEST_CASE("a scan record older than one cycle is not resumed", "[kueue][version]") {
  FallbackFixture f(true);
  f.submit("w", "q", 2);
  f.cycle(0);
  // Two cycles pass in which the Workload is not popped (it waits in the inadmissible set).
  f.queues.requeue("default/w", true);
  f.cycle(1);
  f.cycle(2);
  f.queues.release_inadmissible();
  f.cycle(3);
  CHECK(f.flavor_of("w").empty());  // searched from small again, failed on TAS again
}

}  // namespace chaintwin::model::testing
