// Random operations on a table keyed by name, mirrored on a std::map: what the keyed tables'
// tests (KeyedTable, KeyedSlots) drive them with. Keys share a long prefix, as Workload and Pod
// keys do ("<namespace>/<name>"), so every comparison reads most of the key.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace table_test {

// 2,000 random inserts, assignments, erases (by key, at an iterator, and removes) and lookups on
// `table` and `model` alike; `check(table, model)` every 97 steps and at the end.
template <class Table, class Check>
void run_mirrored_ops(Table& table, std::map<std::string, int>& model, uint32_t seed, Check check) {
  std::mt19937 rng(seed);
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back("default/openb-pod-" + std::to_string(1000 + i * 7 % 40));
  for (int step = 0; step < 2000; ++step) {
    const std::string& key = keys[rng() % keys.size()];
    const int value = static_cast<int>(rng() % 1000);
    switch (rng() % 7) {
      case 0: table[key] = value; model[key] = value; break;
      case 1: CHECK(table.emplace(key, value).second == model.emplace(key, value).second); break;
      case 2: table.insert_or_assign(key, value); model.insert_or_assign(key, value); break;
      case 3: CHECK(table.erase(key) == model.erase(key)); break;
      case 4:
        if constexpr (requires { table.erase(table.find(key)); }) {
          if (auto it = table.find(key); it != table.end()) {
            table.erase(it);
            model.erase(key);
          }
        }
        break;
      case 5:
        CHECK(table.count(key) == model.count(key));
        CHECK(table.contains(key) == (model.count(key) == 1));
        break;
      case 6:
        if (auto it = table.find(key); it != table.end()) {
          table.remove(it);
          model.erase(key);
        }
        break;
    }
    if (step % 97 == 0) check(table, model);
  }
  check(table, model);
  CHECK(table.find("default/absent") == table.end());
  CHECK_THROWS_AS(table.at("default/absent"), std::out_of_range);
}

}  // namespace table_test
