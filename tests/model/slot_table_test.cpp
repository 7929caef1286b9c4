// SlotTable (model/slot_table.h) holds exactly what a std::map would, through random runs of inserts,
// assignments and erases (by key and by iterator, in the middle of a walk); an object stays in
// its slot, at its address, while it lives, whatever else comes and goes; a copy or a move answers
// alike; equality ignores which slots the objects sit in.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/slot_table.h"

using chaintwin::model::SlotTable;

namespace {

// The table holds the reference's (key, value) pairs and nothing else, each key once, each found
// by key and by its slot; absent keys are not found.
void check_same(const SlotTable<int>& table, const std::map<std::string, int>& reference,
                const std::vector<std::string>& pool) {
  REQUIRE(table.size() == reference.size());
  CHECK(table.empty() == reference.empty());
  std::map<std::string, int> walked;
  std::set<SlotTable<int>::Slot> slots;
  for (auto it = table.begin(); it != table.end(); ++it) {
    CHECK(walked.emplace(it->first, it->second).second);
    CHECK(slots.insert(it.slot()).second);
    CHECK(&table.in_slot(it.slot()) == &*it);
  }
  CHECK(walked == reference);
  for (const auto& key : pool) {
    const auto found = table.find(key);
    const auto want = reference.find(key);
    CHECK(table.contains(key) == (want != reference.end()));
    CHECK(table.count(key) == (want != reference.end() ? 1u : 0u));
    if (want == reference.end()) {
      CHECK(found == table.end());
      CHECK_THROWS_AS(table.at(key), std::out_of_range);
    } else {
      REQUIRE(found != table.end());
      CHECK(found->second == want->second);
      CHECK(table.at(key) == want->second);
    }
  }
}

}  // namespace

TEST_CASE("a slot table holds what an ordered map holds, through random inserts, assignments and erases",
          "[slot_table]") {
  for (const uint32_t seed : {1u, 2u, 3u, 4u}) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::vector<std::string> pool;
    for (int i = 0; i < 40 + 60 * static_cast<int>(seed % 2); ++i)
      pool.push_back("team/pod-" + std::to_string(i * 7919 % 10007) + "-main-0");
    SlotTable<int> table;
    std::map<std::string, int> reference;
    std::map<std::string, const int*> address;  // where each live object was put
    for (int step = 0; step < 3000; ++step) {
      const std::string& key = pool[rng() % pool.size()];
      const bool adding = (step / 400) % 2 == 0 ? rng() % 4 != 0 : rng() % 4 == 0;
      switch (adding ? rng() % 3 : 3 + rng() % 2) {
        case 0: {  // try_emplace keeps a present object as it is
          const auto [it, added] = table.try_emplace(key, step);
          CHECK(added == reference.emplace(key, step).second);
          CHECK(it->second == reference.at(key));
          if (added) address[key] = &it->second;
          break;
        }
        case 1: {  // operator[] adds a default object or finds the present one
          const bool present = reference.count(key) != 0;
          int& value = table[key];
          if (!present) {
            CHECK(value == 0);
            address[key] = &value;
          }
          value = step;
          reference[key] = step;
          break;
        }
        case 2: {  // insert_or_assign overwrites in place
          const bool present = reference.count(key) != 0;
          const auto [it, added] = table.insert_or_assign(key, step);
          CHECK(added == !present);
          reference[key] = step;
          if (added) address[key] = &it->second;
          break;
        }
        case 3:  // erase by key
          CHECK(table.erase(key) == reference.erase(key));
          address.erase(key);
          break;
        default: {  // erase by iterator in the middle of a walk: every other live object
          bool drop = rng() % 2 == 0;
          for (auto it = table.begin(); it != table.end();) {
            if (drop) {
              reference.erase(it->first);
              address.erase(it->first);
              it = table.erase(it);
            } else {
              ++it;
            }
            drop = !drop;
            if (rng() % 8 == 0) break;
          }
        }
      }
      // No live object moved since it was put in.
      for (const auto& [k, at] : address) CHECK(&table.at(k) == at);
      if (step % 100 == 0) check_same(table, reference, pool);
    }
    check_same(table, reference, pool);

    const SlotTable<int> copy = table;
    check_same(copy, reference, pool);
    CHECK(copy == table);
    SlotTable<int> moved = std::move(table);
    check_same(moved, reference, pool);
    for (const auto& [k, at] : address) CHECK(&moved.at(k) == at);  // a move keeps the objects in place
    check_same(table, {}, pool);  // moved-from: empty and usable
    table["team/again"] = 1;
    CHECK(table.size() == 1);
  }
}

TEST_CASE("slot tables compare equal when they hold the same objects, in whatever slots", "[slot_table]") {
  struct Row {
    const char* what;
    std::vector<std::pair<std::string, int>> a_puts;
    std::vector<std::string> a_erases;
    std::vector<std::pair<std::string, int>> b_puts;
    bool equal;
  };
  const std::vector<Row> rows = {
      {"both empty", {}, {}, {}, true},
      {"same objects put in another order", {{"a", 1}, {"b", 2}}, {}, {{"b", 2}, {"a", 1}}, true},
      {"same objects, one after a freed slot", {{"x", 9}, {"a", 1}, {"b", 2}}, {"x"}, {{"b", 2}, {"a", 1}}, true},
      {"one value differs", {{"a", 1}, {"b", 2}}, {}, {{"a", 1}, {"b", 3}}, false},
      {"one key differs", {{"a", 1}, {"b", 2}}, {}, {{"a", 1}, {"c", 2}}, false},
      {"one holds more", {{"a", 1}, {"b", 2}}, {}, {{"a", 1}}, false},
  };
  for (const auto& r : rows) {
    INFO(r.what);
    SlotTable<int> a, b;
    for (const auto& [k, v] : r.a_puts) a[k] = v;
    for (const auto& k : r.a_erases) a.erase(k);
    for (const auto& [k, v] : r.b_puts) b[k] = v;
    CHECK((a == b) == r.equal);
    CHECK((b == a) == r.equal);
  }
}
