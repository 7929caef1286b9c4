// The golden runner's handler registry. A handler turns one recorded case's `input` into the
// values our model computes, as JSON shaped like the case's `expected`; the runner compares
// the two key by key. Handlers register themselves per area (the golden file's `area`) and by
// a fragment of the case's `source` (the operator test or rule it was recorded from).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace chaintwin::golden {

using json = nlohmann::json;

// Computes `got` for one case. Throwing std::exception marks the case failed with its message.
using HandlerFn = std::function<json(const json& input, const json& expected)>;

struct Handler {
  std::string area;            // golden file area, e.g. "capacity-labels"
  std::string source_fragment; // matched as a substring of the case's source (longest wins)
  HandlerFn fn;
  // Keys of `expected` that are documentation, not an assertion (each with its reason in
  // tests/golden/README.md). Everything else in `expected` is compared.
  std::set<std::string> documentation_keys;
};

std::vector<Handler>& registry();

struct Registrar {
  Registrar(std::string area, std::string source_fragment, HandlerFn fn,
            std::set<std::string> documentation_keys = {}) {
    registry().push_back({std::move(area), std::move(source_fragment), std::move(fn),
                          std::move(documentation_keys)});
  }
};

}  // namespace chaintwin::golden

#define GOLDEN_CONCAT_INNER(a, b) a##b
#define GOLDEN_CONCAT(a, b) GOLDEN_CONCAT_INNER(a, b)
// GOLDEN_HANDLER("area", "source fragment", [](const json& in, const json& want) { ... });
#define GOLDEN_HANDLER(...) \
  static const ::chaintwin::golden::Registrar GOLDEN_CONCAT(golden_registrar_, __LINE__){__VA_ARGS__};
