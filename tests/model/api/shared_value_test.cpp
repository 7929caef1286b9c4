// SharedValue (model/api/shared_value.h): an optional whose copies share one block and which
// compares by value, as the std::optional it replaces did.
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/api/shared_value.h"

using chaintwin::model::SharedValue;

TEST_CASE("a shared value compares as the optional it stands for, and its copies share one block", "[api][shared]") {
  using Value = std::vector<std::string>;
  struct Row {
    const char* what;
    std::optional<Value> a, b;
  };
  const std::vector<Row> rows = {
      {"both empty", std::nullopt, std::nullopt},
      {"empty and a value", std::nullopt, Value{"x"}},
      {"equal values made apart", Value{"x", "y"}, Value{"x", "y"}},
      {"different values", Value{"x"}, Value{"y"}},
      {"an empty value and none", Value{}, std::nullopt},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const SharedValue<Value> a(row.a), b(row.b);
    CHECK((a == b) == (row.a == row.b));
    CHECK(a.has_value() == row.a.has_value());
    CHECK((a == std::nullopt) == !row.a.has_value());
    const SharedValue<Value> copy = a;
    CHECK(copy == a);
    if (a) {
      CHECK(&*copy == &*a);  // shared, not copied
      CHECK(*a == *row.a);
    }
    SharedValue<Value> replaced = a;
    replaced = SharedValue<Value>(Value{"z"});
    CHECK(a == SharedValue<Value>(row.a));  // replacing a copy leaves the original as it was
    CHECK(*replaced == Value{"z"});
  }
}
