// KeyedSlots (model/keyed_slots.h): finds, inserts and erases as a std::map would, walks in key
// order when asked, and visits every object once when no order is asked for.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/keyed_slots.h"

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
  // Random operations on keys with a long shared prefix, mirrored on a std::map. Erased slots are
  // reused, so slot order soon differs from key order, which only in_key_order() gives.
  std::mt19937 rng(20261204);
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back("default/openb-pod-" + std::to_string(1000 + i * 7 % 40));
  KeyedSlots<int> table;
  std::map<std::string, int> model;
  for (int step = 0; step < 2000; ++step) {
    const std::string& key = keys[rng() % keys.size()];
    const int value = static_cast<int>(rng() % 1000);
    switch (rng() % 6) {
      case 0: table[key] = value; model[key] = value; break;
      case 1: CHECK(table.emplace(key, value).second == model.emplace(key, value).second); break;
      case 2: table.insert_or_assign(key, value); model.insert_or_assign(key, value); break;
      case 3: CHECK(table.erase(key) == model.erase(key)); break;
      case 4:
        if (auto it = table.find(key); it != table.end()) {
          table.remove(it);
          model.erase(key);
        }
        break;
      case 5:
        CHECK(table.count(key) == model.count(key));
        CHECK(table.contains(key) == (model.count(key) == 1));
        break;
    }
    if (step % 97 == 0) check_same(table, model);
  }
  check_same(table, model);
  CHECK(table.find("default/absent") == table.end());
  CHECK_THROWS_AS(table.at("default/absent"), std::out_of_range);
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
