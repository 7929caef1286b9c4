// KeyedTable (model/keyed_table.h) behaves as the std::map it wraps, whatever was done to it.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "model/keyed_table.h"
#include "mirrored_table_ops.h"

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
  // After each step the two hold the same keys in the same order and every key is found through
  // the index.
  KeyedTable<int> table;
  std::map<std::string, int> model;
  table_test::run_mirrored_ops(table, model, 20261202, check_same);
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
