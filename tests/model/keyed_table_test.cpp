// KeyedTable (model/keyed_table.h) behaves as the std::map it wraps, whatever was done to it.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "model/keyed_table.h"

using chaintwin::model::KeyedTable;

namespace {

void check_same(const KeyedTable<int>& table, const std::map<std::string, int>& model) {
  REQUIRE(table.size() == model.size());
  auto t = table.begin();
  for (const auto& [key, value] : model) {  // the same keys in the same order
    REQUIRE(t != table.end());
    CHECK(t->first == key);
    CHECK(t->second == value);
    const auto found = table.find(key);
    REQUIRE(found != table.end());
    CHECK(found->second == value);
    CHECK(&*found == &*t);  // the index points at the tree's own node
    ++t;
  }
}

}  // namespace

TEST_CASE("a keyed table finds, inserts and erases exactly as the map it wraps", "[keyed_table]") {
  // Random operations on keys with a long shared prefix, mirrored on a std::map; after each step
  // the two hold the same keys in the same order and every key is found through the index.
  std::mt19937 rng(20261202);
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back("default/openb-pod-" + std::to_string(1000 + i * 7 % 40));
  KeyedTable<int> table;
  std::map<std::string, int> model;
  for (int step = 0; step < 2000; ++step) {
    const std::string& key = keys[rng() % keys.size()];
    const int value = static_cast<int>(rng() % 1000);
    switch (rng() % 7) {
      case 0: table[key] = value; model[key] = value; break;
      case 1: CHECK(table.emplace(key, value).second == model.emplace(key, value).second); break;
      case 2: table.insert_or_assign(key, value); model.insert_or_assign(key, value); break;
      case 3: CHECK(table.erase(key) == model.erase(key)); break;
      case 4:
        if (auto it = table.find(key); it != table.end()) {
          table.erase(it);
          model.erase(key);
        }
        break;
      case 5: CHECK(table.count(key) == model.count(key)); break;
      case 6:
        if (auto it = table.find(key); it != table.end()) {
          table.remove(it);
          model.erase(key);
        }
        break;
    }
    if (step % 97 == 0) check_same(table, model);
  }
  check_same(table, model);
  CHECK(table.find("default/absent") == table.end());
  CHECK_THROWS_AS(table.at("default/absent"), std::out_of_range);
}

TEST_CASE("a copied or moved keyed table looks up in its own nodes", "[keyed_table]") {
  KeyedTable<int> a;
  for (int i = 0; i < 50; ++i) a["ns/w-" + std::to_string(i)] = i;
  const std::map<std::string, int> model(a.begin(), a.end());
  KeyedTable<int> copy = a;
  check_same(copy, model);
  CHECK(copy == a);
  copy.erase("ns/w-7");
  CHECK(a.count("ns/w-7") == 1);  // the original keeps its own index
  CHECK_FALSE(copy == a);
  KeyedTable<int> moved = std::move(a);
  check_same(moved, model);
  KeyedTable<int> assigned;
  assigned["x"] = 1;
  assigned = moved;
  check_same(assigned, model);
  assigned = std::move(copy);
  CHECK(assigned.count("ns/w-7") == 0);
  CHECK(assigned.at("ns/w-8") == 8);
}
