#include <catch2/catch.hpp>

#include "sim/runner/workload_factory.h"

using namespace chaintwin;
using sim::RequestShape;

namespace {
model::InstanceType t4(bool acceleratable = true) {
  model::InstanceType it;
  it.metadata.name = "t4";
  it.spec.acceleratable = acceleratable;
  it.spec.unit_resources = {"8", "32Gi"};
  return it;
}
RequestShape shape(RequestShape::Kind kind) {
  RequestShape s;
  s.kind = kind;
  return s;
}
}  // namespace

TEST_CASE("an Instance Pod gets the preset's requests only when its PodSet gives no cpu or memory", "[instance_pod_shape]") {
  struct Row {
    const char* what;
    RequestShape in;
    model::InstanceType it;
    bool overcommit;
    const char *cpu, *memory;  // "" = none
  };
  RequestShape exclusive2 = shape(RequestShape::Kind::kExclusive);
  exclusive2.cards = 2;
  RequestShape explicit_cpu = exclusive2;
  explicit_cpu.cpu = model::Quantity::from_int(3);
  RequestShape cores_only = shape(RequestShape::Kind::kSliced);
  cores_only.cores_percentage = 50;
  RequestShape mib_only = shape(RequestShape::Kind::kSliced);
  mib_only.memory_mib = 4096;
  RequestShape partitioned = shape(RequestShape::Kind::kPartitioned);
  partitioned.profile = "1g.10gb";
  const Row rows[] = {
      {"two whole cards, overcommit on", exclusive2, t4(), true, "1600m", "8Gi"},
      {"two whole cards, overcommit off", exclusive2, t4(), false, "16", "64Gi"},
      {"an explicit cpu is kept", explicit_cpu, t4(), true, "3", ""},
      {"a slice given only its compute share", cores_only, t4(), true, "400m", "2Gi"},
      {"a memoryMib-only slice is left alone", mib_only, t4(), true, "", ""},
      {"a partition is left alone", partitioned, t4(), true, "", ""},
      {"a non-accelerated type is left alone", exclusive2, t4(false), true, "", ""},
  };
  for (const auto& row : rows) {
    CAPTURE(row.what);
    const RequestShape got = sim::instance_pod_shape(row.in, row.it, row.overcommit);
    CHECK((got.cpu.is_zero() ? std::string() : got.cpu.to_string()) == row.cpu);
    CHECK((got.memory.is_zero() ? std::string() : got.memory.to_string()) == row.memory);
  }
}
