#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/results/interned_name.h"

using chaintwin::sim::InternedName;

TEST_CASE("interned names with equal texts share one copy, and reads see the text", "[interned_name]") {
  struct Row {
    const char* what;
    std::string a, b;
    bool equal;
  };
  const Row rows[] = {
      {"the same queue name", "gpustack--nvidia-a100-sxm4-80gb", "gpustack--nvidia-a100-sxm4-80gb", true},
      {"a short resource name", "cpu", "cpu", true},
      {"two empties", "", "", true},
      {"names that differ in the last character", "gate2", "gate3", false},
      {"a prefix of the other", "credits.gpustack.ai/nvidia", "credits.gpustack.ai/nvidia-mig", false},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const InternedName a(row.a), b(row.b);
    CHECK((a == b) == row.equal);
    CHECK((&a.str() == &b.str()) == row.equal);
    CHECK(a.str() == row.a);
    CHECK(a == row.a);
    CHECK(a.size() == row.a.size());
    CHECK(a.empty() == row.a.empty());
  }
}

TEST_CASE("a default interned name is the empty text", "[interned_name]") {
  const InternedName none;
  CHECK(none.empty());
  CHECK(none == InternedName(""));
  CHECK(none == std::string());
  CHECK(std::string(none.c_str()).empty());
}

TEST_CASE("interned names order by their text, not by when they were interned", "[interned_name]") {
  const InternedName later_first("zeta-queue-interned-first");
  const InternedName earlier("alpha-queue-interned-second");
  CHECK(earlier < later_first);
  CHECK(later_first > earlier);
  CHECK((earlier <=> InternedName("alpha-queue-interned-second")) == std::strong_ordering::equal);
  CHECK((later_first <=> std::string("zeta")) == std::strong_ordering::greater);
}

TEST_CASE("interned names concatenate, print and round-trip through JSON as strings", "[interned_name]") {
  const InternedName q("team-a-queue");
  CHECK("ClusterQueue " + q == "ClusterQueue team-a-queue");
  CHECK(q + std::string("/x") == "team-a-queue/x");
  nlohmann::json j = q;
  CHECK(j == "team-a-queue");
  CHECK(j.get<InternedName>() == q);
}

TEST_CASE("threads interning the same texts at once get one copy of each", "[interned_name]") {
  constexpr int kThreads = 4, kNames = 500;
  std::vector<std::vector<const std::string*>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &seen] {
      for (int i = 0; i < kNames; ++i)
        seen[static_cast<size_t>(t)].push_back(&InternedName("thread-test-name-" + std::to_string(i)).str());
    });
  for (auto& th : threads) th.join();
  for (int t = 1; t < kThreads; ++t) CHECK(seen[static_cast<size_t>(t)] == seen[0]);
  for (int i = 0; i < kNames; ++i) CHECK(*seen[0][static_cast<size_t>(i)] == "thread-test-name-" + std::to_string(i));
}
