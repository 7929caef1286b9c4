// The `note.gpustack.ai/cpuDetail` annotation of a node-derived ResourceFlavor (node_flavor.go
// cpuDetailNote, nodefeature.ExtractGeneralDetail): the CPU detail of a Node read from its
// `feature.gpustack.ai/cpu-*` annotations, marshalled exactly as Go's encoding/json marshals the
// operator's InstanceTypeCPU (CPU flavor) or InstanceTypeAcceleratorCPU (device flavor): fields in
// declaration order, empty strings omitted, the `cache` object always present.
// Called by node_flavor_shape.cpp; the InstanceType webhook side can parse it back.
#pragma once

#include <string>
#include <string_view>

#include "model/api/node.h"

namespace chaintwin::model {

struct CpuDetail {
  std::string manufacturer;  // lower-cased cpu-model.vendor_id, or "generic"
  std::string product;       // cpu-name
  std::string family;        // cpu-family
  std::string physical_cores, threads_per_physical_core, logical_cores, stepping;
  std::string clock_speed, max_clock_speed, cache_line;
  std::string cache_l1i, cache_l1d, cache_l2, cache_l3;
  bool operator==(const CpuDetail&) const = default;
};

// ExtractGeneralDetail: each value from `feature.gpustack.ai/cpu-<name>` (names physical-cores,
// threads-per-core, logical-cores, stepping, hz, boost-freq, cache-line, cache-l1i, cache-l1d,
// cache-l2, cache-l3, name, family); a value leading with '@' reads as unreported ("").
CpuDetail extract_general_detail(const Node& node);

// cpuDetailNote: InstanceTypeCPU JSON, or InstanceTypeAcceleratorCPU JSON (manufacturer, product,
// family first) when `acceleratable`. E.g. an unreported CPU gives {"cache":{}} and, on a device
// flavor, {"manufacturer":"generic","cache":{}}.
std::string cpu_detail_note(const CpuDetail& detail, bool acceleratable);

// A JSON string literal as Go's encoding/json writes it (HTML-safe: <, >, & as \u003c...;
// U+2028/U+2029 escaped; invalid UTF-8 as \ufffd).
std::string go_json_string(std::string_view text);

}  // namespace chaintwin::model
