// SharedFlatMap (model/api/shared_flat_map.h): copies share one block until one is written, and
// every copy holds exactly what an independent std::map would, through random runs of copies,
// writes and erases (by key and by iterator); a read never unshares; a write to one copy never
// shows in another.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "model/api/shared_flat_map.h"

using Map = chaintwin::model::SharedFlatMap<std::string, std::string>;
using Reference = std::map<std::string, std::string>;

namespace {

void check_same(const Map& map, const Reference& reference) {
  REQUIRE(map.size() == reference.size());
  CHECK(map.empty() == reference.empty());
  CHECK(Reference(map.begin(), map.end()) == reference);
  for (const auto& [key, value] : reference) {
    REQUIRE(map.contains(key));
    CHECK(map.at(key) == value);
    CHECK(map.find(key)->second == value);
  }
}

}  // namespace

TEST_CASE("a copy shares the block until one side is written, and the write shows on that side only",
          "[shared_flat_map]") {
  Map a{{"kubernetes.io/hostname", "node-1"}, {"gpustack.ai/accelerator", "nvidia"}};
  Map b = a;
  CHECK(b.shares_with(a));
  // Reads, a missing erase and a lookup through a non-const map leave the block shared.
  CHECK(b.find("kubernetes.io/hostname")->second == "node-1");
  CHECK(b.erase(std::string("absent")) == 0);
  CHECK(b.count("gpustack.ai/accelerator") == 1);
  CHECK(b.shares_with(a));
  b["added"] = "yes";
  CHECK_FALSE(b.shares_with(a));
  CHECK(a.size() == 2);
  CHECK_FALSE(a.contains("added"));
  CHECK(b.size() == 3);
  CHECK(a != b);
  b.erase(std::string("added"));
  CHECK(a == b);  // equal by content without sharing
}

TEST_CASE("an erase by iterator removes the item it points at, also when the block was shared",
          "[shared_flat_map]") {
  const Map shared{{"a", "1"}, {"b", "2"}, {"c", "3"}};
  Map m = shared;
  auto it = m.find("b");
  it = m.erase(it);
  REQUIRE(it != m.end());
  CHECK(it->first == "c");
  CHECK(Reference(m.begin(), m.end()) == Reference{{"a", "1"}, {"c", "3"}});
  CHECK(Reference(shared.begin(), shared.end()) == Reference{{"a", "1"}, {"b", "2"}, {"c", "3"}});
}

TEST_CASE("a value written through a found iterator changes this copy only", "[shared_flat_map]") {
  const Map shared{{"a", "1"}, {"b", "2"}, {"c", "3"}};
  Map m = shared;
  m.value_at(m.find("b")) = "20";
  CHECK(Reference(m.begin(), m.end()) == Reference{{"a", "1"}, {"b", "20"}, {"c", "3"}});
  CHECK(Reference(shared.begin(), shared.end()) == Reference{{"a", "1"}, {"b", "2"}, {"c", "3"}});
  m.value_at(m.find("c")) = "30";  // now unshared: written in place
  CHECK(m.at("c") == "30");
}

TEST_CASE("an insert at a hint of a shared map lands in key order and leaves the other copy alone",
          "[shared_flat_map]") {
  const Map shared{{"a", "1"}, {"c", "3"}};
  Map m = shared;
  m.emplace_hint(m.find("c"), "b", "2");
  m.emplace_hint(m.end(), "d", "4");
  CHECK(Reference(m.begin(), m.end()) == Reference{{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}});
  CHECK(Reference(shared.begin(), shared.end()) == Reference{{"a", "1"}, {"c", "3"}});
}

TEST_CASE("an empty map and a cleared or moved-from map read as empty and take writes", "[shared_flat_map]") {
  Map empty;
  CHECK(empty.empty());
  CHECK(empty.begin() == empty.end());
  CHECK(empty.find("x") == empty.end());
  Map full{{"x", "1"}};
  Map taken = std::move(full);
  CHECK(full.empty());  // NOLINT(bugprone-use-after-move): a moved-from map is empty by contract
  full["y"] = "2";
  CHECK(full.size() == 1);
  taken.clear();
  CHECK(taken.empty());
  CHECK(taken == empty);
}

TEST_CASE("copies written at random each hold what an independent std::map holds", "[shared_flat_map]") {
  std::mt19937 rng(20261204);
  std::vector<Map> maps(6);
  std::vector<Reference> refs(6);
  const auto key = [&] { return "key-with-a-long-name-" + std::to_string(rng() % 24); };
  for (int step = 0; step < 20000; ++step) {
    const size_t i = rng() % maps.size();
    switch (rng() % 8) {
      case 0: {  // copy another map over this one
        const size_t j = rng() % maps.size();
        maps[i] = maps[j];
        refs[i] = refs[j];
        break;
      }
      case 1: {
        const std::string k = key(), v = std::to_string(rng() % 1000);
        maps[i][k] = v;
        refs[i][k] = v;
        break;
      }
      case 2: {
        const std::string k = key(), v = std::to_string(rng() % 1000);
        maps[i].emplace(k, v);
        refs[i].emplace(k, v);
        break;
      }
      case 3: {
        const std::string k = key(), v = std::to_string(rng() % 1000);
        maps[i].insert_or_assign(k, v);
        refs[i].insert_or_assign(k, v);
        break;
      }
      case 4: {
        const std::string k = key();
        CHECK(maps[i].erase(k) == refs[i].erase(k));
        break;
      }
      case 5: {
        if (maps[i].empty()) break;
        const size_t at = rng() % maps[i].size();
        const std::string k = maps[i].nth(at)->first;
        maps[i].erase(maps[i].nth(at));
        refs[i].erase(k);
        break;
      }
      case 6: {
        if (rng() % 16 == 0) {
          maps[i].clear();
          refs[i].clear();
        }
        break;
      }
      case 7: {
        if (rng() % 2 == 0) {
          for (auto& [k, v] : maps[i].mut()) v += "+";
          for (auto& [k, v] : refs[i]) v += "+";
        } else if (!maps[i].empty()) {  // one value, through an iterator found before the write
          const size_t at = rng() % maps[i].size();
          const std::string k = maps[i].nth(at)->first;
          maps[i].value_at(maps[i].nth(at)) += "*";
          refs[i][k] += "*";
        }
        break;
      }
    }
    for (size_t m = 0; m < maps.size(); ++m) check_same(maps[m], refs[m]);
  }
}
