// InstanceType and InstanceTypeFlavor JSON encoding and path-aware decoding.
#include "model/api/instance_type_codec.h"

#include <limits>
#include <map>

#include "model/api/codec_support.h"
#include "model/api/devices_codec.h"
#include "model/api/quantity.h"
#include "model/kueue/condition_codec.h"
#include "model/stage4/cpu_detail_note.h"
#include "model/api/object_meta_codec.h"
#include "model/api/topology_source_codec.h"

namespace chaintwin::model {
namespace {

using codec::json;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

void put_if(json& o, std::string_view key, const std::string& value) {
  if (!value.empty()) o[std::string(key)] = value;
}

// ---- encoding ----------------------------------------------------------------------------------

json encode_view(const InstanceTypeCapacityView& v) {
  return {{"capacity", Quantity::from_int(v.capacity).to_string()},
          {"onceMaxRequest", Quantity::from_int(v.once_max_request).to_string()},
          {"remaining", Quantity::from_int(v.remaining).to_string()}};
}

json encode_profiles(const std::map<std::string, int64_t>& profiles) {
  json out = json::array();
  for (const auto& [name, count] : profiles) out.push_back({{"name", name}, {"count", count}});
  return out;
}

json encode_detail(const InstanceTypeDetail& d) {
  json j = json::object();
  put_if(j, "manufacturer", d.manufacturer);
  put_if(j, "product", d.product);
  put_if(j, "family", d.family);
  put_if(j, "memory", d.memory);
  put_if(j, "cores", d.cores);
  put_if(j, "computeCapability", d.compute_capability);
  if (d.sliced_detail != AcceleratorSlicedDetail{}) j["slicedDetail"] = encode_accelerator_sliced_detail(d.sliced_detail);
  if (!d.cpu.empty()) {
    auto parsed = json::parse(d.cpu, nullptr, false);
    j["cpu"] = parsed.is_discarded() ? json(d.cpu) : parsed;
  }
  return j;
}

json encode_spec(const InstanceTypeSpec& s) {
  json j{{"acceleratable", s.acceleratable},
         {"os", s.os},
         {"arch", s.arch},
         {"unitResources", json::object()},
         {"localStorage", s.local_storage}};
  put_if(j, "displayName", s.display_name);
  put_if(j, "description", s.description);
  if (s.inactive) j["inactive"] = true;
  put_if(j, "acceleratorGroup", s.accelerator_group);
  put_if(j, "generalGroup", s.general_group);
  put_if(j["unitResources"], "cpu", s.unit_resources.cpu);
  put_if(j["unitResources"], "ram", s.unit_resources.ram);
  put_if(j, "manufacturer", s.descriptors.manufacturer);
  put_if(j, "product", s.descriptors.product);
  put_if(j, "family", s.descriptors.family);
  put_if(j, "memory", s.descriptors.memory);
  put_if(j, "cores", s.descriptors.cores);
  return j;
}

json encode_status(const InstanceTypeStatus& s) {
  json partitioned = encode_view(s.accelerator_partitioned.view);
  if (!s.accelerator_partitioned.allocated_profiles.empty())
    partitioned["allocatedProfiles"] = encode_profiles(s.accelerator_partitioned.allocated_profiles);
  if (!s.accelerator_partitioned.remaining_profiles.empty())
    partitioned["remainingProfiles"] = encode_profiles(s.accelerator_partitioned.remaining_profiles);
  json j{{"phase", s.phase},
         {"accelerator", encode_view(s.accelerator)},
         {"acceleratorShared", encode_view(s.accelerator_shared)},
         {"acceleratorSliced", encode_view(s.accelerator_sliced)},
         {"acceleratorPartitioned", std::move(partitioned)},
         {"cpu", encode_view(s.cpu)}};
  put_if(j, "phaseMessage", s.phase_message);
  put_if(j, "entrance", s.entrance);
  json detail = encode_detail(s.detail);
  if (!detail.empty()) j["detail"] = std::move(detail);
  if (!s.conditions.empty()) j["conditions"] = encode_conditions(s.conditions);
  return j;
}

// ---- decoding (throws codec::DecodeError) ------------------------------------------------------

int64_t whole_quantity(const json& o, std::string_view key, const std::string& parent) {
  const json* v = codec::find_member(o, key);
  if (v == nullptr) return 0;
  const std::string path = codec::member_path(parent, key);
  const Quantity q = codec::as_quantity(*v, path);
  const auto exact = q.exact_int();
  if (!exact) codec::fail(path, "expected a whole number, got " + json(q.to_string()).dump());
  if (*exact < 0) codec::fail(path, "must not be negative, got " + json(q.to_string()).dump());
  return *exact;
}

InstanceTypeCapacityView decode_view(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  return {whole_quantity(o, "capacity", path), whole_quantity(o, "onceMaxRequest", path),
          whole_quantity(o, "remaining", path)};
}

InstanceTypeCapacityView view_at(const json& status, std::string_view key) {
  const json* v = codec::find_member(status, key);
  return v == nullptr ? InstanceTypeCapacityView{} : decode_view(*v, codec::member_path("status", key));
}

std::map<std::string, int64_t> decode_profiles(const json& o, std::string_view key, const std::string& parent) {
  std::map<std::string, int64_t> out;
  const json& list = codec::read_array(o, key, parent);
  const std::string path = codec::member_path(parent, key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = codec::index_path(path, i);
    codec::expect_object(list[i], at);
    const std::string name = codec::read_string(list[i], "name", at);
    if (name.empty()) codec::fail(codec::member_path(at, "name"), "must not be empty");
    if (!out.emplace(name, codec::read_int(list[i], "count", at, 0, kInt32Max)).second)
      codec::fail(codec::member_path(at, "name"), "duplicate profile " + json(name).dump());
  }
  return out;
}

// status.detail.cpu as the model holds it: the cpuDetail note's text, which the operator marshals
// with Go's field order (cpu_detail_note.h). The API carries it as an object whose key order a
// JSON reader does not keep, so an object of the note's own fields is marshalled again the same way
// (a status read back then equals the one the operator would write); anything else is kept as its
// compact JSON text.
std::string cpu_detail_text(const json& c) {
  static const std::map<std::string, std::string CpuDetail::*> kFields = {
      {"manufacturer", &CpuDetail::manufacturer},     {"product", &CpuDetail::product},
      {"family", &CpuDetail::family},                 {"physicalCores", &CpuDetail::physical_cores},
      {"threadsPerPhysicalCore", &CpuDetail::threads_per_physical_core},
      {"logicalCores", &CpuDetail::logical_cores},    {"stepping", &CpuDetail::stepping},
      {"clockSpeed", &CpuDetail::clock_speed},        {"maxClockSpeed", &CpuDetail::max_clock_speed},
      {"cacheLine", &CpuDetail::cache_line}};
  static const std::map<std::string, std::string CpuDetail::*> kCache = {
      {"l1i", &CpuDetail::cache_l1i}, {"l1d", &CpuDetail::cache_l1d}, {"l2", &CpuDetail::cache_l2}, {"l3", &CpuDetail::cache_l3}};
  CpuDetail d;
  bool acceleratable = false, cache = false;
  for (auto it = c.begin(); it != c.end(); ++it) {
    if (it.key() == "cache" && it->is_object()) {
      cache = true;
      for (auto ci = it->begin(); ci != it->end(); ++ci) {
        const auto f = kCache.find(ci.key());
        if (f == kCache.end() || !ci->is_string()) return c.dump();
        d.*(f->second) = ci->get<std::string>();
      }
      continue;
    }
    const auto f = kFields.find(it.key());
    if (f == kFields.end() || !it->is_string()) return c.dump();
    d.*(f->second) = it->get<std::string>();
    acceleratable = acceleratable || it.key() == "manufacturer" || it.key() == "product" || it.key() == "family";
  }
  if (!cache) return c.dump();  // the note always carries its cache object
  return cpu_detail_note(d, acceleratable);
}

InstanceTypeDetail decode_detail(const json& o, const std::string& path) {
  codec::expect_object(o, path);
  InstanceTypeDetail d;
  d.manufacturer = codec::read_string(o, "manufacturer", path);
  d.product = codec::read_string(o, "product", path);
  d.family = codec::read_string(o, "family", path);
  d.memory = codec::read_string(o, "memory", path);
  d.cores = codec::read_string(o, "cores", path);
  d.compute_capability = codec::read_string(o, "computeCapability", path);
  if (const json* s = codec::find_member(o, "slicedDetail"))
    d.sliced_detail = codec::decode_accelerator_sliced_detail_at(*s, codec::member_path(path, "slicedDetail"));
  if (const json* c = codec::find_member(o, "cpu")) {
    codec::expect_object(*c, codec::member_path(path, "cpu"));
    if (!c->empty()) d.cpu = cpu_detail_text(*c);
  }
  return d;
}

InstanceTypeSpec decode_spec(const json& o) {
  InstanceTypeSpec s;
  s.display_name = codec::read_string(o, "displayName", "spec");
  s.description = codec::read_string(o, "description", "spec");
  s.inactive = codec::read_bool(o, "inactive", "spec");
  s.accelerator_group = codec::read_string(o, "acceleratorGroup", "spec");
  s.general_group = codec::read_string(o, "generalGroup", "spec");
  s.acceleratable = codec::read_bool(o, "acceleratable", "spec");
  s.os = codec::read_string(o, "os", "spec");
  s.arch = codec::read_string(o, "arch", "spec");
  if (const json* u = codec::find_member(o, "unitResources")) {
    codec::expect_object(*u, "spec.unitResources");
    s.unit_resources.cpu = codec::read_string(*u, "cpu", "spec.unitResources");
    s.unit_resources.ram = codec::read_string(*u, "ram", "spec.unitResources");
  }
  s.local_storage = codec::read_string(o, "localStorage", "spec");
  // resource.Quantity fields in the Go type: text that is no quantity does not decode.
  for (const auto& [value, path] : {std::pair{&s.unit_resources.cpu, "spec.unitResources.cpu"},
                                    std::pair{&s.unit_resources.ram, "spec.unitResources.ram"},
                                    std::pair{&s.local_storage, "spec.localStorage"}}) {
    if (value->empty()) continue;
    const auto q = Quantity::parse(*value);
    if (!q.ok()) codec::fail(path, q.error());
    if (q->sign() < 0) codec::fail(path, "'" + *value + "' must be greater than or equal to 0");
  }
  s.descriptors.manufacturer = codec::read_string(o, "manufacturer", "spec");
  s.descriptors.product = codec::read_string(o, "product", "spec");
  s.descriptors.family = codec::read_string(o, "family", "spec");
  s.descriptors.memory = codec::read_string(o, "memory", "spec");
  s.descriptors.cores = codec::read_string(o, "cores", "spec");
  return s;
}

InstanceTypeStatus decode_status(const json& o) {
  InstanceTypeStatus s;
  s.phase = codec::read_string(o, "phase", "status");
  s.phase_message = codec::read_string(o, "phaseMessage", "status");
  s.entrance = codec::read_string(o, "entrance", "status");
  s.accelerator = view_at(o, "accelerator");
  s.accelerator_shared = view_at(o, "acceleratorShared");
  s.accelerator_sliced = view_at(o, "acceleratorSliced");
  s.cpu = view_at(o, "cpu");
  if (const json* p = codec::find_member(o, "acceleratorPartitioned")) {
    const std::string path = "status.acceleratorPartitioned";
    s.accelerator_partitioned.view = decode_view(*p, path);
    s.accelerator_partitioned.allocated_profiles = decode_profiles(*p, "allocatedProfiles", path);
    s.accelerator_partitioned.remaining_profiles = decode_profiles(*p, "remainingProfiles", path);
  }
  if (const json* d = codec::find_member(o, "detail")) s.detail = decode_detail(*d, "status.detail");
  if (const json* c = codec::find_member(o, "conditions")) s.conditions = codec::decode_conditions_at(*c, "status.conditions");
  return s;
}

}  // namespace

json encode_instance_type(const InstanceType& it) {
  return {{"apiVersion", kWorkerApiVersion},
          {"kind", "InstanceType"},
          {"metadata", encode_object_meta(it.metadata)},
          {"spec", encode_spec(it.spec)},
          {"status", encode_status(it.status)}};
}

Result<InstanceType> decode_instance_type(const json& doc) {
  try {
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {kWorkerApiVersion, kWorkerApiVersionV1alpha1}, "InstanceType");
    InstanceType it;
    if (const json* m = codec::find_member(doc, "metadata")) it.metadata = codec::decode_object_meta_at(*m, "metadata");
    if (const json* spec = codec::find_member(doc, "spec")) {
      codec::expect_object(*spec, "spec");
      it.spec = decode_spec(*spec);
    }
    if (const json* status = codec::find_member(doc, "status")) {
      codec::expect_object(*status, "status");
      it.status = decode_status(*status);
    }
    return it;
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

json encode_instance_type_flavor(const InstanceTypeFlavor& f) {
  json spec{{"acceleratable", f.spec.acceleratable}};
  put_if(spec, "acceleratorGroup", f.spec.accelerator_group);
  put_if(spec, "generalGroup", f.spec.general_group);
  put_if(spec, "manufacturer", f.spec.manufacturer);
  put_if(spec, "product", f.spec.product);
  put_if(spec, "family", f.spec.family);
  put_if(spec, "memory", f.spec.memory);
  put_if(spec, "cores", f.spec.cores);
  if (f.spec.sliceable) spec["sliceable"] = true;
  return {{"apiVersion", kWorkerApiVersion},
          {"kind", "InstanceTypeFlavor"},
          {"metadata", encode_object_meta(f.metadata)},
          {"spec", std::move(spec)}};
}

Result<InstanceTypeFlavor> decode_instance_type_flavor(const json& doc) {
  try {
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {kWorkerApiVersion}, "InstanceTypeFlavor");
    InstanceTypeFlavor f;
    if (const json* m = codec::find_member(doc, "metadata")) f.metadata = codec::decode_object_meta_at(*m, "metadata");
    if (const json* spec = codec::find_member(doc, "spec")) {
      codec::expect_object(*spec, "spec");
      f.spec.acceleratable = codec::read_bool(*spec, "acceleratable", "spec");
      f.spec.accelerator_group = codec::read_string(*spec, "acceleratorGroup", "spec");
      f.spec.general_group = codec::read_string(*spec, "generalGroup", "spec");
      f.spec.manufacturer = codec::read_string(*spec, "manufacturer", "spec");
      f.spec.product = codec::read_string(*spec, "product", "spec");
      f.spec.family = codec::read_string(*spec, "family", "spec");
      f.spec.memory = codec::read_string(*spec, "memory", "spec");
      f.spec.cores = codec::read_string(*spec, "cores", "spec");
      f.spec.sliceable = codec::read_bool(*spec, "sliceable", "spec");
    }
    return f;
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

}  // namespace chaintwin::model
