// Tests of the golden runner itself: a case runs the function it names, whatever test it was
// recorded from; a case of unknown shape fails and names what it did not understand; the
// per-area report of the shipped cases.
#include <filesystem>

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
