#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/api/instance_type_codec.h"
#include "model/stage4/cpu_detail_note.h"

namespace model = chaintwin::model;
using nlohmann::json;

namespace {

model::InstanceType h100_type() {
  model::InstanceType it;
  it.metadata.name = "gpustack--nvidia-h100-80gb-hbm3-linux-amd64";
  it.metadata.labels = {{"schedule.gpustack.ai/derived-from-node", "true"},
                        {"schedule.gpustack.ai/queue-entrance", "gpustack-fnv64-0123456789abcdef"}};
  it.metadata.finalizers = {"gpustack.ai/controlled"};
  auto& s = it.spec;
  s.display_name = "NVIDIA H100 80GB HBM3";
  s.description = "training pool";
  s.acceleratable = true;
  s.accelerator_group = "nvidia-h100-80gb-hbm3";
  s.general_group = "generic";
  s.os = "linux";
  s.arch = "amd64";
  s.descriptors = {"nvidia", "NVIDIA H100 80GB HBM3", "hopper", "80Gi", "16896"};
  s.unit_resources = {"12", "128Gi"};
  s.local_storage = "100Gi";
  auto& st = it.status;
  st.phase = "Active";
  st.phase_message = "";
  st.entrance = "gpustack-fnv64-0123456789abcdef";
  st.accelerator = {8, 8, 6};
  st.accelerator_shared = {80, 80, 60};
  st.accelerator_sliced = {1000, 100, 800};
  st.accelerator_partitioned.view = {14, 7, 5};
  st.accelerator_partitioned.remaining_profiles = {{"1g.10gb", 5}, {"7g.80gb", 0}};
  st.accelerator_partitioned.allocated_profiles = {{"3g.40gb", 1}};
  st.cpu = {96, 12, 84};
  st.detail.manufacturer = "nvidia";
  st.detail.product = "NVIDIA H100 80GB HBM3";
  st.detail.family = "hopper";
  st.detail.memory = "81559Mi";
  st.detail.cores = "16896";
  st.detail.compute_capability = "9.0";
  st.detail.sliced_detail.logical = {true, 128};
  st.detail.sliced_detail.physical.count = 7;
  st.detail.sliced_detail.physical.profiles = {{"1g.10gb", 7, 9856}};
  st.detail.cpu = R"({"manufacturer":"intel","product":"Xeon 8480+"})";
  return it;
}

}  // namespace

TEST_CASE("an instance type round-trips spec, the five views, profiles and detail", "[instance_type_codec]") {
  const auto it = h100_type();
  const json j = model::encode_instance_type(it);
  CHECK(j.at("apiVersion") == "worker.gpustack.ai/v1");
  CHECK(j.at("kind") == "InstanceType");
  const json& spec = j.at("spec");
  CHECK(spec.at("acceleratable") == true);
  CHECK(spec.at("acceleratorGroup") == "nvidia-h100-80gb-hbm3");
  CHECK(spec.at("unitResources") == json::parse(R"({"cpu": "12", "ram": "128Gi"})"));
  CHECK(spec.at("localStorage") == "100Gi");
  CHECK(spec.at("memory") == "80Gi");
  CHECK_FALSE(spec.contains("inactive"));
  const json& status = j.at("status");
  CHECK(status.at("acceleratorSliced") ==
        json::parse(R"({"capacity": "1k", "onceMaxRequest": "100", "remaining": "800"})"));
  CHECK(status.at("acceleratorPartitioned").at("remainingProfiles") ==
        json::parse(R"([{"name": "1g.10gb", "count": 5}, {"name": "7g.80gb", "count": 0}])"));
  CHECK(status.at("acceleratorPartitioned").at("capacity") == "14");
  CHECK(status.at("detail").at("cpu") == json::parse(R"({"manufacturer": "intel", "product": "Xeon 8480+"})"));
  CHECK(status.at("detail").at("slicedDetail").at("logical").at("count") == 128);
  CHECK_FALSE(status.contains("phaseMessage"));
  CHECK_FALSE(status.contains("conditions"));
  const auto back = model::decode_instance_type(j);
  REQUIRE(back.ok());
  CHECK(*back == it);
}

TEST_CASE("a bare CPU instance type still writes the required spec fields and zero views", "[instance_type_codec]") {
  model::InstanceType it;
  it.metadata.name = "gpustack--generic-linux-amd64";
  it.spec.inactive = true;
  it.status.phase = "Inactive";
  it.status.phase_message = "instance type is terminating";
  it.status.conditions = {{"Ready", "False", "Terminating", "", 0}};
  const json j = model::encode_instance_type(it);
  CHECK(j.at("spec") == json::parse(R"({"acceleratable": false, "os": "", "arch": "", "unitResources": {},
                                        "localStorage": "", "inactive": true})"));
  CHECK(j.at("status").at("cpu") == json::parse(R"({"capacity": "0", "onceMaxRequest": "0", "remaining": "0"})"));
  CHECK(j.at("status").at("phaseMessage") == "instance type is terminating");
  CHECK_FALSE(j.at("status").contains("detail"));
  CHECK(j.at("status").contains("conditions"));
  CHECK(*model::decode_instance_type(j) == it);
}

