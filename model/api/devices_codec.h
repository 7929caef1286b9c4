// Devices <-> Kubernetes JSON (apiVersion worker.gpustack.ai/v1, kind Devices), with the JSON
// names of api/worker/v1alpha1/devices.go (the `types` table of golden/devices-schema.json):
// metadata, spec.groups[] (capability), spec.interfaces (kept verbatim), status.groups[] (the
// per-accelerator ledger). The allocation mode is written as its uint32 number, as the real API
// does, and read from a number or a name ("Sliced"); a number the enum does not define reads as
// None. Decode errors carry the JSON path of the bad field, e.g.
// `spec.groups[0].accelerators[1].status.logicalSliced.count: expected an integer, got "x"`, and
// negative counts are refused. Transport-only ledger fields (allocatedPhysicalProfile,
// allocatedPhysical/LogicalPlacements, allocatedPhysicalID) are ignored on decode and never
// written; the model-only AcceleratorAllocation::instances is not part of the API and is neither.
// apiVersion worker.gpustack.ai/v1alpha1 is accepted on decode as well.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "model/api/devices.h"
#include "model/result.h"

namespace chaintwin::model {

inline constexpr std::string_view kDevicesApiVersion = "worker.gpustack.ai/v1";
inline constexpr std::string_view kDevicesKind = "Devices";

nlohmann::json encode_devices(const Devices& devices);
Result<Devices> decode_devices(const nlohmann::json& document);

// One ledger row (status.groups[].accelerators[]) and one capability status
// (spec.groups[].accelerators[].status) on their own; error paths are relative to the value.
nlohmann::json encode_accelerator_allocation(const AcceleratorAllocation& allocation);
Result<AcceleratorAllocation> decode_accelerator_allocation(const nlohmann::json& value);
nlohmann::json encode_accelerator_status(const AcceleratorStatus& status);
Result<AcceleratorStatus> decode_accelerator_status(const nlohmann::json& value);
// A group's acceleratorSlicedDetail ({logical, physical}), also carried by InstanceType status.
nlohmann::json encode_accelerator_sliced_detail(const AcceleratorSlicedDetail& detail);

namespace codec {
// For other codecs: decodes an acceleratorSlicedDetail found at `path`, throwing DecodeError.
AcceleratorSlicedDetail decode_accelerator_sliced_detail_at(const nlohmann::json& value, const std::string& path);
}  // namespace codec

}  // namespace chaintwin::model
