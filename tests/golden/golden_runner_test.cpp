// Tests of the golden runner itself: a case runs the function it names, whatever test it was
// recorded from; a case of unknown shape fails and names what it did not understand; the
// per-area report of the shipped cases.
#include <filesystem>
#include <map>

#include <catch2/catch.hpp>

#include "tests/golden/golden_runner.h"

namespace {

using chaintwin::golden::json;
using chaintwin::golden::run_golden_document;

json fit_file(json cases) { return {{"area", "fit-labels"}, {"cases", std::move(cases)}}; }

const chaintwin::golden::CaseFailure& only_failure(const chaintwin::golden::FileReport& r) {
  REQUIRE(r.failures.size() == 1);
  return r.failures.front();
}

}  // namespace

TEST_CASE("a case runs the function its name names, not the test it was recorded from", "[runner]") {
  // Recorded from the sliced key's test, asking the shared key by name.
  const auto r = run_golden_document(
      fit_file({{{"name", "FitSharedFreeCardsLabelKey: recorded next to the sliced key"},
                 {"source", "pkg/nodefeature/fit_test.go :: TestFitLabelKeys"},
                 {"input", {{"aKey", "nvidia-tesla-t4"}}},
                 {"expected", {{"key", "shared-free-cards.fit.gpustack.ai/nvidia-tesla-t4"}}}}}),
      "in-memory");
  CHECK(r.failures.empty());
  CHECK(r.passed == 1);
  CHECK(r.ran_by.at("FitSharedFreeCardsLabelKey") == 1);
}

TEST_CASE("an explicit function field wins over the name and the source", "[runner]") {
  const auto r = run_golden_document(
      fit_file({{{"name", "some prose"},
                 {"function", "FitSlicedMaxFreeUnitsLabelKey"},
                 {"source", "TestSomethingElseEntirely"},
                 {"input", {{"aKey", "nvidia-a10g"}}},
                 {"expected", {{"key", "sliced-max-free-units.fit.gpustack.ai/nvidia-a10g"}}}}}),
      "in-memory");
  CHECK(r.failures.empty());
  CHECK(r.ran_by.at("FitSlicedMaxFreeUnitsLabelKey") == 1);
}

TEST_CASE("a case that names an unknown function fails and names it", "[runner]") {
  SECTION("by its function field") {
    const auto r = run_golden_document(fit_file({{{"name", "x"},
                                                  {"function", "FitExclusiveFreeCardsLabelKey"},
                                                  {"input", {{"aKey", "nvidia-a10g"}}},
                                                  {"expected", {{"key", "x"}}}}}),
                                       "in-memory");
    const auto& f = only_failure(r);
    CHECK(f.unknown_shape);
    CHECK_THAT(f.detail, Catch::Contains("unknown function 'FitExclusiveFreeCardsLabelKey'"));
    CHECK(r.unknown_shapes() == 1);
  }
  SECTION("by the prefix of its name") {
    const auto r = run_golden_document(fit_file({{{"name", "FitExclusiveFreeCardsLabelKey: a10g"},
                                                  {"input", {{"aKey", "nvidia-a10g"}}},
                                                  {"expected", {{"key", "x"}}}}}),
                                       "in-memory");
    const auto& f = only_failure(r);
    CHECK(f.unknown_shape);
    CHECK_THAT(f.detail, Catch::Contains("unknown function 'FitExclusiveFreeCardsLabelKey'"));
  }
}

TEST_CASE("a case with fields its function does not understand fails and names them", "[runner]") {
  SECTION("an extra input field") {
    const auto r = run_golden_document(fit_file({{{"name", "IsFitLabelKey: with a stray field"},
                                                  {"input", {{"key", "shared-free-cards.fit.gpustack.ai/a"}, {"strict", true}}},
                                                  {"expected", {{"isFitLabelKey", true}}}}}),
                                       "in-memory");
    const auto& f = only_failure(r);
    CHECK(f.unknown_shape);
    CHECK_THAT(f.detail, Catch::Contains("input fields it does not understand: 'strict'"));
  }
  SECTION("an extra expected field") {
    const auto r = run_golden_document(fit_file({{{"name", "IsFitLabelKey: asks for more"},
                                                  {"input", {{"key", "shared-free-cards.fit.gpustack.ai/a"}}},
                                                  {"expected", {{"isFitLabelKey", true}, {"family", "shared"}}}}}),
                                       "in-memory");
    const auto& f = only_failure(r);
    CHECK(f.unknown_shape);
    CHECK_THAT(f.detail, Catch::Contains("expected fields it does not understand: 'family'"));
  }
  SECTION("an unknown field of the case itself") {
    const auto r = run_golden_document(fit_file({{{"name", "IsFitLabelKey: typo"},
                                                  {"refrence", "operator-domain.md §2.9"},
                                                  {"input", {{"key", "a"}}},
                                                  {"expected", {{"isFitLabelKey", false}}}}}),
                                       "in-memory");
    CHECK_THAT(only_failure(r).detail, Catch::Contains("case fields it does not understand: 'refrence'"));
  }
  SECTION("no name, keys no handler of the area knows") {
    const auto r = run_golden_document(fit_file({{{"name", "prose only"},
                                                  {"input", {{"wat", 1}}},
                                                  {"expected", {{"isFitLabelKey", false}}}}}),
                                       "in-memory");
    const auto& f = only_failure(r);
    CHECK(f.unknown_shape);
    CHECK_THAT(f.detail, Catch::Contains("no handler of area 'fit-labels' fits its fields"));
    CHECK_THAT(f.detail, Catch::Contains("'wat'"));
  }
}

