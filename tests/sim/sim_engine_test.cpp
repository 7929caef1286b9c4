#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "sim/event_queue.h"
#include "sim/random_stream.h"
#include "sim/sim_time.h"

using chaintwin::sim::EventQueue;
using chaintwin::sim::RandomStream;
using chaintwin::sim::SimTime;

TEST_CASE("durations parse as integers with a unit and print in the largest exact unit", "[sim_time]") {
  struct Row {
    const char* text;
    int64_t us;
    const char* printed;
  };
  const Row rows[] = {{"250ms", 250'000, "250ms"}, {"30s", 30'000'000, "30s"},   {"15m", 900'000'000, "15m"},
                      {"2h", 7'200'000'000, "2h"}, {"3d", 259'200'000'000, "3d"}, {"90s", 90'000'000, "90s"},
                      {"3600s", 3'600'000'000, "1h"}, {"1500us", 1'500, "1500us"}, {"0s", 0, "0s"}};
  for (const auto& r : rows) {
    INFO(r.text);
    const auto t = SimTime::parse(r.text);
    REQUIRE(t.ok());
    CHECK(t->us() == r.us);
    CHECK(t->to_string() == r.printed);
  }
  CHECK(SimTime::parse("1.5h").error() == "duration '1.5h': unknown unit '.5h' (expected us, ms, s, m, h or d)");
  CHECK(SimTime::parse("10").error() == "duration '10': expected an integer with a unit (us, ms, s, m, h, d), e.g. 30s");
  CHECK(SimTime::parse("h").error() == "duration 'h': expected an integer with a unit (us, ms, s, m, h, d), e.g. 30s");
  CHECK_FALSE(SimTime::parse("99999999999999999d").ok());
}

TEST_CASE("events come out by time, and in scheduling order at the same time", "[event_queue]") {
  EventQueue<std::string> q;
  q.push(SimTime::seconds(5), "c");
  q.push(SimTime::seconds(1), "a");
  q.push(SimTime::seconds(5), "d");
  q.push(SimTime::seconds(1), "b");
  q.push(SimTime::seconds(3), "middle");
  std::vector<std::string> order;
  while (!q.empty()) order.push_back(q.pop().payload);
  CHECK(order == std::vector<std::string>{"a", "b", "middle", "c", "d"});
}

TEST_CASE("events pushed between pops come out as a sorted list of (time, sequence) would give them", "[event_queue]") {
  // Popped slots are reused for later payloads: each payload must still come out with its own time.
  EventQueue<std::string> q;
  std::map<std::pair<int64_t, uint64_t>, std::string> reference;
  uint64_t x = 12345;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int round = 0; round < 2000; ++round) {
    const int pushes = static_cast<int>(next() % 3);
    for (int i = 0; i < pushes; ++i) {
      const int64_t at = static_cast<int64_t>(next() % 50);
      const std::string payload = "event-" + std::to_string(round) + "-" + std::to_string(i) + std::string(20, 'x');
      const uint64_t seq = q.push(SimTime::seconds(at), payload);
      reference[{at, seq}] = payload;
    }
    if (next() % 2 == 0 && !q.empty()) {
      REQUIRE(q.next_at() == SimTime::seconds(reference.begin()->first.first));
      auto e = q.pop();
      CHECK(e.at.us() == SimTime::seconds(reference.begin()->first.first).us());
      CHECK(e.sequence == reference.begin()->first.second);
      CHECK(e.payload == reference.begin()->second);
      reference.erase(reference.begin());
    }
    CHECK(q.size() == reference.size());
  }
  while (!q.empty()) {
    auto e = q.pop();
    CHECK(e.payload == reference.begin()->second);
    reference.erase(reference.begin());
  }
  CHECK(reference.empty());
}

TEST_CASE("a stream is fixed by seed, run and name, and streams do not disturb each other", "[random_stream]") {
  auto draw = [](RandomStream s) {
    std::vector<uint64_t> v;
    for (int i = 0; i < 8; ++i) v.push_back(s.next_u64());
    return v;
  };
  CHECK(draw(RandomStream(42, 0, "chat")) == draw(RandomStream(42, 0, "chat")));
  CHECK(draw(RandomStream(42, 0, "chat")) != draw(RandomStream(42, 0, "batch")));
  CHECK(draw(RandomStream(42, 0, "chat")) != draw(RandomStream(42, 1, "chat")));
  CHECK(draw(RandomStream(42, 0, "chat")) != draw(RandomStream(43, 0, "chat")));
  // Interleaving another stream's draws leaves this one's sequence as it was.
  RandomStream a(7, 0, "a"), b(7, 0, "b");
  std::vector<uint64_t> interleaved;
  for (int i = 0; i < 8; ++i) {
    interleaved.push_back(a.next_u64());
    b.next_u64();
  }
  CHECK(interleaved == draw(RandomStream(7, 0, "a")));
}

TEST_CASE("uniform draws stay in bounds and cover them evenly", "[random_stream]") {
  RandomStream s(1, 0, "uniform");
  std::vector<int> counts(10, 0);
  for (int i = 0; i < 100'000; ++i) {
    const uint64_t v = s.uniform(10);
    REQUIRE(v < 10);
    ++counts[v];
  }
  for (int c : counts) CHECK(std::abs(c - 10'000) < 500);  // a fixed seed: this is a regression check
  for (int i = 0; i < 1000; ++i) {
    const double u = s.uniform01();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
  }
}

TEST_CASE("exponential and log-normal durations have the asked mean, median and 95th percentile", "[random_stream]") {
  RandomStream s(2024, 0, "durations");
  const int n = 200'000;
  int64_t total = 0;
  for (int i = 0; i < n; ++i) total += s.exponential(SimTime::minutes(20)).us();
  const double mean = static_cast<double>(total) / n;
  CHECK(std::abs(mean / 1'200'000'000.0 - 1.0) < 0.01);

  std::vector<int64_t> v;
  for (int i = 0; i < n; ++i) v.push_back(s.lognormal(SimTime::minutes(40), SimTime::hours(6)).us());
  std::sort(v.begin(), v.end());
  const double median = static_cast<double>(v[n / 2]);
  const double p95 = static_cast<double>(v[n * 95 / 100]);
  CHECK(std::abs(median / 2'400'000'000.0 - 1.0) < 0.02);
  CHECK(std::abs(p95 / 21'600'000'000.0 - 1.0) < 0.03);
}
