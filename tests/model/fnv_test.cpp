#include <catch2/catch.hpp>

#include "model/fnv.h"

using chaintwin::model::sum_by_fnv64a;

TEST_CASE("fnv64a matches the standard FNV-1a-64 vectors as 16 lower-case hex digits", "[fnv]") {
  struct Row {
    const char* in;
    const char* hex;
  };
  const Row rows[] = {
      {"", "cbf29ce484222325"},
      {"a", "af63dc4c8601ec8c"},
      {"foobar", "85944171f73967e8"},
      {"gpustack--nvidia-a10g-linux-amd64", "c4680bb149644f1c"},
      {"gpustack--generic-linux-amd64", "3b93966fd73eb9ec"},
  };
  for (const auto& row : rows) {
    INFO(row.in);
    CHECK(sum_by_fnv64a(row.in) == row.hex);
  }
}

TEST_CASE("several parts hash as their concatenation, with no separator", "[fnv]") {
  CHECK(sum_by_fnv64a({"foo", "bar"}) == sum_by_fnv64a("foobar"));
  CHECK(sum_by_fnv64a({"", "a", ""}) == "af63dc4c8601ec8c");
  CHECK(sum_by_fnv64a({"fo", "obar"}) != sum_by_fnv64a({"foo", "-bar"}));
}

TEST_CASE("a NUL byte inside the input is hashed like any other byte", "[fnv]") {
  using namespace std::string_literals;
  CHECK(sum_by_fnv64a("topology.kubernetes.io/region\0topology.kubernetes.io/zone\0kubernetes.io/hostname"s) ==
        "570aeab478df5111");
  CHECK(sum_by_fnv64a("a\0"s) != sum_by_fnv64a("a"));
}
