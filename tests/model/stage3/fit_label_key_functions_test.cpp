// Issue 17, fit labels: each label-key function of pkg/nodefeature/fit.go is its own function
// under its Go name, reachable by that name, and never answers for the other. Expected keys are
// the prefixes of operator-code-rules.md §3b / operator-domain.md §2.9 with the aKey appended.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/stage3/fit_labels.h"

namespace m = chaintwin::model;

TEST_CASE("each fit label-key function answers under its own operator name", "[fit][issue17]") {
  struct Row {
    std::string operator_name;
    std::string a_key;
    std::string want;
  };
  const std::string long_key(63, 'a');
  const std::vector<Row> rows{
      {"FitSlicedMaxFreeUnitsLabelKey", "nvidia-tesla-t4", "sliced-max-free-units.fit.gpustack.ai/nvidia-tesla-t4"},
      {"FitSharedFreeCardsLabelKey", "nvidia-tesla-t4", "shared-free-cards.fit.gpustack.ai/nvidia-tesla-t4"},
      {"FitSlicedMaxFreeUnitsLabelKey", "nvidia-h100-80gb-hbm3",
       "sliced-max-free-units.fit.gpustack.ai/nvidia-h100-80gb-hbm3"},
      {"FitSharedFreeCardsLabelKey", "hygon-bw100", "shared-free-cards.fit.gpustack.ai/hygon-bw100"},
      {"FitSlicedMaxFreeUnitsLabelKey", long_key, "sliced-max-free-units.fit.gpustack.ai/" + long_key},
      {"FitSharedFreeCardsLabelKey", long_key, "shared-free-cards.fit.gpustack.ai/" + long_key},
  };
  for (const auto& row : rows) {
    SECTION(row.operator_name + "(" + row.a_key.substr(0, 20) + ")") {
      const auto* f = m::find_fit_label_key_function(row.operator_name);
      REQUIRE(f != nullptr);
      CHECK(f->operator_name == row.operator_name);
      CHECK(f->key(row.a_key) == row.want);
      CHECK(row.want.starts_with(f->prefix));
      CHECK(m::is_fit_label_key(row.want));
    }
  }
}

TEST_CASE("the two fit label-key builders are distinct functions and the same ones the labels use",
          "[fit][issue17]") {
  const auto functions = m::fit_label_key_functions();
  REQUIRE(functions.size() == 2);
  CHECK(functions[0].operator_name == "FitSlicedMaxFreeUnitsLabelKey");
  CHECK(functions[1].operator_name == "FitSharedFreeCardsLabelKey");
  CHECK(functions[0].key("nvidia-t4") != functions[1].key("nvidia-t4"));
  CHECK(functions[0].key("nvidia-t4") == m::fit_sliced_max_free_units_label_key("nvidia-t4"));
  CHECK(functions[1].key("nvidia-t4") == m::fit_shared_free_cards_label_key("nvidia-t4"));
}

TEST_CASE("a name the operator does not have finds no label-key function", "[fit][issue17]") {
  for (const std::string name : {"", "fitSharedFreeCardsLabelKey", "FitSharedFreeCards", "SharedFreeCardsLabelKey",
                                 "FitSlicedMaxFreeUnitsLabelKey ", "IsFitLabelKey"}) {
    SECTION("'" + name + "'") { CHECK(m::find_fit_label_key_function(name) == nullptr); }
  }
}

TEST_CASE("IsFitLabelKey answers by its operator name as the fit test table has it", "[fit][issue17]") {
  // pkg/nodefeature/fit_test.go TestIsFitLabelKey rows (operator-code-rules.md §3b).
  const auto* is_fit = m::find_fit_label_predicate("IsFitLabelKey");
  REQUIRE(is_fit != nullptr);
  CHECK(m::find_fit_label_predicate("FitSharedFreeCardsLabelKey") == nullptr);
  const std::vector<std::pair<std::string, bool>> rows{
      {"sliced-max-free-units.fit.gpustack.ai/nvidia-tesla-t4", true},
      {"shared-free-cards.fit.gpustack.ai/nvidia-tesla-t4", true},
      {"sliced-max-free-units.fit.gpustack.ai/", false},
      {"fit.gpustack.ai/nvidia-tesla-t4", false},
      {"other.fit.gpustack.ai/nvidia-tesla-t4", false},
      {"sliced-max-free-units.fit.gpustack.ai.evil/nvidia-tesla-t4", false},
      {"acceleratable.feature.gpustack.ai/nvidia-tesla-t4.count", false},
      {"nvidia-tesla-t4", false},
      {"sliced-max-free-units.fit.gpustack.ai/Bad Group", false},
      {"shared-free-cards.fit.gpustack.ai/a/b", false},
  };
  for (const auto& [key, want] : rows) {
    SECTION(key) { CHECK(is_fit->test(key) == want); }
  }
}

TEST_CASE("an accelerator key makes fit label keys exactly when both prefixed keys are fit label keys", "[fit]") {
  // The derivation asks is_fit_label_model_part instead of validating each built key: the two must
  // agree on every kind of model part, valid or not.
  const std::vector<std::string> a_keys{
      "nvidia-a100",       "nvidia-NVIDIA_A100.80GB", "a",           "",                    "nvidia/a100",
      "-nvidia",           "nvidia-",                 "nvidia a100", "nvidia-a100(80gb)",   std::string(63, 'a'),
      std::string(64, 'a'), "a.b_c-d",                "_x",          "x_",                  "é-card",
  };
  for (const auto& a_key : a_keys) {
    INFO("a_key: '" << a_key << "'");
    const bool sliced = m::is_fit_label_key(m::fit_sliced_max_free_units_label_key(a_key));
    const bool shared = m::is_fit_label_key(m::fit_shared_free_cards_label_key(a_key));
    CHECK(sliced == shared);
    CHECK(m::is_fit_label_model_part(a_key) == sliced);
  }
  CHECK(m::is_fit_label_model_part("nvidia-a100"));
  CHECK_FALSE(m::is_fit_label_model_part("nvidia/a100"));
  CHECK_FALSE(m::is_fit_label_model_part(std::string(64, 'a')));
}
