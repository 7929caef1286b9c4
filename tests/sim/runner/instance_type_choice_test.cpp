#include <catch2/catch.hpp>

#include "sim/runner/workload_factory.h"

using namespace chaintwin;

namespace {

model::InstanceType accelerated(const std::string& name, const std::string& group, const std::string& product,
                                const std::string& manufacturer = "") {
  model::InstanceType it;
  it.metadata.name = name;
  it.spec.acceleratable = true;
  it.spec.accelerator_group = group;
  it.spec.descriptors.product = product;
  it.spec.descriptors.manufacturer = manufacturer;
  return it;
}

}  // namespace

TEST_CASE("an accelerator selector names an InstanceType by group, product or manufacturer and group, in any case",
          "[workload-factory]") {
  model::ClusterState cluster;
  for (auto it : {accelerated("a-type", "h100-80gb-hbm3", "NVIDIA H100 80GB HBM3", "nvidia"),
                  accelerated("b-type", "nvidia-l40s", "NVIDIA L40S"),  // manufacturer from the group
                  accelerated("c-type", "910b", "Ascend 910B", "huawei")})
    cluster.instance_types[it.metadata.name] = it;
  model::InstanceType cpu;
  cpu.metadata.name = "cpu-type";
  cluster.instance_types["cpu-type"] = cpu;
  struct Row {
    std::string selector;
    std::string want;
  };
  const std::vector<Row> rows = {
      {"h100-80gb-hbm3", "a-type"},          // the group as written
      {"H100-80GB-HBM3", "a-type"},          // the group in capitals
      {"nvidia h100 80gb hbm3", "a-type"},   // the product, lowered
      {"nvidia-h100-80gb-hbm3", "a-type"},   // manufacturer and group
      {"NVIDIA-H100-80GB-HBM3", "a-type"},   // the same in capitals
      {"nvidia-l40s", "b-type"},             // the group (the manufacturer is its first part)
      {"nvidia-nvidia-l40s", "b-type"},      // manufacturer and group
      {"huawei-910b", "c-type"},
      {"huawei910b", ""},                    // no dash between them
      {"huawei-910", ""},                    // a shorter group
      {"nvidia-h100-80gb-hbm", ""},          // a shorter tail
      {"amd-h100-80gb-hbm3", ""},            // another manufacturer
  };
  for (const auto& row : rows) {
    INFO(row.selector);
    sim::InstanceTypeSelector selector;
    selector.accelerator = row.selector;
    CHECK(sim::choose_instance_type(cluster, selector, true) == row.want);
  }
}
