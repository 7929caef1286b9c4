// Devices JSON encoding and path-aware decoding.
#include "model/api/devices_codec.h"

#include <limits>

#include "model/api/codec_support.h"
#include "model/api/object_meta_codec.h"

namespace chaintwin::model {
namespace {

using codec::json;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kUint32Max = std::numeric_limits<uint32_t>::max();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// A JSON value the model keeps as text (topology, interfaces); text that does not parse is kept as
// a string rather than lost.
json verbatim(const std::string& text) {
  auto j = json::parse(text, nullptr, false);
  return j.is_discarded() ? json(text) : j;
}

// ---- encoding --------------------------------------------------------------------------------

json encode_logical(const AcceleratorLogicalSliced& l) {
  json j = json::object();
  if (l.cores_percentage_overcommit) j["coresPercentageOvercommit"] = true;
  if (l.count != 0) j["count"] = l.count;
  return j;
}

json encode_placements(const std::vector<AcceleratorPlacement>& placements) {
  json out = json::array();
  for (const auto& p : placements) out.push_back({{"start", p.start}, {"length", p.length}});
  return out;
}

json encode_physical(const AcceleratorPhysicalSliced& p) {
  json j = json::object();
  if (!p.profiles.empty()) {
    auto& profiles = j["profiles"] = json::array();
    for (const auto& pr : p.profiles) {
      json o{{"name", pr.name}};
      if (pr.memory_mib != 0) o["memoryMib"] = pr.memory_mib;
      if (pr.compute_slices != 0) o["computeSlices"] = pr.compute_slices;
      if (pr.memory_slices != 0) o["memorySlices"] = pr.memory_slices;
      if (pr.count != 0) o["count"] = pr.count;
      if (!pr.placements.empty()) o["placements"] = encode_placements(pr.placements);
      profiles.push_back(std::move(o));
    }
  }
  if (p.count != 0) j["count"] = p.count;
  return j;
}

json encode_sliced_detail(const AcceleratorSlicedDetail& d) {
  json physical = json::object();
  if (!d.physical.profiles.empty()) {
    auto& profiles = physical["profiles"] = json::array();
    for (const auto& pr : d.physical.profiles) {
      json o{{"name", pr.name}, {"count", pr.count}};
      if (pr.memory_mib != 0) o["memoryMib"] = pr.memory_mib;
      profiles.push_back(std::move(o));
    }
  }
  if (d.physical.count != 0) physical["count"] = d.physical.count;
  return {{"logical", encode_logical(d.logical)}, {"physical", std::move(physical)}};
}

json encode_accelerator(const Accelerator& a) {
  json j{{"id", a.id}, {"index", a.index}, {"physicalIndexes", a.physical_indexes}};
  if (!a.topology_json.empty()) j["topology"] = verbatim(a.topology_json);
  j["status"] = encode_accelerator_status(a.status);
  return j;
}

json encode_group(const DevicesGroup& g) {
  json j{{"id", g.id}, {"manufacturer", g.manufacturer}, {"name", g.name}, {"memory", g.memory}};
  if (g.cores != 0) j["cores"] = g.cores;
  if (!g.driver_version.empty()) j["driverVersion"] = g.driver_version;
  if (!g.runtime_version.empty()) j["runtimeVersion"] = g.runtime_version;
  if (!g.compute_capability.empty()) j["computeCapability"] = g.compute_capability;
  if (!g.family.empty()) j["family"] = g.family;
  if (!g.accelerators.empty()) {
    auto& list = j["accelerators"] = json::array();
    for (const auto& a : g.accelerators) list.push_back(encode_accelerator(a));
  }
  j["acceleratorSlicedDetail"] = encode_sliced_detail(g.accelerator_sliced_detail);
  return j;
}

json encode_profile_counts(const std::vector<AcceleratorProfileCount>& counts) {
  json out = json::array();
  for (const auto& c : counts) out.push_back({{"name", c.name}, {"count", c.count}});
  return out;
}

// ---- decoding (throws codec::DecodeError) ----------------------------------------------------

int32_t count_at(const json& o, std::string_view key, const std::string& parent) {
  return static_cast<int32_t>(codec::read_int(o, key, parent, 0, kInt32Max));
}

AcceleratorPlacement decode_placement(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  return {count_at(o, "start", path), count_at(o, "length", path)};
}

AcceleratorLogicalSliced decode_logical(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  return {codec::read_bool(o, "coresPercentageOvercommit", path), count_at(o, "count", path)};
}

AcceleratorProfileCount decode_profile_count(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  return {codec::read_string(o, "name", path), count_at(o, "count", path)};
}

AcceleratorPhysicalSlicedProfile decode_physical_profile(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  AcceleratorPhysicalSlicedProfile pr;
  pr.name = codec::read_string(o, "name", path);
  pr.memory_mib = codec::read_int(o, "memoryMib", path, 0, kInt64Max);
  pr.compute_slices = count_at(o, "computeSlices", path);
  pr.memory_slices = count_at(o, "memorySlices", path);
  pr.count = count_at(o, "count", path);
  pr.placements = codec::read_list(o, "placements", path, decode_placement);
  return pr;
}

AcceleratorSlicedPhysicalDetailProfile decode_detail_profile(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  return {codec::read_string(o, "name", path), count_at(o, "count", path),
          codec::read_int(o, "memoryMib", path, 0, kInt64Max)};
}

// {profiles, count}: a card's physicalSliced or a group's acceleratorSlicedDetail.physical.
template <typename Physical, typename DecodeProfile>
Physical decode_physical(const json& o, const std::string& path, DecodeProfile decode_profile) {
  codec::expect_object(o, path);
  Physical p;
  p.profiles = codec::read_list(o, "profiles", path, decode_profile);
  p.count = count_at(o, "count", path);
  return p;
}

AcceleratorStatus decode_status_at(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  AcceleratorStatus s;
  s.unhealthy = codec::read_bool(o, "unhealthy", path);
  if (const json* l = codec::find_member(o, "logicalSliced"))
    s.logical_sliced = decode_logical(*l, codec::member_path(path, "logicalSliced"));
  if (const json* p = codec::find_member(o, "physicalSliced"))
    s.physical_sliced = decode_physical<AcceleratorPhysicalSliced>(*p, codec::member_path(path, "physicalSliced"),
                                                                   decode_physical_profile);
  return s;
}

AcceleratorSlicedDetail decode_sliced_detail(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  AcceleratorSlicedDetail d;
  if (const json* l = codec::find_member(o, "logical"))
    d.logical = decode_logical(*l, codec::member_path(path, "logical"));
  if (const json* p = codec::find_member(o, "physical"))
    d.physical = decode_physical<AcceleratorSlicedDetail::Physical>(*p, codec::member_path(path, "physical"),
                                                                    decode_detail_profile);
  return d;
}

Accelerator decode_accelerator(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  Accelerator a;
  a.id = codec::read_string(o, "id", path);
  a.index = static_cast<uint32_t>(codec::read_int(o, "index", path, 0, kUint32Max));
  a.physical_indexes = codec::read_list(o, "physicalIndexes", path, [](const json& v, const std::string& at) {
    return static_cast<uint32_t>(codec::as_int(v, at, 0, kUint32Max));
  });
  if (const json* t = codec::find_member(o, "topology")) {
    codec::expect_object(*t, codec::member_path(path, "topology"));
    a.topology_json = t->dump();
  }
  if (const json* s = codec::find_member(o, "status")) a.status = decode_status_at(*s, codec::member_path(path, "status"));
  return a;
}

DevicesGroup decode_group(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  DevicesGroup g;
  g.id = codec::read_string(o, "id", path);
  g.manufacturer = codec::read_string(o, "manufacturer", path);
  g.name = codec::read_string(o, "name", path);
  g.memory = codec::read_uint64(o, "memory", path);
  g.cores = static_cast<uint32_t>(codec::read_int(o, "cores", path, 0, kUint32Max));
  g.driver_version = codec::read_string(o, "driverVersion", path);
  g.runtime_version = codec::read_string(o, "runtimeVersion", path);
  g.compute_capability = codec::read_string(o, "computeCapability", path);
  g.family = codec::read_string(o, "family", path);
  g.accelerators = codec::read_list(o, "accelerators", path, decode_accelerator);
  if (const json* d = codec::find_member(o, "acceleratorSlicedDetail"))
    g.accelerator_sliced_detail = decode_sliced_detail(*d, codec::member_path(path, "acceleratorSlicedDetail"));
  return g;
}

DeviceAllocationMode decode_mode(const json& o, const std::string& parent) {
  const json* v = codec::find_member(o, "mode");
  if (v == nullptr) return DeviceAllocationMode::kNone;
  const std::string path = codec::member_path(parent, "mode");
  if (v->is_string()) {
    const auto mode = parse_allocation_mode(v->get<std::string>());
    if (!mode)
      codec::fail(path, "expected an allocation mode (a number, or one of None, Exclusive, Shared, Sliced, "
                        "Partitioned, Visibility), got " + v->dump());
    return *mode;
  }
  // The operator's modes are 0 (None) to 5 (Visibility); any other number is no ledger it writes.
  return allocation_mode_from_number(static_cast<uint32_t>(codec::as_int(*v, path, 0, 5)));
}

AcceleratorAllocation decode_allocation_at(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  AcceleratorAllocation a;
  a.id = codec::read_string(o, "id", path);
  a.index = static_cast<uint32_t>(codec::read_int(o, "index", path, 0, kUint32Max));
  a.mode = decode_mode(o, path);
  a.allocated = count_at(o, "allocated", path);
  a.remaining = count_at(o, "remaining", path);
  a.allocated_slices = count_at(o, "allocatedSlices", path);
  a.allocated_profiles = codec::read_list(o, "allocatedProfiles", path, decode_profile_count);
  a.remaining_profiles = codec::read_list(o, "remainingProfiles", path, decode_profile_count);
  return a;
}

DevicesAllocationGroup decode_allocation_group(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  DevicesAllocationGroup g;
  g.id = codec::read_string(o, "id", path);
  g.manufacturer = codec::read_string(o, "manufacturer", path);
  g.accelerators = codec::read_list(o, "accelerators", path, decode_allocation_at);
  return g;
}

template <typename T, typename F>
Result<T> guarded(F&& decode) {
  try {
    return decode();
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace

json encode_accelerator_status(const AcceleratorStatus& s) {
  return {{"unhealthy", s.unhealthy},
          {"logicalSliced", encode_logical(s.logical_sliced)},
          {"physicalSliced", encode_physical(s.physical_sliced)}};
}

json encode_accelerator_allocation(const AcceleratorAllocation& a) {
  json j{{"id", a.id}, {"index", a.index}, {"mode", static_cast<uint32_t>(a.mode)}};
  if (a.allocated != 0) j["allocated"] = a.allocated;
  if (a.remaining != 0) j["remaining"] = a.remaining;
  if (a.allocated_slices != 0) j["allocatedSlices"] = a.allocated_slices;
  if (!a.allocated_profiles.empty()) j["allocatedProfiles"] = encode_profile_counts(a.allocated_profiles);
  if (!a.remaining_profiles.empty()) j["remainingProfiles"] = encode_profile_counts(a.remaining_profiles);
  return j;
}

json encode_devices(const Devices& d) {
  json spec{{"groups", json::array()}};
  for (const auto& g : d.spec.groups) spec["groups"].push_back(encode_group(g));
  if (!d.spec.interfaces_json.empty()) spec["interfaces"] = verbatim(d.spec.interfaces_json);
  json status = json::object();
  if (!d.status.groups.empty()) {
    auto& groups = status["groups"] = json::array();
    for (const auto& g : d.status.groups) {
      json o{{"id", g.id}, {"manufacturer", g.manufacturer}};
      if (!g.accelerators.empty()) {
        auto& list = o["accelerators"] = json::array();
        for (const auto& a : g.accelerators) list.push_back(encode_accelerator_allocation(a));
      }
      groups.push_back(std::move(o));
    }
  }
  return {{"apiVersion", kDevicesApiVersion},
          {"kind", kDevicesKind},
          {"metadata", encode_object_meta(d.metadata)},
          {"spec", std::move(spec)},
          {"status", std::move(status)}};
}

Result<Devices> decode_devices(const nlohmann::json& doc) {
  return guarded<Devices>([&] {
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {kDevicesApiVersion, "worker.gpustack.ai/v1alpha1"}, kDevicesKind);
    Devices d;
    if (const json* m = codec::find_member(doc, "metadata")) d.metadata = codec::decode_object_meta_at(*m, "metadata");
    if (const json* spec = codec::find_member(doc, "spec")) {
      codec::expect_object(*spec, "spec");
      d.spec.groups = codec::read_list(*spec, "groups", "spec", decode_group);
      if (const json* nics = codec::find_member(*spec, "interfaces")) {
        if (!nics->is_array()) codec::fail("spec.interfaces", "expected an array, got " + nics->dump());
        d.spec.interfaces_json = nics->dump();
      }
    }
    if (const json* status = codec::find_member(doc, "status")) {
      codec::expect_object(*status, "status");
      d.status.groups = codec::read_list(*status, "groups", "status", decode_allocation_group);
    }
    return d;
  });
}

Result<AcceleratorAllocation> decode_accelerator_allocation(const nlohmann::json& value) {
  return guarded<AcceleratorAllocation>([&] { return decode_allocation_at(value, ""); });
}

Result<AcceleratorStatus> decode_accelerator_status(const nlohmann::json& value) {
  return guarded<AcceleratorStatus>([&] { return decode_status_at(value, ""); });
}

json encode_accelerator_sliced_detail(const AcceleratorSlicedDetail& detail) { return encode_sliced_detail(detail); }

AcceleratorSlicedDetail codec::decode_accelerator_sliced_detail_at(const json& value, const std::string& path) {
  return decode_sliced_detail(value, path);
}

}  // namespace chaintwin::model
