// Golden handlers for devices-schema.json: allocation-mode names, population predicates,
// LogicalSlotsFree and PartitionLedgerReady (ledger rows are read through the Devices codec), and
// the Devices codec itself. The operator serialises Devices with encoding/json over the struct
// tags of api/worker/v1alpha1/devices.go (json.Marshal / json.Unmarshal, as the API machinery
// does for application/json); the handlers answer under those names.
#include <stdexcept>

#include "model/api/devices_codec.h"
#include "model/stage3/population.h"
#include "tests/golden/golden_registry.h"

using chaintwin::golden::Spec;

namespace {

using chaintwin::golden::json;
namespace model = chaintwin::model;

// The recorded status uses dotted keys ("logicalSliced.count"); absent ones read as 0.
model::AcceleratorStatus status_of(const json& in) {
  model::AcceleratorStatus s;
  s.logical_sliced.count = in.value("logicalSliced.count", 0);
  s.physical_sliced.count = in.value("physicalSliced.count", 0);
  return s;
}

GOLDEN_HANDLER(Spec("devices-schema", "DeviceAllocationMode.String").alias("DeviceAllocationMode").in({"value"}).out({"string"}), [](const json& in, const json&) -> json {
  // The raw number, unchecked, so the String() default branch is what renders an unknown value.
  const auto mode = static_cast<model::DeviceAllocationMode>(in.at("value").get<uint32_t>());
  return {{"string", std::string(model::to_string(mode))}};
})

GOLDEN_HANDLER(Spec("devices-schema", "population predicates").alias("IsPartitioned").alias("IsLogicallySliceable").alias("IsWholeAcceleratorCapable").alias("LogicalSlotsFree").in({"acceleratorStatus"}).opt({"allocatedSlices"}).out({"IsPartitioned", "IsLogicallySliceable", "IsWholeAcceleratorCapable", "slotsFree"}), [](const json& in, const json&) -> json {
  const auto s = status_of(in.at("acceleratorStatus"));
  return {{"IsPartitioned", model::is_partitioned(s)},
          {"IsLogicallySliceable", model::is_logically_sliceable(s)},
          {"IsWholeAcceleratorCapable", model::is_whole_accelerator_capable(s)},
          {"slotsFree", model::logical_slots_free(s, in.value("allocatedSlices", 0))}};
})

GOLDEN_HANDLER(Spec("devices-schema", "PartitionLedgerReady").in({"allocation"}).out({"ready"}), [](const json& in, const json&) -> json {
  const json& row = in.at("allocation");
  if (row.is_null()) return {{"ready", model::partition_ledger_ready(nullptr)}};
  const auto allocation = model::decode_accelerator_allocation(row);
  if (!allocation) throw std::runtime_error("allocation: " + allocation.error());
  return {{"ready", model::partition_ledger_ready(&allocation.value())}};
})

// json.Unmarshal of a Devices document: whether it decodes and, when refused, the JSON path of the
// bad field (the part of the codec's error before ": ").
GOLDEN_HANDLER(Spec("devices-schema", "json.Unmarshal").alias("decodeDevices").in({"document"}).out({"ok", "errorAt"}).must({"ok"}), [](const json& in, const json&) -> json {
  const auto decoded = model::decode_devices(in.at("document"));
  if (decoded) return {{"ok", true}, {"errorAt", nullptr}};
  const std::string& e = decoded.error();
  const auto colon = e.find(": ");
  return {{"ok", false}, {"errorAt", colon == std::string::npos ? std::string() : e.substr(0, colon)}};
})

// json.Marshal of a decoded Devices document: the round trip, written with the API's JSON names.
GOLDEN_HANDLER(Spec("devices-schema", "json.Marshal").alias("encodeDevices").in({"document"}).out({"encoded"}).must({"encoded"}), [](const json& in, const json&) -> json {
  const auto decoded = model::decode_devices(in.at("document"));
  if (!decoded) throw std::runtime_error("document: " + decoded.error());
  return {{"encoded", model::encode_devices(decoded.value())}};
})

}  // namespace