TEST_CASE("instance type views read any whole quantity and v1alpha1 documents", "[instance_type_codec]") {
  const auto it = model::decode_instance_type(json::parse(
      R"({"apiVersion": "worker.gpustack.ai/v1alpha1", "kind": "InstanceType",
          "status": {"accelerator": {"capacity": 4, "remaining": "2"}, "acceleratorSliced": {"capacity": "1.6k"}}})"));
  REQUIRE(it.ok());
  CHECK(it->status.accelerator.capacity == 4);
  CHECK(it->status.accelerator.remaining == 2);
  CHECK(it->status.accelerator.once_max_request == 0);
  CHECK(it->status.accelerator_sliced.capacity == 1600);
}

TEST_CASE("a bad instance type field is refused with its JSON path", "[instance_type_codec]") {
  struct Row {
    const char* document;
    std::string message;
  };
  const Row rows[] = {
      {R"({"spec": {"acceleratable": "true"}})", R"(spec.acceleratable: expected a boolean, got "true")"},
      {R"({"spec": {"unitResources": {"cpu": 8}}})", "spec.unitResources.cpu: expected a string, got 8"},
      {R"({"status": {"cpu": {"capacity": "1500m"}}})", R"(status.cpu.capacity: expected a whole number, got "1500m")"},
      {R"({"status": {"accelerator": {"remaining": "-1"}}})", R"(status.accelerator.remaining: must not be negative, got "-1")"},
      {R"({"status": {"acceleratorShared": {"onceMaxRequest": "lots"}}})",
       "status.acceleratorShared.onceMaxRequest: " + model::Quantity::parse("lots").error()},
      {R"({"status": {"acceleratorPartitioned": {"remainingProfiles": [{"name": "1g.10gb", "count": 1}, {"name": "1g.10gb", "count": 2}]}}})",
       R"(status.acceleratorPartitioned.remainingProfiles[1].name: duplicate profile "1g.10gb")"},
      {R"({"status": {"acceleratorPartitioned": {"allocatedProfiles": [{"count": 1}]}}})",
       "status.acceleratorPartitioned.allocatedProfiles[0].name: must not be empty"},
      {R"({"status": {"detail": {"cpu": "intel"}}})", R"(status.detail.cpu: expected an object, got "intel")"},
      {R"({"status": {"detail": {"slicedDetail": {"logical": {"count": "x"}}}}})",
       R"(status.detail.slicedDetail.logical.count: expected an integer, got "x")"},
      {R"({"kind": "InstanceTypeFlavor"})", R"(kind: expected "InstanceType", got "InstanceTypeFlavor")"},
  };
  for (const auto& r : rows) {
    INFO(r.document);
    const auto decoded = model::decode_instance_type(json::parse(r.document));
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error() == r.message);
  }
}

TEST_CASE("an instance type flavor round-trips the catalog fields", "[instance_type_codec]") {
  model::InstanceTypeFlavor f;
  f.metadata.name = "gpustack--nvidia-a10g";
  f.spec = {true, "nvidia-a10g", "", "nvidia", "NVIDIA A10G", "ampere", "24576Mi", "9216", true};
  const json j = model::encode_instance_type_flavor(f);
  CHECK(j.at("kind") == "InstanceTypeFlavor");
  CHECK(j.at("spec") == json::parse(R"({"acceleratable": true, "acceleratorGroup": "nvidia-a10g", "manufacturer": "nvidia",
                                        "product": "NVIDIA A10G", "family": "ampere", "memory": "24576Mi",
                                        "cores": "9216", "sliceable": true})"));
  CHECK(*model::decode_instance_type_flavor(j) == f);
  model::InstanceTypeFlavor generic;
  generic.metadata.name = "gpustack--generic";
  generic.spec.general_group = "generic";
  generic.spec.manufacturer = "generic";
  const json g = model::encode_instance_type_flavor(generic);
  CHECK(g.at("spec") == json::parse(R"({"acceleratable": false, "generalGroup": "generic", "manufacturer": "generic"})"));
  CHECK(*model::decode_instance_type_flavor(g) == generic);
  const auto bad = model::decode_instance_type_flavor(json::parse(R"({"spec": {"sliceable": 1}})"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == "spec.sliceable: expected a boolean, got 1");
}

TEST_CASE("a cpuDetail read back from the API is the note's own text, in Go's field order", "[codec][instancetype]") {
  using chaintwin::model::CpuDetail;
  CpuDetail cpu;
  cpu.manufacturer = "intel";
  cpu.product = "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz";
  cpu.family = "6";
  cpu.physical_cores = "8";
  cpu.cache_l2 = "1MiB";
  for (const bool acceleratable : {true, false}) {
    INFO(acceleratable);
    chaintwin::model::InstanceType it;
    it.metadata.name = "t";
    it.status.detail.cpu = chaintwin::model::cpu_detail_note(cpu, acceleratable);
    const auto back = chaintwin::model::decode_instance_type(chaintwin::model::encode_instance_type(it));
    REQUIRE(back.ok());
    CHECK(back->status.detail.cpu == it.status.detail.cpu);
  }
  // Something that is not a note keeps its compact JSON text.
  chaintwin::model::InstanceType other;
  other.metadata.name = "o";
  other.status.detail.cpu = R"({"vendor":"x"})";
  const auto back = chaintwin::model::decode_instance_type(chaintwin::model::encode_instance_type(other));
  REQUIRE(back.ok());
  CHECK(back->status.detail.cpu == R"({"vendor":"x"})");
}