TEST_CASE("a case whose keys fit several functions is ambiguous, never run by a guess", "[runner]") {
  const auto r = run_golden_document(fit_file({{{"name", "the key of an A10G"},
                                                {"input", {{"aKey", "nvidia-a10g"}}},
                                                {"expected", {{"key", "x"}}}}}),
                                     "in-memory");
  const auto& f = only_failure(r);
  CHECK(f.unknown_shape);
  CHECK_THAT(f.detail, Catch::Contains("ambiguous shape"));
  CHECK(r.ran_by.empty());
}

TEST_CASE("an own case without a reference fails", "[runner]") {
  const auto r = run_golden_document(fit_file({{{"name", "IsFitLabelKey: no reference"},
                                                {"input", {{"key", "a"}}},
                                                {"expected", {{"isFitLabelKey", false}}}}}),
                                     "in-memory", {.require_reference = true});
  CHECK_THAT(only_failure(r).detail, Catch::Contains("has no `reference`"));
}

TEST_CASE("an unknown area fails every case", "[runner]") {
  const auto r = run_golden_document({{"area", "no-such-area"},
                                      {"cases", {{{"name", "x"}, {"input", json::object()}, {"expected", json::object()}}}}},
                                     "in-memory");
  CHECK_THAT(only_failure(r).detail, Catch::Contains("no handler answers area 'no-such-area'"));
}

TEST_CASE("named_function reads the function field, else an identifier before ':'", "[runner]") {
  using chaintwin::golden::named_function;
  CHECK(named_function({{"name", "desiredFitLabels: two cards"}}) == "desiredFitLabels");
  CHECK(named_function({{"name", "ConstructNodeCapacityLabels(manual): x"}}) == "ConstructNodeCapacityLabels");
  CHECK(named_function({{"name", "fit label vs Gate 3 agreement: x"}}).empty());
  CHECK(named_function({{"name", "no colon"}}).empty());
  CHECK(named_function({{"name", "a: b"}, {"function", "F"}}) == "F");
}

