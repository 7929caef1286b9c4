// The kinds of flag value (sim/cli/flag_values.h): each accepts the edges of its range and refuses
// one past them, signs, spaces and non-numbers, without throwing.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "sim/cli/flag_values.h"

using namespace chaintwin;
using namespace chaintwin::cli;

TEST_CASE("a seed is any whole number up to 2^64 - 1, in digits only", "[cli][flags]") {
  const auto kind = seed_value();
  struct Row {
    const char* text;
    std::optional<uint64_t> want;
  };
  const Row rows[] = {
      {"0", 0},
      {"42", 42},
      {"18446744073709551615", std::numeric_limits<uint64_t>::max()},
      {"18446744073709551616", std::nullopt},
      {"340282366920938463463374607431768211456", std::nullopt},
      {"-1", std::nullopt},
      {"+1", std::nullopt},
      {" 1", std::nullopt},
      {"1 ", std::nullopt},
      {"1e3", std::nullopt},
      {"0x10", std::nullopt},
      {"", std::nullopt},
  };
  for (const auto& r : rows) {
    INFO("'" << r.text << "'");
    CHECK(kind.parse(r.text) == r.want);
  }
}

TEST_CASE("whole numbers keep to their range", "[cli][flags]") {
  const auto jobs = whole_number<int32_t>(1, 1024);
  CHECK(jobs.parse("1") == 1);
  CHECK(jobs.parse("1024") == 1024);
  CHECK(jobs.parse("0") == std::nullopt);
  CHECK(jobs.parse("1025") == std::nullopt);
  CHECK(jobs.parse("4294967297") == std::nullopt);  // would wrap to 1 in 32 bits
  CHECK(jobs.expected == "a whole number from 1 to 1024");
  const auto id = whole_number<int64_t>(1, std::numeric_limits<int64_t>::max());
  CHECK(id.parse("9223372036854775807") == std::numeric_limits<int64_t>::max());
  CHECK(id.parse("9223372036854775808") == std::nullopt);
}

TEST_CASE("a port is 0 to 65535 after the last colon, with a host before it", "[cli][flags]") {
  const auto kind = host_port();
  struct Row {
    const char* text;
    std::optional<HostPort> want;
  };
  const Row rows[] = {
      {"127.0.0.1:0", HostPort{"127.0.0.1", 0}},
      {"127.0.0.1:65535", HostPort{"127.0.0.1", 65535}},
      {"[::1]:8080", HostPort{"[::1]", 8080}},
      {"localhost:65536", std::nullopt},
      {"localhost:4294967296", std::nullopt},
      {"localhost:-1", std::nullopt},
      {"localhost:", std::nullopt},
      {":8080", std::nullopt},
      {"8080", std::nullopt},
  };
  for (const auto& r : rows) {
    INFO("'" << r.text << "'");
    CHECK(kind.parse(r.text) == r.want);
  }
}

TEST_CASE("durations use the scenario syntax; a positive one refuses 0s", "[cli][flags]") {
  CHECK(duration().parse("0s") == sim::SimTime());
  CHECK(duration().parse("6h") == sim::SimTime::hours(6));
  CHECK(duration().parse("6") == std::nullopt);
  CHECK(duration().parse("-1h") == std::nullopt);
  CHECK(duration().parse("99999999999999999999d") == std::nullopt);
  CHECK(duration(true).parse("0s") == std::nullopt);
  CHECK(duration(true).parse("1us") == sim::SimTime::micros(1));
  const auto written = as_written(duration(true)).parse("90m");
  REQUIRE(written);
  CHECK(written->value == sim::SimTime::minutes(90));
  CHECK(written->text == "90m");
}

TEST_CASE("positive numbers are finite, above 0 and within their bound", "[cli][flags]") {
  const auto kind = positive_number(100, "S", "seconds");
  CHECK(kind.parse("0.5") == 0.5);
  CHECK(kind.parse("100") == 100);
  for (const char* bad : {"0", "-1", "100.5", "inf", "nan", "1e400", "", "1s", " 1"}) {
    INFO("'" << bad << "'");
    CHECK(kind.parse(bad) == std::nullopt);
  }
  CHECK(kind.expected == "a number of seconds greater than 0 and at most 100");
}

TEST_CASE("sizes, shards, NAME=VALUE pairs, choices and probabilities", "[cli][flags]") {
  CHECK(pixel_size().parse("1280x800") == PixelSize{1280, 800});
  CHECK(pixel_size().parse("320x240") == PixelSize{320, 240});
  CHECK(pixel_size().parse("319x240") == std::nullopt);
  CHECK(pixel_size().parse("8193x800") == std::nullopt);
  CHECK(pixel_size().parse("99999999999x800") == std::nullopt);
  CHECK(shard_spec().parse("0/4") == ShardSpec{0, 4});
  CHECK(shard_spec().parse("4") == ShardSpec{std::nullopt, 4});
  CHECK(shard_spec().parse("4/4") == std::nullopt);
  CHECK(shard_spec().parse("0/0") == std::nullopt);
  CHECK(shard_spec().parse("0/1000000000") == std::nullopt);
  using Pair = std::pair<std::string, std::string>;
  CHECK(name_value("NAME=VALUE").parse("a=b=c") == Pair{"a", "b=c"});
  CHECK(name_value("NAME=VALUE").parse("=b") == std::nullopt);
  CHECK(name_value("NAME=VALUE").parse("a=") == std::nullopt);
  CHECK(one_of({"text", "json"}).parse("json") == std::string("json"));
  CHECK(one_of({"text", "json"}).parse("JSON") == std::nullopt);
  CHECK(one_of({"text", "json"}).type_name == "text|json");
  const auto faults = probabilities({"conflict", "slow"});
  CHECK(faults.parse("conflict=0.3,slow=1") == std::map<std::string, double>{{"conflict", 0.3}, {"slow", 1}});
  CHECK(faults.parse("conflict=1.5") == std::nullopt);
  CHECK(faults.parse("drop=0.1") == std::nullopt);
  CHECK(faults.parse("conflict") == std::nullopt);
}
