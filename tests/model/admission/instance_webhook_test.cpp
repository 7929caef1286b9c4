#include <catch2/catch.hpp>

#include "model/admission/instance_webhook.h"

using namespace chaintwin::model;

namespace {

InstanceType h100_type(int64_t once_max_request) {
  InstanceType t;
  t.metadata.name = "h100";
  t.spec.acceleratable = true;
  t.spec.accelerator_group = "nvidia-h100-80gb-hbm3";
  t.spec.unit_resources = {"12", "192Gi"};
  t.status.accelerator = {4, once_max_request, once_max_request};
  return t;
}

InstanceType cpu_type() {
  InstanceType t;
  t.metadata.name = "generic";
  t.spec.unit_resources = {"1", "2Gi"};
  t.status.cpu = {32, 16, 32};
  return t;
}

Quantity q(const char* text) { return *Quantity::parse(text); }

InstanceResources cards(int64_t n, const char* cpu = "0", const char* ram = "0") {
  InstanceResources r;
  r.accelerator = n;
  r.cpu = q(cpu);
  r.ram = q(ram);
  return r;
}

}  // namespace

TEST_CASE("the Instance webhook refuses what the operator refuses and defaults the rest", "[admission][instance]") {
  const std::string pre = "Instance.worker.gpustack.ai \"run-0\" is invalid: ";
  InstanceResources slice;
  slice.accelerator = 1;
  slice.sliced_memory_percentage = 50;
  InstanceResources big_slice = slice;
  big_slice.ram = q("200Gi");
  InstanceResources two_slices = slice;
  two_slices.accelerator = 2;
  InstanceResources cpu20;
  cpu20.cpu = q("20");
  struct Row {
    const char* what;
    InstanceType type;
    InstanceResources given;
    bool overcommit;
    std::string message;  // "" = allowed
    const char* cpu;      // after defaulting
    const char* ram;
  };
  const std::vector<Row> rows{
      {"five cards on a type whose largest node offers four", h100_type(4), cards(5), true,
       pre + "spec.resources.accelerator: Invalid value: \"5\": exceeds the maximum accelerator request of instance type h100",
       "60", "960Gi"},
      {"four cards fit and take four units of CPU and RAM", h100_type(4), cards(4), true, "", "48", "768Gi"},
      {"a busy node lowers onceMaxRequest and the cap with it", h100_type(2), cards(3), true,
       pre + "spec.resources.accelerator: Invalid value: \"3\": exceeds the maximum accelerator request of instance type h100",
       "36", "576Gi"},
      {"overcommit overwrites an oversized RAM with the cap", h100_type(4), cards(2, "0", "512Gi"), true, "", "24", "384Gi"},
      {"without overcommit RAM above unit RAM x count is refused", h100_type(4), cards(2, "0", "512Gi"), false,
       pre + "spec.resources.ram: Invalid value: \"512Gi\": exceeds the maximum RAM 384Gi of instance type h100", "24",
       "512Gi"},
      {"without overcommit CPU and RAM above the preset cap are both named", h100_type(4), cards(1, "13", "193Gi"), false,
       pre + "[spec.resources.cpu: Invalid value: \"13\": exceeds the maximum CPU 12 of instance type h100, "
             "spec.resources.ram: Invalid value: \"193Gi\": exceeds the maximum RAM 192Gi of instance type h100]",
       "13", "193Gi"},
      {"a half slice is sized at half a unit", h100_type(0), slice, true, "", "6", "96Gi"},
      {"without overcommit a slice's RAM is capped at one unit", h100_type(0), big_slice, false,
       pre + "spec.resources.ram: Invalid value: \"200Gi\": exceeds the maximum RAM 192Gi of instance type h100", "6",
       "200Gi"},
      {"a slice of two accelerators is refused", h100_type(4), two_slices, true,
       pre + "spec.resources.accelerator: Invalid value: \"2\": accelerator request must be exactly 1 for a sliced request",
       "6", "96Gi"},
      {"a CPU type refuses more CPU than its largest node", cpu_type(), cpu20, true,
       pre + "spec.resources.cpu: Invalid value: \"20\": exceeds the maximum CPU request of instance type generic", "20",
       "40Gi"},
      {"a CPU type defaults one CPU and its unit RAM", cpu_type(), InstanceResources{}, true, "", "1", "2Gi"},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const auto got = admit_instance(row.type, row.given, "run-0", row.overcommit);
    CHECK(got.allowed == row.message.empty());
    CHECK(got.message == row.message);
    CHECK(got.resources.cpu.to_string() == row.cpu);
    CHECK(got.resources.ram.to_string() == row.ram);
  }
}
