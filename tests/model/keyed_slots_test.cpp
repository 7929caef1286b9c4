// KeyedSlots (model/keyed_slots.h): finds, inserts and erases as a std::map would, walks in key
// order when asked, and visits every object once when no order is asked for.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/keyed_slots.h"
#include "mirrored_table_ops.h"

using chaintwin::model::KeyedSlots;

namespace {

void check_same(const KeyedSlots<int>& table, const std::map<std::string, int>& model) {
  REQUIRE(table.size() == model.size());
  const auto ordered = table.in_key_order();
  REQUIRE(ordered.size() == model.size());
  auto o = ordered.begin();
  for (const auto& [key, value] : model) {  // the same keys in the same order
    CHECK((*o)->first == key);
    CHECK((*o)->second == value);
    const auto found = table.find(key);
    REQUIRE(found != table.end());
    CHECK(&*found == *o);  // the walk hands out the table's own objects
    ++o;
  }
  std::multiset<std::string> seen;
  table.each_unordered([&](const std::string& key, const int& value) {
    seen.insert(key);
    CHECK(model.at(key) == value);
  });
  CHECK(seen.size() == model.size());
  CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == seen.size());  // each once
}

}  // namespace

TEST_CASE("keyed slots find, insert and erase as a map, and walk in key order when asked", "[keyed_slots]") {
  // Erased slots are reused, so slot order soon differs from key order, which only in_key_order()
  // gives.
  KeyedSlots<int> table;
  std::map<std::string, int> model;
  table_test::run_mirrored_ops(table, model, 20261204, check_same);
}

TEST_CASE("keyed slots compare as sets of keys and objects, whatever slots they sit in", "[keyed_slots]") {
  KeyedSlots<int> a, b;
  for (int i = 0; i < 10; ++i) a["ns/w-" + std::to_string(i)] = i;
  for (int i = 9; i >= 0; --i) b["ns/w-" + std::to_string(i)] = i;
  CHECK(a == b);
  b.erase("ns/w-3");
  CHECK_FALSE(a == b);
  b["ns/w-3"] = 3;
  CHECK(a == b);
  b["ns/w-3"] = 4;
  CHECK_FALSE(a == b);
}
