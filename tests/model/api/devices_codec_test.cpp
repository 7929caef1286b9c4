#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "model/api/devices_codec.h"

namespace model = chaintwin::model;
using nlohmann::json;

namespace {

// node-h100: one H100 in MIG mode holding a 3g.40gb, one sliced logically with two slices out.
model::Devices h100_node() {
  model::Devices d;
  d.metadata.name = "node-h100";
  d.metadata.uid = "6c1f0a4e-3f1d-4d59-9d36-3e0c8d1c2b10";
  d.metadata.resource_version = "48213";
  d.metadata.creation_timestamp = "2026-09-25T08:00:00Z";
  d.metadata.labels = {{"gpustack.ai/managed", "true"}, {"acceleratable.feature.gpustack.ai/nvidia-h100-80gb-hbm3", "true"}};
  d.metadata.owner_references = {{"v1", "Node", "node-h100", "0b6f4c1e-5d2a-4f7e-8a11-2f3c4d5e6f70", true}};

  model::AcceleratorPhysicalSliced mig;
  mig.profiles = {{"1g.10gb", 9856, 1, 1, 7, {{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}}},
                  {"3g.40gb", 40192, 3, 4, 2, {{0, 4}, {4, 4}}},
                  {"7g.80gb", 80768, 7, 8, 1, {{0, 8}}}};
  mig.count = 7;

  model::DevicesGroup g;
  g.id = "h100-80gb-hbm3";
  g.manufacturer = "nvidia";
  g.name = "NVIDIA H100 80GB HBM3";
  g.memory = 81559;
  g.cores = 16896;
  g.driver_version = "570.124.06";
  g.runtime_version = "12.8";
  g.compute_capability = "9.0";
  g.family = "hopper";
  model::Accelerator a0;
  a0.id = "GPU-e0587d2e-6b7d-1c43-7c3e-2a8f0b9d4c11";
  a0.index = 0;
  a0.physical_indexes = {0};
  a0.topology_json = R"({"cpuAffinity":"0-47","numaAffinity":"0","pciBusId":"0000:18:00.0","pciClass":"0x030200","pciRootId":"0000:16:01.0"})";
  a0.status.physical_sliced = mig;
  model::Accelerator a1;
  a1.id = "GPU-7a31c0d2-0e55-4f3b-9c1d-5b2e8f6a7d22";
  a1.index = 1;
  a1.physical_indexes = {1};
  a1.status.logical_sliced = {true, 128};
  g.accelerators = {a0, a1};
  g.accelerator_sliced_detail.logical = {true, 128};
  g.accelerator_sliced_detail.physical.profiles = {{"1g.10gb", 7, 9856}, {"3g.40gb", 2, 40192}, {"7g.80gb", 1, 80768}};
  g.accelerator_sliced_detail.physical.count = 7;
  d.spec.groups = {g};
  d.spec.interfaces_json = R"([{"name":"ib0","rdma":true,"up":true}])";

  model::AcceleratorAllocation l0;
  l0.id = a0.id;
  l0.index = 0;
  l0.mode = model::DeviceAllocationMode::kPartitioned;
  l0.allocated = 685714;
  l0.remaining = 914286;
  l0.allocated_profiles = {{"3g.40gb", 1}};
  l0.remaining_profiles = {{"1g.10gb", 4}, {"3g.40gb", 1}, {"7g.80gb", 0}};
  model::AcceleratorAllocation l1;
  l1.id = a1.id;
  l1.index = 1;
  l1.mode = model::DeviceAllocationMode::kSliced;
  l1.allocated = 320000;
  l1.remaining = 1280000;
  l1.allocated_slices = 2;
  d.status.groups = {{"h100-80gb-hbm3", "nvidia", {l0, l1}}};
  return d;
}

json types_table() {
  std::ifstream file(std::string(CHAINTWIN_SOURCE_DIR) + "/tests/golden/cases/devices-schema.json");
  REQUIRE(file.good());
  return json::parse(file).at("types");
}

// Every JSON object at a dotted location; "name[]" walks each element of an array.
void collect(const json& at, const std::vector<std::string>& steps, std::size_t i, std::vector<const json*>& out) {
  if (i == steps.size()) {
    out.push_back(&at);
    return;
  }
  std::string step = steps[i];
  const bool each = step.size() > 2 && step.ends_with("[]");
  if (each) step.resize(step.size() - 2);
  if (!at.is_object() || !at.contains(step)) return;
  const json& next = at.at(step);
  if (!each) return collect(next, steps, i + 1, out);
  for (const auto& element : next) collect(element, steps, i + 1, out);
}

std::set<std::string> keys_at(const json& root, const std::vector<std::string>& locations) {
  std::set<std::string> keys;
  for (const auto& location : locations) {
    std::vector<std::string> steps;
    for (std::size_t start = 0; start <= location.size() && !location.empty();) {
      const auto dot = location.find('.', start);
      steps.push_back(location.substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    std::vector<const json*> objects;
    collect(root, steps, 0, objects);
    for (const json* o : objects)
      for (const auto& [key, value] : o->items()) keys.insert(key);
  }
  return keys;
}

const std::map<std::string, std::vector<std::string>> kWhere = {
    {"Devices", {""}},
    {"DevicesSpec", {"spec"}},
    {"DevicesStatus", {"status"}},
    {"DevicesGroup", {"spec.groups[]"}},
    {"Accelerator", {"spec.groups[].accelerators[]"}},
    {"AcceleratorStatus", {"spec.groups[].accelerators[].status"}},
    {"AcceleratorLogicalSliced", {"spec.groups[].accelerators[].status.logicalSliced"}},
    {"AcceleratorPhysicalSliced", {"spec.groups[].accelerators[].status.physicalSliced"}},
    {"AcceleratorPhysicalSlicedProfile", {"spec.groups[].accelerators[].status.physicalSliced.profiles[]"}},
    {"AcceleratorPlacement", {"spec.groups[].accelerators[].status.physicalSliced.profiles[].placements[]"}},
    {"AcceleratorSlicedDetail", {"spec.groups[].acceleratorSlicedDetail"}},
    {"AcceleratorSlicedLogicalDetail", {"spec.groups[].acceleratorSlicedDetail.logical"}},
    {"AcceleratorSlicedPhysicalDetail", {"spec.groups[].acceleratorSlicedDetail.physical"}},
    {"AcceleratorSlicedPhysicalDetailProfile", {"spec.groups[].acceleratorSlicedDetail.physical.profiles[]"}},
    {"DevicesAllocationGroup", {"status.groups[]"}},
    {"AcceleratorAllocation (the per-accelerator ledger)", {"status.groups[].accelerators[]"}},
    {"AcceleratorProfileCount",
     {"status.groups[].accelerators[].allocatedProfiles[]", "status.groups[].accelerators[].remainingProfiles[]"}},
    {"DeviceTopology", {"spec.groups[].accelerators[].topology"}},
    {"DeviceFabric", {"spec.groups[].accelerators[].topology.fabric"}},
    {"DeviceEthernet", {"spec.groups[].accelerators[].topology.roce"}},
    {"DeviceInterface", {"spec.interfaces[]"}},
    {"DeviceInterfaceVirtualFunction", {"spec.interfaces[].virtualFunctions[]"}},
    {"DeviceInterfaceLink", {"spec.interfaces[].link", "spec.interfaces[].virtualFunctions[].link"}},
};

// A Devices document that sets every field of the type table to a non-zero value.
json every_field_document() {
  return json::parse(R"({
    "apiVersion": "worker.gpustack.ai/v1", "kind": "Devices",
    "metadata": {"name": "node-x"},
    "spec": {
      "groups": [{
        "id": "h100", "manufacturer": "nvidia", "name": "NVIDIA H100", "memory": 81559, "cores": 16896,
        "driverVersion": "570.124", "runtimeVersion": "12.8", "computeCapability": "9.0", "family": "hopper",
        "accelerators": [{
          "id": "GPU-0", "index": 3, "physicalIndexes": [3],
          "topology": {"pciBusId": "0000:18:00.0", "pciRootId": "0000:16:01.0", "pciClass": "0x0302",
                       "numaAffinity": "0", "cpuAffinity": "0-47",
                       "roce": {"ip": "10.0.0.2", "subnetMask": "255.255.255.0", "gateway": "10.0.0.1"},
                       "pciSwitches": ["0000:17:00.0"],
                       "fabric": {"kind": "nvlink", "id": "f1", "type": "server-8p", "cliqueId": "c1",
                                  "memberCount": 8, "nodeIndex": "1", "rackId": "r1", "endpoints": ["e1"]}},
          "status": {"unhealthy": true,
                     "logicalSliced": {"coresPercentageOvercommit": true, "count": 128},
                     "physicalSliced": {"profiles": [{"name": "1g.10gb", "memoryMib": 9856, "computeSlices": 1,
                                                      "memorySlices": 1, "count": 7,
                                                      "placements": [{"start": 2, "length": 1}]}],
                                        "count": 7}}}],
        "acceleratorSlicedDetail": {
          "logical": {"coresPercentageOvercommit": true, "count": 128},
          "physical": {"profiles": [{"name": "1g.10gb", "count": 7, "memoryMib": 9856}], "count": 7}}}],
      "interfaces": [{
        "name": "ib0", "bus": "pci", "pciBusId": "0000:5e:00.0", "pciRootId": "0000:5d:00.0", "pciSwitches": ["s"],
        "pciVendor": "15b3", "pciDevice": "101b", "numaAffinity": "0", "cpuAffinity": "0-47", "mtu": 4092,
        "up": true, "virtual": true, "rdma": true, "rdmaDevice": "mlx5_0", "sriov": true,
        "virtualFunctions": [{"name": "ib0v0", "pciBusId": "0000:5e:00.1", "numaAffinity": "0", "cpuAffinity": "0-47",
                              "mtu": 4092, "up": true, "rdma": true, "rdmaDevice": "mlx5_1",
                              "link": {"state": "ok", "reason": "r", "firstSeenTime": "2026-09-25T08:00:00Z"}}],
        "link": {"state": "failed", "reason": "no carrier", "firstSeenTime": "2026-09-25T08:00:00Z"}}]},
    "status": {"groups": [{
      "id": "h100", "manufacturer": "nvidia",
      "accelerators": [{"id": "GPU-0", "index": 3, "mode": 4, "allocated": 1, "remaining": 1599999,
                        "allocatedSlices": 1,
                        "allocatedProfiles": [{"name": "1g.10gb", "count": 1}],
                        "remainingProfiles": [{"name": "1g.10gb", "count": 6}],
                        "allocatedPhysicalProfile": "1g.10gb",
                        "allocatedPhysicalPlacements": [{"start": 2, "length": 1}],
                        "allocatedLogicalPlacements": [{"start": 0, "length": 4}],
                        "allocatedPhysicalID": "MIG-0"}]}]}})");
}

}  // namespace

TEST_CASE("an H100 node's Devices (MIG and logical slicing) survives a JSON round trip", "[devices_codec]") {
  const auto devices = h100_node();
  const json encoded = model::encode_devices(devices);
  CHECK(encoded.at("apiVersion") == "worker.gpustack.ai/v1");
  CHECK(encoded.at("kind") == "Devices");
  CHECK(encoded.at("status").at("groups")[0].at("accelerators")[0].at("mode") == 4);
  CHECK(encoded.at("status").at("groups")[0].at("accelerators")[1].at("mode") == 3);
  CHECK(encoded.at("spec").at("interfaces")[0].at("name") == "ib0");
  const auto decoded = model::decode_devices(encoded);
  REQUIRE(decoded.ok());
  CHECK(*decoded == devices);
  // And through text, as kubectl would hand it over.
  const auto reparsed = model::decode_devices(json::parse(encoded.dump(2)));
  REQUIRE(reparsed.ok());
  CHECK(*reparsed == devices);
}

TEST_CASE("a ledger mode reads from its number or its name, and an undefined number is refused", "[devices_codec]") {
  struct Row {
    json mode;
    model::DeviceAllocationMode want;
  };
  const Row rows[] = {{1, model::DeviceAllocationMode::kExclusive},
                      {"Shared", model::DeviceAllocationMode::kShared},
                      {"4", model::DeviceAllocationMode::kPartitioned},
                      {nullptr, model::DeviceAllocationMode::kNone}};
  for (const auto& r : rows) {
    INFO(r.mode.dump());
    const auto a = model::decode_accelerator_allocation({{"id", "GPU-0"}, {"index", 0}, {"mode", r.mode}});
    REQUIRE(a.ok());
    CHECK(a->mode == r.want);
  }
  // The operator's modes end at 5 (Visibility); no ledger it writes holds another number.
  const auto undefined = model::decode_accelerator_allocation({{"id", "GPU-0"}, {"index", 0}, {"mode", 42}});
  REQUIRE_FALSE(undefined.ok());
  CHECK_THAT(undefined.error(), Catch::Contains("mode: expected an integer within [0, 5], got 42"));
}

TEST_CASE("a bad Devices field is refused with its JSON path", "[devices_codec]") {
  struct Row {
    const char* pointer;
    const char* value;
    const char* message;
  };
  const Row rows[] = {
      {"/spec/groups/0/accelerators/1/status/logicalSliced/count", R"("x")",
       R"(spec.groups[0].accelerators[1].status.logicalSliced.count: expected an integer, got "x")"},
      {"/spec/groups/0/accelerators/1/status/logicalSliced/count", "-3",
       "spec.groups[0].accelerators[1].status.logicalSliced.count: must not be negative, got -3"},
      {"/spec/groups/0/accelerators/0/status/physicalSliced/profiles/1/placements/0/start", "1.5",
       "spec.groups[0].accelerators[0].status.physicalSliced.profiles[1].placements[0].start: expected an integer, got 1.5"},
      {"/spec/groups/0/accelerators/0/index", "4294967296",
       "spec.groups[0].accelerators[0].index: expected an integer within uint32, got 4294967296"},
      {"/spec/groups/0/accelerators/0/status/physicalSliced/count", "2147483648",
       "spec.groups[0].accelerators[0].status.physicalSliced.count: expected an integer within int32, got 2147483648"},
      {"/spec/groups/0/memory", "-1", "spec.groups[0].memory: must not be negative, got -1"},
      {"/spec/groups/0/name", "7", "spec.groups[0].name: expected a string, got 7"},
      {"/spec/groups/0/accelerators/0/status/unhealthy", R"("no")",
       R"(spec.groups[0].accelerators[0].status.unhealthy: expected a boolean, got "no")"},
      {"/spec/groups/0/acceleratorSlicedDetail/physical/profiles/2/count", "-1",
       "spec.groups[0].acceleratorSlicedDetail.physical.profiles[2].count: must not be negative, got -1"},
      {"/spec/groups/0/accelerators/0/topology", "[]", "spec.groups[0].accelerators[0].topology: expected an object, got []"},
      {"/spec/groups", "{}", "spec.groups: expected an array, got {}"},
      {"/spec/interfaces", R"("ib0")", R"(spec.interfaces: expected an array, got "ib0")"},
      {"/status/groups/0/accelerators/0/mode", R"("Bogus")",
       R"(status.groups[0].accelerators[0].mode: expected an allocation mode (a number, or one of None, Exclusive, Shared, Sliced, Partitioned, Visibility), got "Bogus")"},
      {"/status/groups/0/accelerators/1/mode", "-1", "status.groups[0].accelerators[1].mode: must not be negative, got -1"},
      {"/status/groups/0/accelerators/0/remainingProfiles/2/count", "-2",
       "status.groups[0].accelerators[0].remainingProfiles[2].count: must not be negative, got -2"},
      {"/status/groups/0/accelerators/1/allocatedSlices", "-1",
       "status.groups[0].accelerators[1].allocatedSlices: must not be negative, got -1"},
      {"/metadata/labels/gpustack.ai~1managed", "true", R"(metadata.labels["gpustack.ai/managed"]: expected a string, got true)"},
      {"/metadata/ownerReferences/0/controller", R"("yes")", R"(metadata.ownerReferences[0].controller: expected a boolean, got "yes")"},
      {"/kind", R"("Node")", R"(kind: expected "Devices", got "Node")"},
      {"/apiVersion", R"("v1")", R"(apiVersion: expected "worker.gpustack.ai/v1" or "worker.gpustack.ai/v1alpha1", got "v1")"},
  };
  for (const auto& r : rows) {
    INFO(r.pointer << " = " << r.value);
    json doc = model::encode_devices(h100_node());
    doc[json::json_pointer(r.pointer)] = json::parse(r.value);
    const auto decoded = model::decode_devices(doc);
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error() == r.message);
  }
  CHECK(model::decode_devices(json::array()).error() == "expected an object, got []");
}