TEST_CASE("the shipped cases: every one runs by one handler, and each handler runs the cases it answers", "[runner]") {
  namespace fs = std::filesystem;
  std::vector<chaintwin::golden::FileReport> reports;
  for (const auto& entry : fs::directory_iterator(CHAINTWIN_DEFAULT_GOLDEN_DIR))
    if (entry.path().extension() == ".json") reports.push_back(chaintwin::golden::run_golden_file(entry.path().string()));
  REQUIRE(reports.size() == 10);
  const auto coverage = chaintwin::golden::coverage_of(reports);
  // Per area, the handlers that ran shipped cases and how many (handlers that ran none are left out).
  const std::map<std::string, std::map<std::string, int>> expected = {
      {"capacity-labels", {
          {"AcceleratorsToCredits", 2},
          {"CreditsToAccelerators", 6},
          {"IsValidSlicedPartitions", 6},
          {"NodeCapacityReconciler", 3},
          {"QuantityToAlignedValue", 5},
          {"QuantityToOriginalValue", 3},
          {"QuantityToSliceCount", 6},
          {"acceleratorDetailChanged", 5},
          {"acceleratorFamilyCapacityChanged", 7},
          {"buildAcceleratorCapacityPatch", 6},
          {"desiredAcceleratorCapacity", 18},
          {"isOwnedCapacityKey", 11},
          {"partitionInstancesByProfile [every group of a Devices, by manufacturer and group id]", 1},
      }},
      {"devices-schema", {
          {"DeviceAllocationMode.String", 4},
          {"PartitionLedgerReady", 3},
          {"population predicates", 8},
      }},
      {"fit-labels", {
          {"EqualIgnoringFitLabels", 4},
          {"FilterFitLabels", 1},
          {"FitSlicedMaxFreeUnitsLabelKey", 2},
          {"IsFitLabelKey", 6},
          {"NodeFitLabelReconciler", 1},
          {"buildFitLabelPatch", 2},
          {"desiredFitLabels", 7},
          {"fit labels agree with nodeDevicesFeasibility", 10},
          {"fitDevicesUpdated", 3},
          {"fitSignatureChanged", 3},
          {"nodeFitLabelNodeUpdated", 3},
      }},
      {"flavors-and-queue-resource-groups", {
          {"NodeFlavorReconciler [CPU nodes of 4 cores, flavor preexisting or not]", 3},
          {"NodeFlavorReconciler [a flavor whose immutable spec drifted]", 1},
          {"NodeFlavorReconciler [a generated Topology and who uses it]", 3},
          {"NodeFlavorReconciler [a node label removed between reconciles]", 1},
          {"NodeFlavorReconciler [a node moves to another topology profile]", 1},
          {"NodeFlavorReconciler [a queue references the flavor]", 1},
          {"NodeFlavorReconciler [an accelerated node, mixing setting]", 1},
          {"NodeFlavorReconciler [the ResourceFlavor of the first node]", 4},
          {"NodeQueueReconciler [AdmissionChecks active or not]", 4},
          {"NodeQueueReconciler [a generic queue over CPU and accelerated flavors]", 2},
          {"NodeQueueReconciler [a live and a terminating flavor]", 1},
          {"NodeQueueReconciler [a queue that already has groups]", 2},
          {"NodeQueueReconciler [flavors of one key, each with count and capacity]", 1},
          {"NodeQueueReconciler [an invalid TAS setup]", 2},
          {"NodeQueueReconciler [n flavors for one queue (TAS flavor limit)]", 6},
          {"indexNodeByScheduleFlavor", 3},
          {"syncNodeFlavorNotes", 2},
          {"validateTASFlavors", 1},
      }},
      {"mig-cases", {
          {"card and node partition view", 36},
      }},
      {"mig-profile-names", {
          {"AggregateAcceleratorSlicedDetail", 5},
          {"GetAcceleratablePartitionedProfileResourceName", 6},
          {"GetAcceleratablePartitionedProfileResourceName [round trip at the name boundary]", 2},
          {"NormalizePartitionedProfileName", 9},
          {"NormalizePartitionedProfileName [round trip through the profile key]", 1},
          {"PartitionedProfileOf", 5},
          {"PublishPartitionedProfileName", 6},
          {"VendorPartitionedProfileName", 7},
          {"VendorPartitionedProfileOf", 6},
      }},
      {"mig-profiles", {
          {"placement catalog model", 13},
      }},
      {"naming", {
          {"ConstructAcceleratableNodeLabels", 5},
          {"ConstructGroupID", 4},
          {"ConstructNodeCapacityLabels", 8},
          {"ExtractAcceleratableNodeKeys", 3},
          {"ExtractGeneralNodeKey", 4},
          {"ExtractNodeFlavors", 3},
          {"FormatLocalQueueName", 5},
          {"GetAcceleratableResourceName", 5},
          {"IsAcceleratableCreditsResourceName", 6},
          {"IsKnownAcceleratableResourceName", 10},
          {"NodeFlavor.DerivedInstanceTypeIdentity", 5},
          {"PoolFlavorSelector", 2},
          {"ResourceFamilyOf", 16},
          {"manufacturer resource names", 8},
          {"stringx.SumByFNV64a", 3},
          {"topologyProfile", 2},
          {"topologyQualifiedFlavorName", 3},
      }},
      {"queue-stop-policy", {
          {"NodeQueueReconciler [a held queue whose flavors return]", 2},
          {"NodeQueueReconciler [no flavors left: drain, then empty]", 2},
          {"NodeQueueReconciler [old to new plan: Kueue reports an Active condition]", 1},
          {"NodeQueueReconciler [old to new plan: four passes of the migration]", 3},
          {"NodeQueueReconciler [old to new plan: the new Topology is deleted]", 1},
          {"NodeQueueReconciler [the new flavor leaves and returns during a drain]", 1},
          {"createClusterQueue", 1},
          {"encodeStopPolicy", 2},
          {"fillClusterQueue", 1},
          {"hasReserved", 6},
          {"holdEmptyClusterQueue", 3},
          {"syncInactive [during a migration: the saved stop policy]", 7},
          {"syncInactive [spec.inactive against the queue's stop policy]", 8},
      }},
      {"unit-spec", {
          {"NodeFlavorReconciler [preset pipeline: detected product to derived InstanceType]", 11},
          {"PresetUnitResources", 31},
          {"authorDerivedInstanceType", 6},
      }},

  };
  for (const auto& [area, handlers] : expected) {
    INFO("area " << area);
    REQUIRE(coverage.count(area) == 1);
    const auto& c = coverage.at(area);
    CHECK(c.unknown_shapes == 0);
    std::map<std::string, int> ran;
    int total = 0;
    for (const auto& [label, n] : c.ran_by) {
      if (n > 0) ran[label] = n;
      total += n;
    }
    CHECK(total == c.cases);
    CHECK(ran == handlers);
  }
}
