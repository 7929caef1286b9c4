#include <catch2/catch.hpp>

#include "model/admission/instance_general_resources.h"

using namespace chaintwin::model;

namespace {
InstanceType accelerated(const char* cpu, const char* ram) {
  InstanceType it;
  it.metadata.name = "t4";
  it.spec.acceleratable = true;
  it.spec.unit_resources = {cpu, ram};
  return it;
}
}  // namespace

TEST_CASE("an Instance Pod's limits are the unit preset times its cards and its requests are scaled by overcommit",
          "[instance_general_resources]") {
  struct Row {
    const char* unit_cpu;
    const char* unit_ram;
    InstanceAcceleratorHold hold;
    bool overcommit;
    const char *cpu_limit, *memory_limit, *cpu_request, *memory_request;
  };
  const Row rows[] = {
      // T4 small tier 8/32Gi, 2 cards: 16 cores → 1600m; 64Gi → 64 × 128Mi = 8Gi
      {"8", "32Gi", {2, 0}, true, "16", "64Gi", "1600m", "8Gi"},
      // 0 cards sized as 1
      {"8", "32Gi", {0, 0}, true, "8", "32Gi", "800m", "4Gi"},
      // H100 xlarge 12/192Gi, 1 card: 1200m / 24Gi (the unit-resources doc's example)
      {"12", "192Gi", {1, 0}, true, "12", "192Gi", "1200m", "24Gi"},
      // a 25% slice of a 8/32Gi card: 2 cores / 8Gi → 200m / 1Gi
      {"8", "32Gi", {1, 25}, true, "2", "8Gi", "200m", "1Gi"},
      // a 10% slice: 800m limit rounds up to 1 core → 100m; 3.2Gi floors to 3 Gi → 384Mi
      {"8", "32Gi", {1, 10}, true, "800m", "3435973837", "100m", "384Mi"},
      // overcommit off: requests = limits
      {"8", "32Gi", {2, 0}, false, "16", "64Gi", "16", "64Gi"},
  };
  for (const auto& row : rows) {
    CAPTURE(row.unit_cpu, row.hold.cards, row.hold.sliced_memory_percentage, row.overcommit);
    const auto got = instance_general_resources(accelerated(row.unit_cpu, row.unit_ram), row.hold, row.overcommit);
    REQUIRE(got.ok());
    CHECK(got->cpu_limit.to_string() == row.cpu_limit);
    CHECK(got->memory_limit.to_string() == row.memory_limit);
    CHECK(got->cpu_request.to_string() == row.cpu_request);
    CHECK(got->memory_request.to_string() == row.memory_request);
  }
}

TEST_CASE("a general type's CPU request is 800m per core and RAM under 1Gi requests nothing", "[instance_general_resources]") {
  CHECK(overcommit_cpu_request(*Quantity::parse("2"), false).to_string() == "1600m");
  CHECK(overcommit_cpu_request(*Quantity::parse("1500m"), true).to_string() == "200m");
  CHECK(overcommit_memory_request(*Quantity::parse("1536Mi")).to_string() == "128Mi");
  CHECK(overcommit_memory_request(*Quantity::parse("512Mi")).to_string() == "0");
}

TEST_CASE("a non-accelerated type or a bad unit spec is refused naming it", "[instance_general_resources]") {
  InstanceType general = accelerated("1", "2Gi");
  general.spec.acceleratable = false;
  CHECK(instance_general_resources(general, {}, true).error() ==
        "InstanceType 't4' is not acceleratable: its Pods are sized by their own CPU");
  const auto bad = instance_general_resources(accelerated("x", "2Gi"), {}, true);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().rfind("spec.unitResources.cpu: invalid CPU unit of instance type t4", 0) == 0);
}
