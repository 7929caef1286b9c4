// The runner accepts `divergence` (operator-code-rules.md §4, §5 item 5): the expectation a case
// would have under the other operator version. It documents that difference and is never
// compared, so a case carrying one passes or fails on `expected` alone.
#include <catch2/catch.hpp>

#include "tests/golden/golden_runner.h"

namespace {

using chaintwin::golden::json;
using chaintwin::golden::run_golden_document;

json fit_file(json cases) { return {{"area", "fit-labels"}, {"cases", std::move(cases)}}; }

}  // namespace

TEST_CASE("a case may carry `divergence`, the expectation under the other version, never compared", "[runner]") {
  SECTION("a case whose expected holds passes whatever its divergence says") {
    const auto r = run_golden_document(fit_file({{{"name", "IsFitLabelKey: with a divergence"},
                                                  {"divergence", {{"isFitLabelKey", false}}},
                                                  {"input", {{"key", "shared-free-cards.fit.gpustack.ai/a"}}},
                                                  {"expected", {{"isFitLabelKey", true}}}}}),
                                       "in-memory");
    CHECK(r.failures.empty());
    CHECK(r.passed == 1);
  }
  SECTION("the divergence does not rescue a wrong expected") {
    const auto r = run_golden_document(fit_file({{{"name", "IsFitLabelKey: wrong expected, right divergence"},
                                                  {"divergence", {{"isFitLabelKey", true}}},
                                                  {"input", {{"key", "shared-free-cards.fit.gpustack.ai/a"}}},
                                                  {"expected", {{"isFitLabelKey", false}}}}}),
                                       "in-memory");
    REQUIRE(r.failures.size() == 1);
    CHECK_FALSE(r.failures.front().unknown_shape);
    CHECK(r.passed == 0);
  }
}
