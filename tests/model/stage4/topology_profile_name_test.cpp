// Issue 17, naming: the topology profile is "fnv64-" + FNV-1a-64 of the ordered levels joined by
// NUL, its Topology "gpustack-" + profile (operator-code-rules.md §3c "Topology profile" and the
// FNV variant; node_topology_test.go TestTopologyProfileUsesStableFNV64Name pins the first row).
// The other hashes were worked with the §3c recipe (offset basis 0xcbf29ce484222325, prime
// 0x100000001b3, big-endian hex).
#include <regex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/fnv.h"
#include "model/stage3/node_keys.h"

namespace m = chaintwin::model;

namespace {
const std::string kRegion = "topology.kubernetes.io/region";
const std::string kZone = "topology.kubernetes.io/zone";
const std::string kHostname = "kubernetes.io/hostname";
}  // namespace

TEST_CASE("the topology profile is a stable fnv64 name of its ordered levels", "[node_keys][issue17]") {
  struct Row {
    std::string name;
    std::vector<std::string> levels;
    std::string profile;
  };
  const std::vector<Row> rows{
      {"region, zone, hostname", {kRegion, kZone, kHostname}, "fnv64-570aeab478df5111"},
      {"zone, region, hostname (order is part of the identity)", {kZone, kRegion, kHostname},
       "fnv64-3272e73c40a2bf81"},
      {"zone, hostname", {kZone, kHostname}, "fnv64-f7b1861ac0399767"},
      {"hostname only", {kHostname}, "fnv64-87bf574bea2a4f23"},
  };
  for (const auto& row : rows) {
    SECTION(row.name) {
      const auto profile = m::topology_profile(row.levels);
      CHECK(profile == row.profile);
      CHECK(m::topology_name(profile) == "gpustack-" + row.profile);
      CHECK(std::regex_match(profile, std::regex("^fnv64-[0-9a-f]{16}$")));
      CHECK(m::topology_profile(row.levels) == profile);  // stable
    }
  }
}

TEST_CASE("the levels are joined by NUL, not run together", "[node_keys][issue17]") {
  // SumByFNV64a(region, zone, hostname) feeds the three strings back to back with no separator;
  // the profile does not, so the two differ.
  CHECK(m::sum_by_fnv64a({kRegion, kZone, kHostname}) == "74ca3c1f10f31bb9");
  CHECK(m::topology_profile({kRegion, kZone, kHostname}) != "fnv64-74ca3c1f10f31bb9");
  CHECK(m::sum_by_fnv64a(kRegion + std::string(1, '\0') + kZone + std::string(1, '\0') + kHostname) ==
        "570aeab478df5111");
}
