// The InstanceTypeFlavor catalog computed from the ResourceFlavors (the docs' four-node cluster,
// operator-domain §9.2 steps 1 and 5).
#include <catch2/catch.hpp>

#include "model/stage4/instance_type_flavor.h"
#include "tests/model/stage4/instance_type_fixtures.h"

namespace {

using namespace chaintwin::test;
namespace m = chaintwin::model;

std::map<std::string, m::ResourceFlavor> four_node_flavors() {
  const DeviceNotes a10g{"nvidia", "NVIDIA A10G", "ampere", "24Gi", "10240"};
  const DeviceNotes t4{"nvidia", "Tesla T4", "turing", "16Gi", "2560"};
  std::map<std::string, m::ResourceFlavor> out;
  for (auto rf : {cpu_flavor("amd-epyc-7r13", 16, 1), cpu_flavor("amd-epyc-7r32", 4, 1),
                  cpu_flavor("intel-xeon-platinum-8259cl", 4, 1), cpu_flavor("intel-xeon-platinum-8259cl", 48, 1),
                  device_flavor("amd-epyc-7r32", "nvidia-a10g", 1, 1, a10g),
                  device_flavor("intel-xeon-platinum-8259cl", "nvidia-tesla-t4", 1, 1, t4),
                  device_flavor("intel-xeon-platinum-8259cl", "nvidia-tesla-t4", 4, 1, t4)})
    out[rf.metadata.name] = rf;
  return out;
}

std::vector<std::string> names(const std::vector<m::InstanceTypeFlavor>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.metadata.name);
  return out;
}

}  // namespace

TEST_CASE("unaware, seven flavors collapse to three catalog rows: generic, A10G, T4") {
  const auto rows = m::instance_type_flavor_catalog(four_node_flavors(), false);
  // Sorted by manufacturer, then product: "NVIDIA A10G" < "Tesla T4".
  CHECK(names(rows) == std::vector<std::string>{"gpustack--generic", "gpustack--nvidia-a10g", "gpustack--nvidia-tesla-t4"});
  const auto& a10g = rows[1].spec;
  CHECK(a10g.acceleratable);
  CHECK(a10g.accelerator_group == "nvidia-a10g");
  CHECK(a10g.general_group.empty());
  CHECK(a10g.memory == "24Gi");
  CHECK(a10g.cores == "10240");
  CHECK_FALSE(a10g.sliceable);  // the flavors carry no `sliceable` note
  CHECK(rows[0].spec == m::InstanceTypeFlavorSpec{false, "", "generic", "generic", "", "", "", "", false});
}

TEST_CASE("aware, the catalog regroups to five rows, one per CPU and per CPU-accelerator pair") {
  const auto rows = m::instance_type_flavor_catalog(four_node_flavors(), true);
  CHECK(names(rows) == std::vector<std::string>{"gpustack--amd-epyc-7r13", "gpustack--amd-epyc-7r32",
                                                "gpustack--intel-xeon-platinum-8259cl",
                                                "gpustack--amd-epyc-7r32--nvidia-a10g",
                                                "gpustack--intel-xeon-platinum-8259cl--nvidia-tesla-t4"});
  CHECK(rows[3].spec.general_group == "amd-epyc-7r32");
}

TEST_CASE("a flavor being deleted, a foreign flavor and a note-less flavor are not in the catalog") {
  auto flavors = four_node_flavors();
  for (auto& [name, rf] : flavors)
    if (name.find("nvidia-a10g") != std::string::npos) rf.metadata.deletion_timestamp = "t0";
  m::ResourceFlavor foreign;
  foreign.metadata.name = "default-flavor";
  flavors[foreign.metadata.name] = foreign;
  auto bare = cpu_flavor("arm-neoverse", 8, 1);
  bare.metadata.annotations.clear();
  bare.metadata.labels[std::string(k::kAcceleratable)] = "false";
  flavors[bare.metadata.name] = bare;
  CHECK(names(m::instance_type_flavor_catalog(flavors, true)) ==
        std::vector<std::string>{"gpustack--amd-epyc-7r13", "gpustack--amd-epyc-7r32",
                                 "gpustack--intel-xeon-platinum-8259cl",
                                 "gpustack--intel-xeon-platinum-8259cl--nvidia-tesla-t4"});
}

TEST_CASE("catalog rows sort memory as quantities: 8Gi before 16Gi") {
  std::map<std::string, m::ResourceFlavor> flavors;
  for (auto rf : {device_flavor("g", "nvidia-x16", 1, 1, {"nvidia", "X", "f", "16Gi", "1"}),
                  device_flavor("g", "nvidia-x8", 1, 1, {"nvidia", "X", "f", "8Gi", "1"})})
    flavors[rf.metadata.name] = rf;
  CHECK(names(m::instance_type_flavor_catalog(flavors, false)) ==
        std::vector<std::string>{"gpustack--nvidia-x8", "gpustack--nvidia-x16"});
}

TEST_CASE("a sliceable note is carried onto the accelerated row") {
  auto notes = m::StringMap{{"acceleratable", "true"}, {"acceleratorGroup", "nvidia-a10g"}, {"sliceable", "true"}};
  CHECK(m::instance_type_flavor_spec(notes, false).sliceable);
  notes["sliceable"] = "false";
  CHECK_FALSE(m::instance_type_flavor_spec(notes, false).sliceable);
}
