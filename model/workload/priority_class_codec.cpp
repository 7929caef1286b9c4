#include "model/workload/priority_class_codec.h"

#include <limits>

#include "model/api/codec_support.h"
#include "model/api/object_meta_codec.h"
#include "model/kueue/kueue_codec.h"

namespace chaintwin::model {

using codec::json;

namespace {

constexpr int64_t kHighestUserDefinablePriority = 1'000'000'000;

int32_t read_value(const json& doc) {
  if (codec::find_member(doc, "value") == nullptr) codec::fail("value", "Required value");
  return static_cast<int32_t>(codec::read_int(doc, "value", "", std::numeric_limits<int32_t>::min(),
                                              std::numeric_limits<int32_t>::max()));
}

}  // namespace

Result<WorkloadPriorityClass> decode_workload_priority_class(const json& doc) {
  try {
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {kKueueApiVersion, kKueueApiVersionV1beta1}, "WorkloadPriorityClass");
    WorkloadPriorityClass c;
    if (const json* m = codec::find_member(doc, "metadata")) c.metadata = codec::decode_object_meta_at(*m, "metadata");
    c.value = read_value(doc);
    c.description = codec::read_string(doc, "description", "");
    return c;
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

Result<PriorityClass> decode_priority_class(const json& doc) {
  try {
    codec::expect_object(doc, "");
    codec::expect_type_meta(doc, {"scheduling.k8s.io/v1"}, "PriorityClass");
    PriorityClass c;
    if (const json* m = codec::find_member(doc, "metadata")) c.metadata = codec::decode_object_meta_at(*m, "metadata");
    c.value = read_value(doc);
    if (c.value > kHighestUserDefinablePriority && c.metadata.name.rfind("system-", 0) != 0)
      codec::fail("value", "Forbidden: maximum allowed value of a user defined priority is 1000000000");
    c.global_default = codec::read_bool(doc, "globalDefault", "");
    c.description = codec::read_string(doc, "description", "");
    return c;
  } catch (const codec::DecodeError& e) {
    return err(e.what());
  }
}

json encode_workload_priority_class(const WorkloadPriorityClass& c) {
  json o = {{"apiVersion", kKueueApiVersion}, {"kind", "WorkloadPriorityClass"},
            {"metadata", encode_object_meta(c.metadata)}, {"value", c.value}};
  if (!c.description.empty()) o["description"] = c.description;
  return o;
}

json encode_priority_class(const PriorityClass& c) {
  json o = {{"apiVersion", "scheduling.k8s.io/v1"}, {"kind", "PriorityClass"},
            {"metadata", encode_object_meta(c.metadata)}, {"value", c.value}};
  if (c.global_default) o["globalDefault"] = true;
  if (!c.description.empty()) o["description"] = c.description;
  return o;
}

}  // namespace chaintwin::model