TEST_CASE("every field of the Devices type table round-trips through the codec", "[devices_codec]") {
  const json types = types_table();
  const std::set<std::string> transport_only = {"allocatedPhysicalProfile", "allocatedPhysicalPlacements",
                                                "allocatedLogicalPlacements", "allocatedPhysicalID"};
  const json input = every_field_document();
  const auto decoded = model::decode_devices(input);
  REQUIRE(decoded.ok());
  const json output = model::encode_devices(*decoded);
  CHECK(model::decode_devices(output).ok());

  for (const auto& [type, value] : types.items()) {
    INFO("type " << type);
    REQUIRE(kWhere.count(type) == 1);  // a type added to the table needs a location here
    std::set<std::string> fields;
    for (const auto& f : (value.is_object() ? value.at("fields") : value)) fields.insert(f.at("json").get<std::string>());
    const auto& where = kWhere.at(type);
    // The sample sets every field, so the check below cannot pass vacuously.
    auto in_keys = keys_at(input, where);
    if (type == "Devices") in_keys.erase("apiVersion"), in_keys.erase("kind");
    CHECK(in_keys == fields);
    // What the codec writes back: every field, nothing else, transport-only ones dropped.
    std::set<std::string> want;
    for (const auto& f : fields)
      if (!transport_only.count(f)) want.insert(f);
    auto out_keys = keys_at(output, where);
    if (type == "Devices") out_keys.erase("apiVersion"), out_keys.erase("kind");
    CHECK(out_keys == want);
  }
  // Verbatim parts come back value for value.
  CHECK(output.at("spec").at("interfaces") == input.at("spec").at("interfaces"));
  CHECK(output.at("spec").at("groups")[0].at("accelerators")[0].at("topology") ==
        input.at("spec").at("groups")[0].at("accelerators")[0].at("topology"));
}
