// FlatStringIndex (model/flat_string_index.h) finds exactly what a std::unordered_map would, through
// long random runs of inserts and erases that fill it to its limit and empty it again (the
// backward-shift erase is where an open-addressing table goes wrong: a key left behind a hole).
#include <catch2/catch.hpp>

#include <deque>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/flat_string_index.h"

using chaintwin::model::FlatStringIndex;

namespace {

// Every key of the reference is found with its value, and a sample of absent keys is not.
void check_same(const FlatStringIndex<int>& index, const std::unordered_map<std::string, int>& reference,
                const std::deque<std::string>& absent) {
  REQUIRE(index.size() == reference.size());
  for (const auto& [key, value] : reference) {
    const int* found = index.find(key);
    REQUIRE(found != nullptr);
    CHECK(*found == value);
  }
  for (const auto& key : absent)
    if (!reference.count(key)) CHECK(index.find(key) == nullptr);
}

}  // namespace

TEST_CASE("a flat string index finds, adds and erases as a hash map does, through random runs", "[flat_string_index]") {
  // Keys from a small pool, so that adds of present keys, erases of absent ones and long probe
  // runs (many keys near the half-full limit of a small table) all occur.
  for (const uint32_t seed : {1u, 2u, 3u, 4u, 5u}) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    const std::size_t pool_size = 50 + 150 * (seed % 3);
    std::deque<std::string> pool;  // stable storage: the index holds views
    for (std::size_t i = 0; i < pool_size; ++i) pool.push_back("ns/workload-" + std::to_string(i * 7919 % 100003));
    FlatStringIndex<int> index;
    std::unordered_map<std::string, int> reference;
    for (int step = 0; step < 4000; ++step) {
      const std::string& key = pool[rng() % pool.size()];
      // Add-heavy phases and erase-heavy phases in turn, so the table both grows and drains.
      const bool adding = (step / 500) % 2 == 0 ? rng() % 4 != 0 : rng() % 4 == 0;
      if (adding) {
        const bool added = index.emplace(key, step);
        CHECK(added == reference.emplace(key, step).second);
      } else {
        CHECK(index.erase(key) == (reference.erase(key) == 1));
      }
      if (step % 50 == 0) check_same(index, reference, pool);
    }
    check_same(index, reference, pool);
    // A copy answers alike; a moved-from index is empty and usable.
    FlatStringIndex<int> copy = index;
    check_same(copy, reference, pool);
    FlatStringIndex<int> moved = std::move(index);
    check_same(moved, reference, pool);
    CHECK(index.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    CHECK(index.find(pool.front()) == nullptr);
    CHECK(index.emplace(pool.front(), 1));
    CHECK(*index.find(pool.front()) == 1);
  }
}

TEST_CASE("a flat string index reserved ahead keeps its answers and an empty one finds nothing", "[flat_string_index]") {
  FlatStringIndex<int> index;
  CHECK(index.find("a") == nullptr);
  CHECK_FALSE(index.erase("a"));
  const std::deque<std::string> keys = {"a", "b", "", "a-long-key-that-is-not-inline-in-a-string"};
  for (std::size_t i = 0; i < keys.size(); ++i) CHECK(index.emplace(keys[i], static_cast<int>(i)));
  index.reserve(1000);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    REQUIRE(index.find(keys[i]) != nullptr);
    CHECK(*index.find(keys[i]) == static_cast<int>(i));
  }
  CHECK_FALSE(index.emplace("b", 9));  // present: left as it was
  CHECK(*index.find("b") == 1);
  index.clear();
  CHECK(index.empty());
  CHECK(index.find("b") == nullptr);
}

TEST_CASE("a flat string map owns its keys: they outlive the strings they were given as", "[flat_string_index]") {
  chaintwin::model::FlatStringMap<std::vector<int>> map;
  std::unordered_map<std::string, std::vector<int>> reference;
  std::mt19937 rng(42);
  for (int step = 0; step < 3000; ++step) {
    const std::string key = "node-" + std::to_string(rng() % 120) + "-with-a-name-longer-than-inline";  // gone after the step
    if (rng() % 3 != 0) {
      map.try_emplace(key).first->push_back(step);
      reference[key].push_back(step);
    } else {
      CHECK(map.erase(key) == (reference.erase(key) == 1));
    }
  }
  REQUIRE(map.size() == reference.size());
  for (const auto& [key, values] : reference) {
    const std::string copy = key;  // looked up through other storage
    const std::vector<int>* found = map.find(copy);
    REQUIRE(found != nullptr);
    CHECK(*found == values);
  }
}
